import { GatewayError } from '../errors/gateway-error.js';

/**
 * What decides a workbench run's answer, besides the backend's data: the route and its arguments, the day
 * the reads are made on (reads without `at` mean today) and the caller's roles (the run reads with the
 * caller's token). The data itself is named by `dataVersion` on each call.
 */
export interface WorkbenchRunKey {
  route: 'coverage' | 'compare';
  /** The route's own arguments (subject kind, UUIDs, version), `{}` for coverage. */
  arguments: Record<string, unknown>;
  /** `YYYY-MM-DD` in UTC. */
  day: string;
  roles: readonly string[];
}

export interface WorkbenchRunsOptions {
  clock?: () => Date;
  /**
   * How long an answer is kept when the backend names no data version (OS2mo does not): then nothing tells
   * a write apart, so the answer may be this old. With a version the answer is kept until the version changes.
   */
  unversionedTtlMs?: number;
  /** Answers kept at most; the oldest goes first. */
  maxEntries?: number;
}

export interface WorkbenchRunOutcome<T> {
  result: T;
  /** `hit`: from the cache; `joined`: shared with the same run already under way; `miss`: run now. */
  cache: 'hit' | 'joined' | 'miss';
}

interface Entry {
  dataVersion: string | null;
  storedAt: number;
  result: unknown;
}

interface InFlight {
  key: string;
  dataVersion: string | null;
  promise: Promise<unknown>;
}

export const defaultUnversionedTtlMs = 60_000;

/** The key as one string: arrays keep their order, objects are written with sorted keys. */
export function runKeyText(key: WorkbenchRunKey): string {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((name) => [name, sorted((value as Record<string, unknown>)[name])]),
          )
        : value;
  return JSON.stringify(sorted({ ...key, roles: [...key.roles].sort() }));
}

/** The answer while another run holds the workbench: 503 with `Retry-After`, nothing read. */
export const workbenchBusy = () =>
  new GatewayError(
    503,
    'MIGRATION_BUSY',
    'Another coverage or comparison run is under way, and the workbench runs one at a time. Try again shortly.',
    { headers: { 'Retry-After': '5' } },
  );

/**
 * The migration workbench's runs (coverage report, comparison): each fans out to hundreds or thousands of
 * legacy calls, so one runs at a time, a caller asking for the run under way joins it, another gets
 * `workbenchBusy`, and an answer is kept per key and data version.
 *
 * @example
 * const runs = workbenchRuns({ clock });
 * const { result, cache } = await runs.run(key, dataVersion, () => coverageReport({ transport }));
 */
export function workbenchRuns(options: WorkbenchRunsOptions = {}) {
  const clock = options.clock ?? (() => new Date());
  const ttlMs = options.unversionedTtlMs ?? defaultUnversionedTtlMs;
  const maxEntries = options.maxEntries ?? 64;
  const entries = new Map<string, Entry>();
  let inFlight: InFlight | undefined;

  const fresh = (entry: Entry | undefined, dataVersion: string | null): entry is Entry =>
    entry !== undefined &&
    entry.dataVersion === dataVersion &&
    (dataVersion !== null || clock().getTime() - entry.storedAt < ttlMs);

  return {
    /** `refresh` skips a kept answer (still one run at a time) and keeps the new one. */
    async run<T>(
      runKey: WorkbenchRunKey,
      dataVersion: string | null,
      work: () => Promise<T>,
      refresh = false,
    ): Promise<WorkbenchRunOutcome<T>> {
      const key = runKeyText(runKey);
      const entry = entries.get(key);
      if (!refresh && fresh(entry, dataVersion)) return { result: entry.result as T, cache: 'hit' };
      if (inFlight !== undefined) {
        if (inFlight.key === key && inFlight.dataVersion === dataVersion) {
          return { result: (await inFlight.promise) as T, cache: 'joined' };
        }
        throw workbenchBusy();
      }
      const promise = work();
      inFlight = { key, dataVersion, promise };
      try {
        const result = await promise;
        entries.delete(key);
        entries.set(key, { dataVersion, storedAt: clock().getTime(), result });
        while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
        return { result, cache: 'miss' };
      } finally {
        inFlight = undefined;
      }
    },
  };
}

export type WorkbenchRuns = ReturnType<typeof workbenchRuns>;
