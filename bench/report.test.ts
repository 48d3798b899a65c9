import { Console } from 'node:console';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseConsoleTable } from './cpu-rows.js';
import { issueRows, v30Rows, type V30Figures } from './report.js';

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

describe("npm run bench's v30 rows (issue 21)", () => {
  const figures: V30Figures = {
    concurrency: 8,
    p50_c8: { gateway: 12, direct: 10 },
    p50_c1: { gateway: 30, direct: 24 },
    v2_p50_c8: 11,
    plan: { requests: 6, rounds: 2, same_data_as_v2: true },
    cpu_rows: [
      { name: 'reference query via gateway', gateway_cpu_ms_per_op: 0.7, legacy_cpu_ms_per_op: 1 },
      { name: 'v30 reference query via gateway', gateway_cpu_ms_per_op: 0.9, legacy_cpu_ms_per_op: 1.1 },
      {
        name: 'reference plan direct, beside v30 (the 6 legacy GETs by hand)',
        gateway_cpu_ms_per_op: 0,
        legacy_cpu_ms_per_op: 1,
      },
    ],
    every_unit: {
      units: 10_000,
      gateway: { p50: 3000, throughput: 0.33 },
      direct: { p50: 2000, throughput: 0.5 },
      plan: { requests: 20_001, rounds: 2 },
      budget: 25_000,
    },
    hive: { p50: 40, throughput: 200, direct_p50: 10, gateway_throughput: 600 },
  };
  const row = (rows: ReturnType<typeof v30Rows>, start: string) =>
    rows.find((candidate) => candidate.figure.startsWith(start));

  it('prints each v30 figure with its ratio against the direct plan', () => {
    const rows = v30Rows(figures);
    expect(row(rows, 'v30 reference query p50, gateway / direct plan, concurrency 8')).toEqual({
      figure: 'v30 reference query p50, gateway / direct plan, concurrency 8',
      measured: '12 / 10 ms',
      'ratio to direct plan': 1.2,
    });
    expect(row(rows, 'v30 reference query p50, gateway / direct plan, concurrency 1')).toMatchObject({
      measured: '30 / 24 ms',
      'ratio to direct plan': 1.25,
    });
    expect(row(rows, "v30 reference query p50 / v2's")).toMatchObject({ measured: '1.09 (12 / 11 ms)' });
    expect(row(rows, 'v30 reference query: legacy calls')).toMatchObject({
      measured: '6 in 2, the same data as v2',
      'ratio to direct plan': 1,
    });
    // CPU of a query through the gateway (gateway and legacy) over the legacy CPU of the reads by hand.
    expect(row(rows, 'v30 reference query CPU per query')).toMatchObject({
      measured: '0.9 ms gateway + 1.1 ms legacy / 1 ms legacy',
      'ratio to direct plan': 2,
    });
    expect(row(rows, 'v30 every unit with managers')).toMatchObject({
      figure: expect.stringContaining('10000 units') as unknown,
      measured: '3000 / 2000 ms; 20001 legacy calls in 2 rounds; throughput ratio 0.66',
      'ratio to direct plan': 1.5,
    });
    expect(row(rows, 'v30 every unit with managers')?.figure).toContain('GRAPHQL_MAX_LEGACY_CALLS=25000');
  });

  it("prints Hive Gateway's v30 row as n/a with the reason, and Hive on its own graph's shape", () => {
    const rows = v30Rows(figures);
    expect(row(rows, 'v30 reference query via Hive Gateway')).toMatchObject({
      measured: expect.stringMatching(/^n\/a: Hive serves the Mesh graph .*not OS2mo's shape/) as unknown,
      'ratio to direct plan': 'n/a',
    });
    expect(row(rows, 'reference data via Hive Gateway in its own graph')).toMatchObject({
      measured: '40 / 10 ms; v30 via our gateway has 3× its throughput',
      'ratio to direct plan': 4,
    });
  });

  it('says what was not measured instead of printing a ratio', () => {
    const rows = v30Rows({
      ...figures,
      p50_c1: null,
      cpu_rows: [],
      every_unit: null,
      hive: null,
      plan: { requests: 6, rounds: 2, same_data_as_v2: false },
    });
    expect(row(rows, 'v30 reference query p50, gateway / direct plan, concurrency 1')).toMatchObject({
      measured: 'not measured',
      'ratio to direct plan': null,
    });
    expect(row(rows, 'v30 reference query CPU')?.measured).toMatch(/^not measured/);
    expect(row(rows, 'v30 every unit')?.measured).toBe('not measured (--skip-large)');
    const failed = v30Rows({
      ...figures,
      every_unit: {
        ...figures.every_unit!,
        plan: { requests: 20_001, rounds: 2, errors: '127 errors, the first: UPSTREAM_UNAVAILABLE' },
      },
    });
    expect(row(failed, 'v30 every unit')?.measured).toContain(
      'the traced read FAILED (127 errors, the first: UPSTREAM_UNAVAILABLE)',
    );
    expect(row(rows, 'v30 reference query: legacy calls')?.measured).toContain('NOT the same data as v2');
  });

  it("keeps issue 16's CPU rows on v2's reference query when bench:cpu lists v30's and the direct plan's first", () => {
    const rows = issueRows({
      concurrency: 8,
      p50_c8: null,
      p50_c1: null,
      bench_cpu_c8: null,
      bench_cpu_c1: null,
      cpu_rows: [
        { name: 'v30 reference query via gateway', gateway_cpu_ms_per_op: 0.9 },
        { name: 'reference plan direct, beside v30 (the 6 legacy GETs by hand)', gateway_cpu_ms_per_op: 0 },
        { name: 'reference query via gateway', gateway_cpu_ms_per_op: 0.7 },
      ],
      passthrough: null,
      gateway_peak_rss_mb: null,
      throughput: null,
    });
    expect(
      rows.find((r) => r.figure.startsWith('gateway CPU per reference query, concurrent')),
    ).toMatchObject({
      measured: "0.7 ms ('reference query via gateway')",
    });
  });
});
