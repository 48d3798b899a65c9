import type { CpuRow } from './cpu-rows.js';

/** Issue 16's table as `npm run bench` prints it: each figure as measured in this run, its ratio and target. */

export interface IssueRow {
  figure: string;
  /** What issue 16 measured before the work, for reading the change. */
  issue_before: string;
  measured: string;
  target: string;
  met: boolean | null;
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const round3 = (value: number) => Math.round(value * 1000) / 1000;

export function ratio(a: number | null | undefined, b: number | null | undefined): number | null {
  return a && b ? round2(a / b) : null;
}

export interface IssueFigures {
  p50_c8: { gateway: number; direct: number } | null;
  p50_c1: { gateway: number; direct: number } | null;
  /** Gateway CPU per reference query measured from /proc in this run, at the bench's concurrency and at 1. */
  bench_cpu_c8: number | null;
  bench_cpu_c1: number | null;
  cpu_rows: CpuRow[];
  passthrough: { gateway: number; direct: number; bare: number } | null;
  gateway_peak_rss_mb: number | null;
  throughput: { gateway: number; mesh: number | null; hive: number | null } | null;
  concurrency: number;
}

/** A bench:cpu row of the reference query: the first is the concurrent case, one "at a time" the other. */
function cpuRowsOfReference(rows: CpuRow[]) {
  // Issue 16's rows are v2's reference query through the gateway (not v30's, not the direct plan's).
  const reference = rows.filter(
    (row) => /reference/i.test(String(row.name)) && !/^v30 |direct/i.test(String(row.name)),
  );
  const serial = (row: CpuRow) =>
    /one (request )?at a time|sequential|serial|single|concurrency 1\b|c=1\b/i.test(String(row.name));
  return { concurrent: reference.find((row) => !serial(row)), serial: reference.find(serial) };
}

function cpuFigure(row: CpuRow | undefined): number | null {
  const value = row?.gateway_cpu_ms_per_op;
  return typeof value === 'number' ? value : null;
}

export function issueRows(figures: IssueFigures): IssueRow[] {
  const rows: IssueRow[] = [];
  const push = (figure: string, before: string, measured: string, target: string, met: boolean | null) =>
    rows.push({ figure, issue_before: before, measured, target, met });
  const p50 = (pair: { gateway: number; direct: number } | null) => {
    const value = pair && ratio(pair.gateway, pair.direct);
    return {
      text: pair && value ? `${value} (${pair.gateway} / ${pair.direct} ms)` : 'not measured',
      met: value === null || value === undefined ? null : value <= 1.1,
    };
  };
  const c8 = p50(figures.p50_c8);
  push(
    `reference query p50, gateway / direct plan, concurrency ${figures.concurrency}`,
    '1.21',
    c8.text,
    '≤ 1.10',
    c8.met,
  );
  const c1 = p50(figures.p50_c1);
  push('reference query p50, gateway / direct plan, concurrency 1', '1.26', c1.text, '≤ 1.10', c1.met);

  const { concurrent, serial } = cpuRowsOfReference(figures.cpu_rows);
  const cpuText = (value: number | null, source: string) =>
    value === null ? `not measured (${source})` : `${value} ms (${source})`;
  const concurrentCpu = cpuFigure(concurrent);
  push(
    'gateway CPU per reference query, concurrent (bench:cpu)',
    '1.63 ms',
    cpuText(concurrentCpu, concurrent ? `'${concurrent.name}'` : 'bench:cpu skipped or failed'),
    '≤ 0.8 ms',
    concurrentCpu === null ? null : concurrentCpu <= 0.8,
  );
  const serialCpu = cpuFigure(serial);
  push(
    'gateway CPU per reference query, one request at a time (bench:cpu)',
    '2.9 ms',
    cpuText(serialCpu, serial ? `'${serial.name}'` : 'bench:cpu has no one-at-a-time case'),
    '≤ 1.2 ms',
    serialCpu === null ? null : serialCpu <= 1.2,
  );
  push(
    `gateway CPU per reference query in this run, concurrency ${figures.concurrency} (from /proc, legacy latency on)`,
    '—',
    figures.bench_cpu_c8 === null ? 'not measured' : `${figures.bench_cpu_c8} ms`,
    '≤ 0.8 ms',
    figures.bench_cpu_c8 === null ? null : figures.bench_cpu_c8 <= 0.8,
  );
  push(
    'gateway CPU per reference query in this run, concurrency 1 (from /proc, legacy latency on)',
    '—',
    figures.bench_cpu_c1 === null ? 'not measured' : `${figures.bench_cpu_c1} ms`,
    '≤ 1.2 ms',
    figures.bench_cpu_c1 === null ? null : figures.bench_cpu_c1 <= 1.2,
  );

  if (figures.passthrough) {
    const { gateway, direct, bare } = figures.passthrough;
    const overhead = round3(gateway - direct);
    const hop = round3(bare - direct);
    push(
      `/service passthrough overhead p50 over direct, concurrency ${figures.concurrency}`,
      '+1.07 ms (bare hop +0.14)',
      `+${overhead} ms (bare Node hop +${hop} ms; ratio to direct ${ratio(gateway, direct)})`,
      `≤ bare hop + 0.3 ms (+${round3(hop + 0.3)} ms)`,
      overhead <= hop + 0.3,
    );
  } else
    push(
      '/service passthrough overhead p50 over direct',
      '+1.07 ms (bare hop +0.14)',
      'not measured',
      '≤ bare hop + 0.3 ms',
      null,
    );

  push(
    'gateway peak RSS under the bench',
    '180–212 MB',
    figures.gateway_peak_rss_mb === null ? 'not measured' : `${figures.gateway_peak_rss_mb} MB`,
    '< 150 MB',
    figures.gateway_peak_rss_mb === null ? null : figures.gateway_peak_rss_mb < 150,
  );
  const throughputRatio = (peer: number | null | undefined) => ratio(figures.throughput?.gateway, peer);
  const mesh = throughputRatio(figures.throughput?.mesh);
  push(
    `throughput against Mesh v0's own server, concurrency ${figures.concurrency}`,
    '2.3×',
    mesh === null
      ? 'not measured'
      : `${mesh}× (${figures.throughput?.gateway} / ${figures.throughput?.mesh} per s)`,
    '≥ 3×',
    mesh === null ? null : mesh >= 3,
  );
  const hive = throughputRatio(figures.throughput?.hive);
  push(
    `throughput against Hive Gateway (Mesh v1), concurrency ${figures.concurrency}`,
    '≈ 3.3× (issue: Hive at about 0.3× ours)',
    hive === null
      ? 'not measured'
      : `${hive}× (${figures.throughput?.gateway} / ${figures.throughput?.hive} per s)`,
    '—',
    null,
  );
  return rows;
}

/** A plain-text table with aligned columns (pastes into a report as it is). */
export function formatTable(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return '(no rows)';
  const columns = Object.keys(rows[0]!);
  const cell = (value: unknown) =>
    value === null || value === undefined
      ? '—'
      : value === true
        ? 'yes'
        : value === false
          ? 'NO'
          : String(value);
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => cell(row[column]).length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((text, index) => text.padEnd(widths[index]!)).join(' | ')} |`;
  return [
    line(columns),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...rows.map((row) => line(columns.map((column) => cell(row[column])))),
  ].join('\n');
}

/** Issue 21's figures: v30 (OS2mo's shape) against the direct plan, as `npm run bench` measured them. */
export interface V30Figures {
  concurrency: number;
  /** p50 of v30's reference query through the gateway and of the same 6 GETs by hand. */
  p50_c8: { gateway: number; direct: number } | null;
  p50_c1: { gateway: number; direct: number } | null;
  /** p50 of v2's reference query in the same run, to read what v30's shape costs over v2's. */
  v2_p50_c8: number | null;
  /** v30's reference query's legacy calls and rounds (X-Upstream-Trace) and whether it answers v2's data. */
  plan: { requests: number | null; rounds: number | null; same_data_as_v2: boolean } | null;
  /** bench:cpu's rows (the v30 one is named `v30 reference query via gateway`). */
  cpu_rows: CpuRow[];
  /** v30's read of every unit with managers, limit unset, on the generated data, and the reads by hand. */
  every_unit: {
    units: number;
    gateway: { p50: number; throughput: number };
    direct: { p50: number; throughput: number };
    /** The traced read's legacy calls and rounds, and its errors if it failed (reported, not hidden). */
    plan: { requests: number; rounds: number; errors?: string } | null;
    budget: number;
  } | null;
  /** Hive Gateway's p50 and throughput on its own graph's shape of the reference data, and the direct plan's. */
  hive: { p50: number; throughput: number; direct_p50: number; gateway_throughput: number | null } | null;
}

export interface V30Row {
  figure: string;
  measured: string;
  'ratio to direct plan': number | string | null;
}

/** The v30 rows `npm run bench` prints after issue 16's table, each with its ratio against the direct plan. */
export function v30Rows(figures: V30Figures): V30Row[] {
  const rows: V30Row[] = [];
  const pairRow = (figure: string, pair: { gateway: number; direct: number } | null) =>
    rows.push({
      figure,
      measured: pair ? `${pair.gateway} / ${pair.direct} ms` : 'not measured',
      'ratio to direct plan': pair ? ratio(pair.gateway, pair.direct) : null,
    });
  pairRow(
    `v30 reference query p50, gateway / direct plan, concurrency ${figures.concurrency}`,
    figures.p50_c8,
  );
  pairRow('v30 reference query p50, gateway / direct plan, concurrency 1', figures.p50_c1);
  rows.push({
    figure: `v30 reference query p50 / v2's, concurrency ${figures.concurrency}`,
    measured:
      figures.p50_c8 && figures.v2_p50_c8 !== null
        ? `${ratio(figures.p50_c8.gateway, figures.v2_p50_c8)} (${figures.p50_c8.gateway} / ${figures.v2_p50_c8} ms)`
        : 'not measured',
    'ratio to direct plan': null,
  });
  const plan = figures.plan;
  rows.push({
    figure: 'v30 reference query: legacy calls in rounds (X-Upstream-Trace), direct plan 6 in 2',
    measured: plan
      ? `${plan.requests ?? '?'} in ${plan.rounds ?? '?'}${plan.same_data_as_v2 ? ', the same data as v2' : ', NOT the same data as v2'}`
      : 'not measured',
    'ratio to direct plan': plan?.requests ? ratio(plan.requests, 6) : null,
  });

  const cpu = (name: RegExp) => figures.cpu_rows.find((row) => name.test(String(row.name)));
  const v30Cpu = cpu(/^v30 reference query via gateway$/);
  const directCpu = cpu(/^reference plan direct/);
  const number = (value: unknown) => (typeof value === 'number' ? value : null);
  const gatewayMs = number(v30Cpu?.gateway_cpu_ms_per_op);
  const legacyMs = number(v30Cpu?.legacy_cpu_ms_per_op);
  const directMs = number(directCpu?.legacy_cpu_ms_per_op);
  rows.push({
    figure: 'v30 reference query CPU per query (bench:cpu): gateway + legacy / legacy by hand',
    measured:
      gatewayMs !== null && legacyMs !== null && directMs !== null
        ? `${gatewayMs} ms gateway + ${legacyMs} ms legacy / ${directMs} ms legacy`
        : 'not measured (bench:cpu skipped, failed or without its v30 rows)',
    'ratio to direct plan':
      gatewayMs !== null && legacyMs !== null && directMs !== null
        ? ratio(gatewayMs + legacyMs, directMs)
        : null,
  });

  const every = figures.every_unit;
  rows.push({
    figure: every
      ? `v30 every unit with managers, limit unset, ${every.units} units: p50 gateway / direct plan ` +
        `(GRAPHQL_MAX_LEGACY_CALLS=${every.budget})`
      : 'v30 every unit with managers, limit unset, generated data: p50 gateway / direct plan',
    measured: every
      ? `${every.gateway.p50} / ${every.direct.p50} ms; ` +
        `${every.plan ? `${every.plan.requests} legacy calls in ${every.plan.rounds} rounds; ` : ''}` +
        `${every.plan?.errors ? `the traced read FAILED (${every.plan.errors}); ` : ''}` +
        `throughput ratio ${ratio(every.gateway.throughput, every.direct.throughput)}`
      : 'not measured (--skip-large)',
    'ratio to direct plan': every ? ratio(every.gateway.p50, every.direct.p50) : null,
  });

  rows.push({
    figure: "v30 reference query via Hive Gateway (Mesh v1's graph)",
    measured: "n/a: Hive serves the Mesh graph of the Service API's contract, not OS2mo's shape",
    'ratio to direct plan': 'n/a',
  });
  const hive = figures.hive;
  rows.push({
    figure:
      "reference data via Hive Gateway in its own graph's shape (three getOrgUnit aliases): p50 / direct plan",
    measured: hive
      ? `${hive.p50} / ${hive.direct_p50} ms` +
        (hive.gateway_throughput === null
          ? ''
          : `; v30 via our gateway has ${ratio(hive.gateway_throughput, hive.throughput)}× its throughput`)
      : 'not measured',
    'ratio to direct plan': hive ? ratio(hive.p50, hive.direct_p50) : null,
  });
  return rows;
}
