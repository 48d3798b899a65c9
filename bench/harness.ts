/** Runs an operation from several concurrent workers for a fixed time and reports latency percentiles. */

export interface Measurement {
  name: string;
  iterations: number;
  errors: number;
  throughput_per_s: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
}

export interface MeasureOptions {
  concurrency: number;
  durationMs: number;
  warmupMs: number;
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.floor(fraction * sorted.length));
  return Math.round((sorted[index] ?? Number.NaN) * 1000) / 1000;
}

async function runFor(operation: () => Promise<void>, concurrency: number, durationMs: number) {
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + durationMs;
  const worker = async () => {
    while (performance.now() < deadline) {
      const started = performance.now();
      try {
        await operation();
        latencies.push(performance.now() - started);
      } catch {
        errors += 1;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { latencies, errors, elapsedMs: performance.now() - started };
}

export async function measure(
  name: string,
  operation: () => Promise<void>,
  options: MeasureOptions,
): Promise<Measurement> {
  await runFor(operation, options.concurrency, options.warmupMs);
  const { latencies, errors, elapsedMs } = await runFor(operation, options.concurrency, options.durationMs);
  latencies.sort((a, b) => a - b);
  return {
    name,
    iterations: latencies.length,
    errors,
    throughput_per_s: Math.round((latencies.length / elapsedMs) * 1000 * 10) / 10,
    p50_ms: percentile(latencies, 0.5),
    p95_ms: percentile(latencies, 0.95),
    p99_ms: percentile(latencies, 0.99),
  };
}
