/** Runs an operation from several concurrent workers for a fixed time and reports latency percentiles. */

export interface Measurement {
  name: string;
  concurrency: number;
  iterations: number;
  errors: number;
  throughput_per_s: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
}

/** A measurement with the counters `npm run bench` reads around it. */
export interface CaseResult extends Measurement {
  legacy_requests_per_op: number | null;
  /** CPU time per operation of the server the case goes through (gateway, Mesh, Hive Gateway, bare proxy). */
  server_cpu_ms_per_op: number | null;
  legacy_cpu_ms_per_op: number | null;
}

export interface MeasureOptions {
  concurrency: number;
  durationMs: number;
  warmupMs: number;
}

/**
 * Called right before and right after each measured run (after the warm-up, with nothing in flight), so
 * counters read there (CPU time, legacy requests served) belong to the measured operations only.
 */
export interface MeasureHooks {
  before?(): Promise<void>;
  after?(): Promise<void>;
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.floor(fraction * sorted.length));
  return Math.round((sorted[index] ?? Number.NaN) * 1000) / 1000;
}

async function runFor(operation: () => Promise<void>, concurrency: number, durationMs: number) {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: unknown = undefined;
  const deadline = performance.now() + durationMs;
  const worker = async () => {
    while (performance.now() < deadline) {
      const started = performance.now();
      try {
        await operation();
        latencies.push(performance.now() - started);
      } catch (error) {
        errors += 1;
        firstError ??= error;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { latencies, errors, firstError, elapsedMs: performance.now() - started };
}

/** One measured case: its operation, and hooks around each of its measured slices. */
export interface MeasureCase {
  name: string;
  operation: () => Promise<void>;
  hooks?: MeasureHooks;
}

/**
 * Measures cases side by side: each is warmed up, then the measured time is cut into `slices` and the cases
 * take turns, slice by slice. On a machine shared with other work a load that comes and goes then falls on
 * every case of the group alike, so their ratios hold better than when one case runs after the other.
 */
export async function measureInterleaved(
  cases: MeasureCase[],
  options: MeasureOptions,
  slices = 3,
): Promise<Measurement[]> {
  for (const { operation } of cases) await runFor(operation, options.concurrency, options.warmupMs);
  const totals = cases.map(() => ({
    latencies: [] as number[],
    errors: 0,
    firstError: undefined as unknown,
    elapsedMs: 0,
  }));
  for (let slice = 0; slice < slices; slice++) {
    for (const [index, { operation, hooks }] of cases.entries()) {
      await hooks?.before?.();
      const run = await runFor(operation, options.concurrency, options.durationMs / slices);
      await hooks?.after?.();
      const total = totals[index]!;
      for (const latency of run.latencies) total.latencies.push(latency);
      total.errors += run.errors;
      total.firstError ??= run.firstError;
      total.elapsedMs += run.elapsedMs;
    }
  }
  return cases.map(({ name }, index) => {
    const { latencies, errors, firstError, elapsedMs } = totals[index]!;
    // A failing operation is no measurement: say why instead of printing fast numbers for errors.
    if (errors > 0) console.error(`${name}: ${errors} failed operations, the first: ${String(firstError)}`);
    latencies.sort((a, b) => a - b);
    return {
      name,
      concurrency: options.concurrency,
      iterations: latencies.length,
      errors,
      throughput_per_s: Math.round((latencies.length / elapsedMs) * 1000 * 10) / 10,
      p50_ms: percentile(latencies, 0.5),
      p95_ms: percentile(latencies, 0.95),
      p99_ms: percentile(latencies, 0.99),
    };
  });
}

/** One case on its own, in one slice. */
export async function measure(
  name: string,
  operation: () => Promise<void>,
  options: MeasureOptions,
  hooks: MeasureHooks = {},
): Promise<Measurement> {
  const [measured] = await measureInterleaved([{ name, operation, hooks }], options, 1);
  return measured!;
}

/** Counters read around a measurement: legacy requests served and CPU ms of the server and the legacy service. */
export interface Counters {
  served: number;
  server: number | null;
  legacy: number | null;
}

/** The counters' growth per measured operation (failed ones included: they reached the servers too). */
export function perOperation(
  measured: Measurement,
  before: Counters,
  after: Counters,
): Pick<CaseResult, 'legacy_requests_per_op' | 'server_cpu_ms_per_op' | 'legacy_cpu_ms_per_op'> {
  const operations = measured.iterations + measured.errors;
  const per = (a: number | null, b: number | null, digits: number) =>
    operations && a !== null && b !== null
      ? Math.round(((a - b) / operations) * 10 ** digits) / 10 ** digits
      : null;
  return {
    legacy_requests_per_op: per(after.served, before.served, 1),
    server_cpu_ms_per_op: per(after.server, before.server, 3),
    legacy_cpu_ms_per_op: per(after.legacy, before.legacy, 3),
  };
}
