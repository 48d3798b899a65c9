import type { GraphQLSchema } from 'graphql';
import { isObjectType, isInterfaceType } from 'graphql';
import type { CoverageEntry, CoverageReport } from '../coverage/coverage.js';
import { flagCoverage, type FlagCoverage } from '../../contract/flag-equivalents.js';
import type { CallUsage, FieldUsage, UsageData, UsageSource } from '../../usage/usage-data.js';
import { contractOperations } from '../../contract/contract-operations.generated.js';

/**
 * `in_use`: called within the window. `switch_off`: no calls for the whole window and the replacement is proven
 * (for a write: the v30 mutations replacing it are named; for a GraphQL version or field: the newest version
 * replaces it). `unused_unproven`: no calls, but the
 * replacement is not proven, so it must not be switched off yet. `too_little_history`: no calls, but the usage
 * read covers less than the window. `current`: the newest GraphQL version.
 */
export type VerdictKind = 'in_use' | 'switch_off' | 'unused_unproven' | 'too_little_history' | 'current';

export interface Verdict {
  kind: VerdictKind;
  text: string;
}

export interface ClientUsage {
  client: string;
  count: number;
  /** ISO time of the client's last call, when known. */
  last_seen?: string;
  /** `/service`: the flags it used; GraphQL: the operation types. */
  flags: string[];
}

export interface UsageTarget {
  count: number;
  last_seen?: string;
  clients: ClientUsage[];
  verdict: Verdict;
}

export interface EndpointUsage extends UsageTarget {
  /** `GET /service/ou/{uuid}/` */
  endpoint: string;
  replacement: {
    /** The GraphQL that replaces the endpoint, from the coverage report. */
    graphql: string | null;
    /** The coverage report's status, `unknown` without one. */
    status: CoverageEntry['status'] | 'unknown';
    /** Equal on the sample, and so is every flag the callers used. */
    proven: boolean;
    flags: FlagCoverage[];
    /** Flags callers used that no sampled read proved. */
    unproven_flags: string[];
  };
}

export interface VersionUsage extends UsageTarget {
  version: string;
  replacement: string | null;
}

export interface DeprecatedFieldUsage extends UsageTarget {
  version: string;
  coordinate: string;
  reason: string;
}

export interface UsageReport {
  generated_at: string;
  source: UsageSource & { description: string };
  window: string;
  endpoints: EndpointUsage[];
  versions: VersionUsage[];
  deprecated_fields: DeprecatedFieldUsage[];
  /** Requests of the comparison tools, left out of everything above. */
  tool_requests: number;
  daily: UsageData['daily'];
  verdict: Verdict;
}

export interface UsageReportInput {
  usage: UsageData;
  /** The coverage report: without one, no replacement is proven and nothing is called safe to switch off. */
  coverage?: CoverageReport;
  /** The served versions, oldest first. */
  versions: { version: string; schema: GraphQLSchema }[];
  now: Date;
}

const daySeconds = 86_400;
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
const iso = (seconds: number | undefined) =>
  seconds === undefined ? undefined : new Date(seconds * 1000).toISOString();

/** How long a span of seconds is, for a sentence: `94 days`, `3 hours`, `12 minutes`. */
function spanText(seconds: number): string {
  if (seconds >= 2 * daySeconds) return plural(Math.floor(seconds / daySeconds), 'day');
  if (seconds >= 7_200) return plural(Math.floor(seconds / 3_600), 'hour');
  return plural(Math.max(0, Math.floor(seconds / 60)), 'minute');
}

interface Row {
  client: string;
  flags: string;
  count: number;
  last_seen?: number;
}

/** Calls summed per client, with the client's last call and the flags it used. */
function byClient(rows: Row[]): ClientUsage[] {
  const clients = new Map<string, { count: number; last?: number; flags: Set<string> }>();
  for (const row of rows) {
    const entry = clients.get(row.client) ?? { count: 0, flags: new Set<string>() };
    entry.count += row.count;
    if (row.last_seen !== undefined) entry.last = Math.max(entry.last ?? 0, row.last_seen);
    entry.flags.add(row.flags);
    clients.set(row.client, entry);
  }
  return [...clients]
    .map(([client, entry]) => ({
      client,
      count: entry.count,
      ...(entry.last === undefined ? {} : { last_seen: iso(entry.last) }),
      flags: [...entry.flags].sort(),
    }))
    .sort((a, b) => b.count - a.count || a.client.localeCompare(b.client));
}

/**
 * Judges one target's rows. Active means a call within the window: Prometheus' counts are the window's, and a
 * replica's last-seen time says whether its calls fall inside it.
 */
function judge(
  rows: Row[],
  context: { now: number; window: number; observed: number; windowText: string },
  readiness: { proven: boolean; unproven: string; off: string },
): UsageTarget {
  const last = rows.reduce<number | undefined>(
    (latest, row) => (row.last_seen === undefined ? latest : Math.max(latest ?? 0, row.last_seen)),
    undefined,
  );
  const active = rows.filter(
    (row) => row.count > 0 && (row.last_seen === undefined || context.now - row.last_seen < context.window),
  );
  const clients = byClient(rows);
  const count = rows.reduce((sum, row) => sum + row.count, 0);
  const base = { count, ...(last === undefined ? {} : { last_seen: iso(last) }), clients };
  if (active.length > 0) {
    const names = [...new Set(active.map((row) => row.client))].sort();
    return {
      ...base,
      verdict: { kind: 'in_use', text: `in use by ${plural(names.length, 'client')} (${names.join(', ')})` },
    };
  }
  const idle =
    last === undefined
      ? `no calls in the last ${context.windowText}`
      : `unused for ${spanText(context.now - last)}`;
  if (context.observed < context.window) {
    return {
      ...base,
      verdict: {
        kind: 'too_little_history',
        text: `no calls in the ${spanText(context.observed)} the usage covers, which is less than the window (${context.windowText}): wait before deciding`,
      },
    };
  }
  if (!readiness.proven) {
    return {
      ...base,
      verdict: {
        kind: 'unused_unproven',
        text: `${idle}, but ${readiness.unproven}: do not switch it off yet`,
      },
    };
  }
  return { ...base, verdict: { kind: 'switch_off', text: `${idle}: ${readiness.off}` } };
}

function endpointRows(calls: CallUsage[], endpoint: string): Row[] {
  return calls.filter((call) => call.surface === 'service' && call.endpoint === endpoint);
}

/** Every deprecated field of a schema, as `Type.field` with its reason. */
function deprecatedFields(schema: GraphQLSchema): { coordinate: string; reason: string }[] {
  return Object.values(schema.getTypeMap())
    .filter((type) => !type.name.startsWith('__') && (isObjectType(type) || isInterfaceType(type)))
    .flatMap((type) =>
      Object.values(
        (
          type as { getFields(): Record<string, { name: string; deprecationReason?: string | null }> }
        ).getFields(),
      )
        .filter((field) => typeof field.deprecationReason === 'string')
        .map((field) => ({ coordinate: `${type.name}.${field.name}`, reason: field.deprecationReason! })),
    );
}

function sourceDescription(source: UsageSource, windowText: string, now: number): string {
  if (source.kind === 'prometheus') {
    const held =
      source.since === undefined
        ? 'it holds no gateway metrics yet'
        : `it holds them since ${source.since}, ${spanText(now - Date.parse(source.since) / 1000)} ago`;
    return `every replica the Prometheus server of USAGE_PROMETHEUS_URL scrapes, over the last ${windowText} (${held})`;
  }
  const since = Date.parse(source.since) / 1000;
  return `this replica only, since it started ${spanText(now - since)} ago (${source.since}); set USAGE_PROMETHEUS_URL for the whole fleet over ${windowText}`;
}

/**
 * The retirement report: for each `/service` endpoint of the contract, each GraphQL version and each deprecated
 * field, who calls it, how often and when last; its replacement and whether equality is proven (flags
 * included); and a verdict. It never calls an endpoint safe to switch off when its replacement is not proven,
 * nor when the usage it read covers less than the window.
 *
 * @example
 * const report = usageReport({ usage: recorder.snapshot(), coverage, versions, now: new Date() });
 */
export function usageReport(input: UsageReportInput): UsageReport {
  const now = input.now.getTime() / 1000;
  const window = input.usage.source.window_seconds;
  const windowText = window % daySeconds === 0 ? plural(window / daySeconds, 'day') : spanText(window);
  // The history the usage covers: a replica's since it started, Prometheus' since its oldest gateway sample.
  const since = input.usage.source.since;
  const observed = since === undefined ? 0 : now - Date.parse(since) / 1000;
  const context = { now, window, observed, windowText };
  const calls = input.usage.calls;

  const coverageByEndpoint = new Map(
    (input.coverage?.endpoints ?? []).map((entry) => [`${entry.method} ${entry.path}`, entry]),
  );
  const contractEndpoints = contractOperations.map((endpoint) => `${endpoint.method} ${endpoint.path}`);
  const seen = calls.filter((call) => call.surface === 'service').map((call) => call.endpoint);
  const endpoints = [...new Set([...contractEndpoints, ...seen])].map((endpoint): EndpointUsage => {
    const rows = endpointRows(calls, endpoint);
    const entry = coverageByEndpoint.get(endpoint);
    const [method = '', path = ''] = endpoint.split(' ');
    const flags = entry?.flags ?? flagCoverage({ method, path, status: 'unknown', samples: [] });
    const used = new Set(rows.flatMap((row) => (row.flags === 'none' ? [] : row.flags.split(','))));
    const unprovenFlags = [...used]
      .filter((flag) => !flags.some((known) => known.flag === flag && known.proven))
      .sort();
    const status = entry?.status ?? 'unknown';
    // A write's replacement is proven when the coverage report names the v30 mutations that replace it.
    const mutations = status === 'write' ? (entry?.write?.mutations ?? []) : [];
    const proven =
      status === 'write' ? mutations.length > 0 : status === 'proven' && unprovenFlags.length === 0;
    const unproven =
      status === 'unknown'
        ? 'no coverage report proves its replacement'
        : status === 'write'
          ? "OS2mo's v30 has no mutation replacing it"
          : status !== 'proven'
            ? `its replacement is "${status}" in the coverage report`
            : `the flags its callers used (${unprovenFlags.join(', ')}) are not proven`;
    return {
      endpoint,
      ...judge(rows, context, { proven, unproven, off: 'can be switched off' }),
      replacement: { graphql: entry?.graphql ?? null, status, proven, flags, unproven_flags: unprovenFlags },
    };
  });

  const names = input.versions.map(({ version }) => version);
  const newest = names[names.length - 1];
  const versions = names.map((version): VersionUsage => {
    const rows = calls.filter((call) => call.surface === 'graphql' && call.endpoint === version);
    if (version === newest) {
      const judged = judge(rows, context, { proven: true, unproven: '', off: '' });
      return {
        version,
        ...judged,
        replacement: null,
        verdict: { kind: 'current', text: 'the newest version' },
      };
    }
    return {
      version,
      ...judge(rows, context, { proven: true, unproven: '', off: `can be removed in favour of ${newest}` }),
      replacement: newest ?? null,
    };
  });

  const fieldRows = (version: string, coordinate: string): Row[] =>
    input.usage.fields
      .filter((field: FieldUsage) => field.version === version && field.coordinate === coordinate)
      .map((field) => ({ ...field, flags: 'query' }));
  const deprecated = input.versions.flatMap(({ version, schema }) =>
    deprecatedFields(schema).map(({ coordinate, reason }): DeprecatedFieldUsage => ({
      version,
      coordinate,
      reason,
      ...judge(fieldRows(version, coordinate), context, {
        proven: true,
        unproven: '',
        off: 'can be removed',
      }),
    })),
  );

  return {
    generated_at: input.now.toISOString(),
    source: { ...input.usage.source, description: sourceDescription(input.usage.source, windowText, now) },
    window: windowText,
    endpoints,
    versions,
    deprecated_fields: deprecated,
    tool_requests: input.usage.tool_requests,
    daily: input.usage.daily,
    verdict: overallVerdict(endpoints, windowText),
  };
}

/** One sentence on `/service` as a whole. */
function overallVerdict(endpoints: EndpointUsage[], windowText: string): Verdict {
  const inUse = endpoints.filter((endpoint) => endpoint.verdict.kind === 'in_use');
  if (inUse.length > 0) {
    const clients = [
      ...new Set(inUse.flatMap((endpoint) => endpoint.clients.map((client) => client.client))),
    ].sort();
    return {
      kind: 'in_use',
      text: `/service is still in use: ${plural(inUse.length, 'endpoint')} called by ${plural(clients.length, 'client')} (${clients.join(', ')}) within the last ${windowText}.`,
    };
  }
  if (endpoints.some((endpoint) => endpoint.verdict.kind === 'too_little_history')) {
    return {
      kind: 'too_little_history',
      text: `No calls seen, but the usage read covers less than the ${windowText} window: wait, or read the fleet's usage from Prometheus.`,
    };
  }
  const unproven = endpoints.filter((endpoint) => endpoint.verdict.kind === 'unused_unproven');
  if (unproven.length > 0) {
    return {
      kind: 'unused_unproven',
      text: `No calls in the last ${windowText}, but ${plural(unproven.length, 'endpoint')} lack a proven replacement: prove them (or accept the gap) before switching /service off.`,
    };
  }
  return {
    kind: 'switch_off',
    text: `/service can be switched off: no calls in the last ${windowText}, and every endpoint's replacement is proven.`,
  };
}
