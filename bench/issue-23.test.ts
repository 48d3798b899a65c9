import { describe, expect, it } from 'vitest';
import { floorRows } from './cpu-floor.js';
import { issue23Rows, type Issue23Figures } from './issue-23.js';

const cpuRows = [
  { name: 'reference query via gateway', gateway_cpu_ms_per_op: 3 },
  { name: 'reference query via gateway, one at a time', gateway_cpu_ms_per_op: 4 },
  { name: 'v30 reference query via gateway', gateway_cpu_ms_per_op: 2.5 },
  { name: 'detail read via /service passthrough', gateway_cpu_ms_per_op: 0.7 },
  { name: 'detail read via a bare Node proxy', gateway_cpu_ms_per_op: 0.6 },
];

describe("issue 23's floor", () => {
  it('is 3.5 bare-proxy reads for a reference query (seven exchanges) and one for a passthrough read', () => {
    const rows = floorRows(cpuRows);
    expect(rows.map((row) => [row.figure, row.floor_ms, row.ratio, row.met])).toEqual([
      ['v2 reference query, c=8', 2.1, 1.43, 'yes'],
      ['v2 reference query, one at a time', 2.1, 1.9, 'no'],
      ['v30 reference query, c=8', 2.1, 1.19, 'yes'],
      ['/service detail read, c=8', 0.6, 1.17, 'yes'],
    ]);
  });

  it('has no rows without the bare proxy, and leaves out the cases a --only run skipped', () => {
    expect(floorRows(cpuRows.filter((row) => !row.name.includes('bare')))).toEqual([]);
    expect(
      floorRows(cpuRows.filter((row) => !row.name.startsWith('reference'))).map((row) => row.figure),
    ).toEqual(['v30 reference query, c=8', '/service detail read, c=8']);
  });
});

describe("issue 23's table in npm run bench", () => {
  const figures: Issue23Figures = {
    concurrency: 8,
    cpu_rows: cpuRows,
    p50: {
      v2_c8: { gateway: 11, direct: 10 },
      v2_c1: { gateway: 12, direct: 10 },
      v30_c8: null,
      v30_c1: { gateway: 10.5, direct: 10 },
    },
    throughput: { gateway: 600, mesh: 190, hive: 210 },
  };

  it('reads each figure against its target, and a missing one as not measured', () => {
    const rows = issue23Rows(figures);
    const row = (start: string) => rows.find((candidate) => candidate.figure.startsWith(start));
    expect(row('CPU per operation, v2 reference query, c=8')).toMatchObject({ ratio: 1.43, met: true });
    expect(row('CPU per operation, /service detail read')).toMatchObject({ ratio: 1.17, met: true });
    expect(row('v2 reference query p50 / direct plan, concurrency 8')).toMatchObject({
      ratio: 1.1,
      met: true,
    });
    expect(row('v2 reference query p50 / direct plan, concurrency 1')).toMatchObject({
      ratio: 1.2,
      met: false,
    });
    expect(row('v30 reference query p50 / direct plan, concurrency 8')).toMatchObject({
      measured: 'not measured',
      met: null,
    });
    expect(row("reference queries per second, gateway / Mesh v0's server")).toMatchObject({
      ratio: 3.16,
      met: true,
    });
    expect(row('reference queries per second, gateway / Hive Gateway')).toMatchObject({
      ratio: 2.86,
      met: false,
    });
  });

  it('says when bench:cpu gave no floor', () => {
    const rows = issue23Rows({ ...figures, cpu_rows: [] });
    expect(rows[0]).toMatchObject({ figure: 'CPU per operation against the floor', met: null });
  });
});
