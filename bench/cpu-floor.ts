import type { CpuRow } from './cpu-rows.js';

/**
 * Issue 23's CPU figures, read off one `bench:cpu` run. The floor of a reference query is what the bare Node
 * proxy spends on its seven HTTP exchanges (one in, six out): 3.5 × its CPU per proxied read, which is two
 * exchanges (in and out). The passthrough is held against the bare proxy's read itself.
 */
export const exchangesPerReferenceQuery = 7;

export const floorTargets = { referenceQuery: 1.5, passthrough: 1.3 } as const;

export interface FloorRow {
  figure: string;
  gateway_ms: number;
  floor_ms: number;
  ratio: number;
  target: string;
  met: 'yes' | 'no';
}

const cpuOf = (rows: CpuRow[], name: string): number | undefined => {
  const value = rows.find((row) => row.name === name)?.gateway_cpu_ms_per_op;
  return typeof value === 'number' && value > 0 ? value : undefined;
};

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The rows whose cases ran (a `--only` run may leave some out); none without the bare proxy's row. */
export function floorRows(rows: CpuRow[]): FloorRow[] {
  const bare = cpuOf(rows, 'detail read via a bare Node proxy');
  if (bare === undefined) return [];
  const perQuery = (bare * exchangesPerReferenceQuery) / 2;
  const figures: [string, string, number, number][] = [
    ['v2 reference query, c=8', 'reference query via gateway', perQuery, floorTargets.referenceQuery],
    [
      'v2 reference query, one at a time',
      'reference query via gateway, one at a time',
      perQuery,
      floorTargets.referenceQuery,
    ],
    ['v30 reference query, c=8', 'v30 reference query via gateway', perQuery, floorTargets.referenceQuery],
    ['/service detail read, c=8', 'detail read via /service passthrough', bare, floorTargets.passthrough],
  ];
  return figures.flatMap(([figure, name, floor, target]) => {
    const gateway = cpuOf(rows, name);
    if (gateway === undefined) return [];
    const ratio = round(gateway / floor, 2);
    return [
      {
        figure,
        gateway_ms: gateway,
        floor_ms: round(floor, 3),
        ratio,
        target: `≤ ${target}×`,
        met: ratio <= target ? 'yes' : 'no',
      },
    ];
  });
}
