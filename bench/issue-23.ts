import { floorRows, floorTargets } from './cpu-floor.js';
import type { CpuRow } from './cpu-rows.js';
import { ratio } from './report.js';

/** What `npm run bench` measured in one run that issue 23's table reads. */
export interface Issue23Figures {
  concurrency: number;
  /** bench:cpu's rows, the bare proxy's among them. */
  cpu_rows: CpuRow[];
  /** p50 of the reference query through the gateway and of the direct plan, v2's and v30's shapes. */
  p50: {
    v2_c8: { gateway: number; direct: number } | null;
    v2_c1: { gateway: number; direct: number } | null;
    v30_c8: { gateway: number; direct: number } | null;
    v30_c1: { gateway: number; direct: number } | null;
  };
  /** Reference queries per second at the bench's concurrency: the gateway's (v2) and its peers'. */
  throughput: { gateway: number | null; mesh: number | null; hive: number | null };
}

export interface Issue23Row {
  figure: string;
  measured: string;
  ratio: number | null;
  target: string;
  met: boolean | null;
}

const latencyTarget = 1.1;
const throughputTarget = 3;

/**
 * Issue 23's table: CPU against the floor (from bench:cpu, which measures the bare proxy beside the gateway),
 * p50 against the direct plan at concurrency 1 and N for both shapes of the reference query, and throughput
 * against Mesh v0's server and Hive Gateway. A figure that was not measured says so and is neither met nor
 * missed.
 */
export function issue23Rows(figures: Issue23Figures): Issue23Row[] {
  const rows: Issue23Row[] = floorRows(figures.cpu_rows).map((row) => ({
    figure: `CPU per operation, ${row.figure}: gateway / floor`,
    measured: `${row.gateway_ms} / ${row.floor_ms} ms`,
    ratio: row.ratio,
    target: row.target,
    met: row.met === 'yes',
  }));
  if (rows.length === 0) {
    rows.push({
      figure: 'CPU per operation against the floor',
      measured: 'not measured (bench:cpu skipped, failed or without its bare-proxy row)',
      ratio: null,
      target: `≤ ${floorTargets.referenceQuery}× (query), ≤ ${floorTargets.passthrough}× (read)`,
      met: null,
    });
  }
  const p50 = (figure: string, pair: { gateway: number; direct: number } | null) => {
    const value = pair ? ratio(pair.gateway, pair.direct) : null;
    rows.push({
      figure,
      measured: pair ? `${pair.gateway} / ${pair.direct} ms` : 'not measured',
      ratio: value,
      target: `≤ ${latencyTarget}`,
      met: value === null ? null : value <= latencyTarget,
    });
  };
  const n = figures.concurrency;
  p50(`v2 reference query p50 / direct plan, concurrency ${n}`, figures.p50.v2_c8);
  p50('v2 reference query p50 / direct plan, concurrency 1', figures.p50.v2_c1);
  p50(`v30 reference query p50 / direct plan, concurrency ${n}`, figures.p50.v30_c8);
  p50('v30 reference query p50 / direct plan, concurrency 1', figures.p50.v30_c1);
  const { gateway, mesh, hive } = figures.throughput;
  for (const [peer, theirs] of [
    ["Mesh v0's server", mesh],
    ['Hive Gateway', hive],
  ] as const) {
    const value = ratio(gateway, theirs);
    rows.push({
      figure: `reference queries per second, gateway / ${peer}, concurrency ${n}`,
      measured: gateway !== null && theirs !== null ? `${gateway} / ${theirs} per s` : 'not measured',
      ratio: value,
      target: `≥ ${throughputTarget}×`,
      met: value === null ? null : value >= throughputTarget,
    });
  }
  return rows;
}
