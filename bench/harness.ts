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
 * Called right before and right after the measured run (after the warm-up, with nothing in flight), so
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
  let firstError: unknown;
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

export async function measure(
  name: string,
  operation: () => Promise<void>,
  options: MeasureOptions,
  hooks: MeasureHooks = {},
): Promise<Measurement> {
  await runFor(operation, options.concurrency, options.warmupMs);
  await hooks.before?.();
  const { latencies, errors, firstError, elapsedMs } = await runFor(
    operation,
    options.concurrency,
    options.durationMs,
  );
  await hooks.after?.();
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
