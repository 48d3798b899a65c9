import { Console } from 'node:console';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseConsoleTable } from './cpu-rows.js';
import { issueRows } from './report.js';

/** What `console.table` prints for these rows, as `npm run bench:cpu` prints its result. */
function printedTable(rows: Record<string, unknown>[]): string {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  new Console(stream).table(rows);
  return text;
}

describe("npm run bench's reading of npm run bench:cpu", () => {
  it("reads console.table's rows back with their column names, numbers as numbers", () => {
    const rows = [
      {
        name: 'reference query via gateway',
        gateway_cpu_ms_per_op: 1.675,
        legacy_cpu_ms_per_op: 0.975,
        ops_per_s: 400,
      },
      {
        name: 'reference query via gateway, one request at a time',
        gateway_cpu_ms_per_op: 2.9,
        legacy_cpu_ms_per_op: 1,
        ops_per_s: 90,
      },
    ];
    expect(parseConsoleTable(`> org-gateway bench:cpu\n\n${printedTable(rows)}`)).toEqual(rows);
  });

  it('puts the concurrent and the one-at-a-time reference rows in their lines of the table, against their targets', () => {
    const rows = issueRows({
      concurrency: 8,
      p50_c8: { gateway: 11, direct: 10 },
      p50_c1: { gateway: 12, direct: 10 },
      bench_cpu_c8: null,
      bench_cpu_c1: null,
      cpu_rows: [
        { name: 'reference query via gateway', gateway_cpu_ms_per_op: 0.7 },
        { name: 'detail read via /service passthrough', gateway_cpu_ms_per_op: 0.3 },
        { name: 'reference query via gateway, one request at a time', gateway_cpu_ms_per_op: 1.5 },
      ],
      passthrough: { gateway: 7.2, direct: 6.8, bare: 7 },
      gateway_peak_rss_mb: 140,
      throughput: { gateway: 300, mesh: 100, hive: 50 },
    });
    const row = (start: string) => rows.find((candidate) => candidate.figure.startsWith(start));
    expect(row('reference query p50, gateway / direct plan, concurrency 8')).toMatchObject({
      measured: '1.1 (11 / 10 ms)',
      met: true,
    });
    expect(row('reference query p50, gateway / direct plan, concurrency 1')).toMatchObject({ met: false });
    expect(row('gateway CPU per reference query, concurrent')).toMatchObject({
      measured: expect.stringMatching(/^0\.7 ms/),
      met: true,
    });
    expect(row('gateway CPU per reference query, one request')).toMatchObject({
      measured: expect.stringMatching(/^1\.5 ms/),
      met: false,
    });
    expect(row('/service passthrough overhead')).toMatchObject({
      measured: expect.stringMatching(/^\+0\.4 ms \(bare Node hop \+0\.2 ms/),
      met: true,
    });
    expect(row('gateway peak RSS')).toMatchObject({ measured: '140 MB', met: true });
    expect(row("throughput against Mesh v0's own server")).toMatchObject({
      measured: expect.stringMatching(/^3×/),
      met: true,
    });
    expect(row('throughput against Hive Gateway')).toMatchObject({ measured: expect.stringMatching(/^6×/) });
  });
});
