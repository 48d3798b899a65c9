import { ComparisonError } from '../comparison-error.js';
import { durationText } from '../../usage/usage-config.js';
import type { CallUsage, FieldUsage, UsageData } from '../../usage/usage-data.js';

export interface PrometheusUsageOptions {
  /** The Prometheus server that scrapes every gateway replica. */
  url: URL;
  /** The `Authorization` header value, for a Prometheus behind basic or bearer authentication. */
  authorization?: () => string;
  windowSeconds: number;
  now: Date;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

interface Sample {
  metric: Record<string, string>;
  value?: [number, string];
  values?: [number, string][];
}

const callKeys = ['client', 'surface', 'endpoint', 'flags'] as const;
const fieldKeys = ['client', 'version', 'coordinate'] as const;
const daySeconds = 86_400;

/**
 * The fleet's usage over the window, from Prometheus: `increase()` of the counters summed over every replica
 * (so restarts and replicas add up) and the latest last-seen time any replica exported.
 *
 * @example
 * const usage = await prometheusUsage({ url: new URL('http://prometheus:9090'), windowSeconds: 90 * 86_400, now: new Date() });
 */
export async function prometheusUsage(options: PrometheusUsageOptions): Promise<UsageData> {
  const send = options.fetch ?? fetch;
  const window = durationText(options.windowSeconds);
  const time = options.now.getTime() / 1000;
  const base = options.url.href.replace(/\/+$/, '');

  const api = async (path: string, parameters: Record<string, string>): Promise<Sample[]> => {
    const url = `${base}/api/v1/${path}?${new URLSearchParams(parameters)}`;
    let response: Response;
    try {
      response = await send(url, {
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        ...(options.authorization ? { headers: { authorization: options.authorization() } } : {}),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      throw new ComparisonError(
        'unreachable',
        `Cannot read usage from Prometheus (USAGE_PROMETHEUS_URL): ${cause}.`,
      );
    }
    const body = (await response.json().catch(() => undefined)) as
      { status?: string; error?: string; data?: { result?: Sample[] } } | undefined;
    if (!response.ok || body?.status !== 'success') {
      throw new ComparisonError(
        'failed',
        `Prometheus (USAGE_PROMETHEUS_URL) refused the usage query (${response.status}${body?.error ? `: ${body.error}` : ''}).`,
      );
    }
    return body.data?.result ?? [];
  };
  const instant = (query: string) => api('query', { query, time: String(time) });
  const by = (keys: readonly string[]) => keys.join(', ');
  const keyOf = (metric: Record<string, string>, keys: readonly string[]) =>
    keys.map((key) => metric[key] ?? '').join('\n');

  // How far back Prometheus holds any gateway's metrics: the oldest timestamp of a series every gateway exports
  // from its start, sampled over the window at a thousandth of it, and over the newest such step more finely (a
  // coarse subquery's aligned steps can miss a young history). Less history than the window must never read as
  // "no calls".
  const coarse = Math.max(60, Math.floor(options.windowSeconds / 1000 / 60) * 60);
  const fine = Math.max(1, Math.floor(coarse / 1000));
  const oldestOver = (range: number, step: number) =>
    instant(
      `min(min_over_time(timestamp(gateway_http_requests_in_flight)[${durationText(range)}:${durationText(step)}]))`,
    );
  const [callCounts, callLastSeen, fieldCounts, fieldLastSeen, tools, daily, oldestCoarse, oldestFine] =
    await Promise.all([
      instant(`sum by (${by(callKeys)}) (increase(gateway_usage_requests_total[${window}]))`),
      instant(
        `max by (${by(callKeys)}) (max_over_time(gateway_usage_last_seen_timestamp_seconds[${window}]))`,
      ),
      instant(`sum by (${by(fieldKeys)}) (increase(gateway_usage_fields_total[${window}]))`),
      instant(
        `max by (${by(fieldKeys)}) (max_over_time(gateway_usage_field_last_seen_timestamp_seconds[${window}]))`,
      ),
      instant(`sum(increase(gateway_usage_tool_requests_total[${window}]))`),
      api('query_range', {
        query: 'sum by (client) (increase(gateway_usage_requests_total[1d]))',
        start: String(time - options.windowSeconds + daySeconds),
        end: String(time),
        step: String(daySeconds),
      }),
      oldestOver(options.windowSeconds, coarse),
      oldestOver(coarse, fine),
    ]);
  const oldest = [oldestCoarse, oldestFine]
    .map((result) => Number(result[0]?.value?.[1]))
    .filter((value) => Number.isFinite(value));
  const since = oldest.length === 0 ? Number.NaN : Math.min(...oldest);

  // increase() extrapolates to the window's edges; calls are whole.
  const count = (sample: Sample) => Math.round(Number(sample.value?.[1] ?? 0));
  const join = <K extends readonly string[]>(counts: Sample[], lastSeen: Sample[], keys: K) => {
    const seen = new Map(lastSeen.map((sample) => [keyOf(sample.metric, keys), Number(sample.value?.[1])]));
    const rows = new Map<string, { labels: Record<string, string>; count: number; last_seen?: number }>();
    for (const sample of counts) {
      rows.set(keyOf(sample.metric, keys), { labels: sample.metric, count: count(sample) });
    }
    // A series with no calls in the window still tells when it was last called (before the window).
    for (const sample of lastSeen) {
      const key = keyOf(sample.metric, keys);
      if (!rows.has(key)) rows.set(key, { labels: sample.metric, count: 0 });
    }
    return [...rows].map(([key, row]) => {
      const last = seen.get(key);
      const labels = Object.fromEntries(keys.map((name) => [name, row.labels[name] ?? '']));
      return {
        ...labels,
        count: row.count,
        ...(last === undefined || Number.isNaN(last) ? {} : { last_seen: last }),
      };
    });
  };

  return {
    source: {
      kind: 'prometheus',
      ...(Number.isFinite(since) ? { since: new Date(since * 1000).toISOString() } : {}),
      window_seconds: options.windowSeconds,
    },
    calls: join(callCounts, callLastSeen, callKeys) as unknown as CallUsage[],
    fields: join(fieldCounts, fieldLastSeen, fieldKeys) as unknown as FieldUsage[],
    tool_requests: tools.reduce((sum, sample) => sum + count(sample), 0),
    daily: daily
      .flatMap((series) =>
        (series.values ?? []).map(([at, value]) => ({
          day: new Date((at - 1) * 1000).toISOString().slice(0, 10),
          client: series.metric['client'] ?? 'other',
          count: Math.round(Number(value)),
        })),
      )
      .filter((entry) => entry.count > 0)
      .sort((a, b) => a.day.localeCompare(b.day) || a.client.localeCompare(b.client)),
  };
}
