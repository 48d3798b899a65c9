import { Counter, Gauge, type Registry } from 'prom-client';
import type { CallUsage, FieldUsage, UsageData } from './usage-data.js';

export interface UsageRecorderOptions {
  /** The gateway's registry: usage is exported with its other metrics. */
  registry: Registry;
  /** Client ids (`azp`) named in labels; any other client is `other`. */
  clients: readonly string[];
  /**
   * Client ids (`azp`) whose `X-Gateway-Tool` header is believed (`USAGE_TOOL_CLIENTS`): the comparison CLI's.
   * Any other client sending it is counted as itself, so no client can hide its calls from the report.
   */
  toolClients?: readonly string[];
  /** How far back the report looks; the replica keeps daily counts that far. */
  windowSeconds: number;
  clock?: () => Date;
}

export type CallKey = Omit<CallUsage, 'count' | 'last_seen'>;
type FieldKey = Omit<FieldUsage, 'count' | 'last_seen'>;

interface Tally {
  count: number;
  lastSeen: number;
  /** How many scrapes have seen this series at 0 (see `exportedCount`). */
  zeroExports: number;
}

/** The label `client` takes: a known client id, else `other`, so one label value per realm client at most. */
export function clientLabel(clients: readonly string[], clientId: string | undefined): string {
  return clientId !== undefined && clients.includes(clientId) ? clientId : 'other';
}

const callLabels = ['client', 'surface', 'endpoint', 'flags'] as const;
const fieldLabels = ['client', 'version', 'coordinate'] as const;
const daySeconds = 86_400;
const zeroScrapes = 2;

/**
 * Who calls what, counted per client: `/service` calls by the contract's template and flags, GraphQL calls by
 * version and operation type, and the schema coordinates they select. Exported to Prometheus as
 * `gateway_usage_requests_total`, `gateway_usage_fields_total` (with `…_last_seen_timestamp_seconds` gauges)
 * and `gateway_usage_tool_requests_total`; read directly by the report when no Prometheus server is configured.
 *
 * A new series is exported at 0 for its first two scrapes and with its count from then on: Prometheus'
 * `increase()` cannot see the first sample of a series, so a series that appeared with its first calls in it
 * would lose them (two, so that one failed scrape does not lose them either).
 *
 * @example
 * const usage = createUsageRecorder({ registry, clients: ['integration'], windowSeconds: 90 * 86_400 });
 * usage.recordCall({ client: 'integration', surface: 'service', endpoint: 'GET /service/o/', flags: 'none' });
 */
export function createUsageRecorder(options: UsageRecorderOptions) {
  const now = () => (options.clock === undefined ? Date.now() : options.clock().getTime()) / 1000;
  const startedAt = now();
  const calls = new Map<string, { key: CallKey; tally: Tally }>();
  const fields = new Map<string, { key: FieldKey; tally: Tally }>();
  const toolRequests = new Map<string, { key: { client: string }; tally: Tally }>();
  const daily = new Map<string, Map<string, number>>();
  /** Requests the gateway sends to itself (workbench, coverage): never counted as a client's. */
  const internal = new WeakSet<Request>();
  const registers = [options.registry];

  const tally = <K>(map: Map<string, { key: K; tally: Tally }>, id: string, key: K, at: number) => {
    let entry = map.get(id);
    if (entry === undefined)
      map.set(id, (entry = { key, tally: { count: 0, lastSeen: at, zeroExports: 0 } }));
    entry.tally.count += 1;
    entry.tally.lastSeen = at;
  };

  // The day's name is made once a day, not once a call.
  let today = { number: -1, name: '' };
  const countDay = (client: string, at: number) => {
    const number = Math.floor(at / daySeconds);
    if (number !== today.number)
      today = { number, name: new Date(number * daySeconds * 1000).toISOString().slice(0, 10) };
    const day = today.name;
    let clients = daily.get(day);
    if (clients === undefined) {
      daily.set(day, (clients = new Map()));
      // Keep the window's days only.
      const oldest = new Date((at - options.windowSeconds - daySeconds) * 1000).toISOString().slice(0, 10);
      for (const kept of daily.keys()) if (kept < oldest) daily.delete(kept);
    }
    clients.set(client, (clients.get(client) ?? 0) + 1);
  };

  /**
   * What a scrape sees: 0 the first two times a series is exported (one scrape may fail and never be stored),
   * its count from then on.
   */
  const exportedCount = (entry: Tally) => {
    if (entry.zeroExports >= zeroScrapes) return entry.count;
    entry.zeroExports += 1;
    return 0;
  };

  new Counter({
    name: 'gateway_usage_requests_total',
    help: 'Requests by client (azp) and what they called: /service by contract template and flags, GraphQL by version and operation type.',
    labelNames: callLabels,
    registers,
    collect() {
      this.reset();
      for (const { key, tally: entry } of calls.values()) this.inc({ ...key }, exportedCount(entry));
    },
  });
  new Gauge({
    name: 'gateway_usage_last_seen_timestamp_seconds',
    help: 'When a client last made such a request (seconds since the epoch).',
    labelNames: callLabels,
    registers,
    collect() {
      for (const { key, tally: entry } of calls.values()) this.set({ ...key }, entry.lastSeen);
    },
  });
  new Counter({
    name: 'gateway_usage_fields_total',
    help: 'GraphQL operations by client, version and schema coordinate (Type.field) they select.',
    labelNames: fieldLabels,
    registers,
    collect() {
      this.reset();
      for (const { key, tally: entry } of fields.values()) this.inc({ ...key }, exportedCount(entry));
    },
  });
  new Gauge({
    name: 'gateway_usage_field_last_seen_timestamp_seconds',
    help: 'When a client last selected a schema coordinate (seconds since the epoch).',
    labelNames: fieldLabels,
    registers,
    collect() {
      for (const { key, tally: entry } of fields.values()) this.set({ ...key }, entry.lastSeen);
    },
  });
  new Counter({
    name: 'gateway_usage_tool_requests_total',
    help: "Requests of the gateway's own comparison tools (workbench, compare CLI, coverage), left out of usage, by client.",
    labelNames: ['client'] as const,
    registers,
    collect() {
      this.reset();
      for (const { key, tally: entry } of toolRequests.values()) this.inc({ ...key }, exportedCount(entry));
    },
  });

  return {
    /** The bounded `client` label for a token's `azp`. */
    clientLabel: (clientId: string | undefined) => clientLabel(options.clients, clientId),
    /** Marks a request the gateway sends to itself, so it is left out. */
    markInternal(request: Request): void {
      internal.add(request);
    },
    isInternal: (request: Request) => internal.has(request),
    /** Whether a request from this client that names a tool in `X-Gateway-Tool` is the tool's, not the client's. */
    believesToolHeader: (clientId: string | undefined) =>
      clientId !== undefined && (options.toolClients ?? []).includes(clientId),
    recordCall(key: CallKey): void {
      const at = now();
      tally(calls, `${key.client}\n${key.surface}\n${key.endpoint}\n${key.flags}`, key, at);
      countDay(key.client, at);
    },
    recordFields(key: Omit<FieldKey, 'coordinate'>, coordinates: readonly string[]): void {
      const at = now();
      for (const coordinate of coordinates) {
        tally(fields, `${key.client}\n${key.version}\n${coordinate}`, { ...key, coordinate }, at);
      }
    },
    recordToolRequest(client: string): void {
      tally(toolRequests, client, { client }, now());
    },
    /** This replica's usage since it started, in the report's shape. */
    snapshot(): UsageData {
      return {
        source: {
          kind: 'replica',
          since: new Date(startedAt * 1000).toISOString(),
          window_seconds: options.windowSeconds,
        },
        calls: [...calls.values()].map(({ key, tally: entry }) => ({
          ...key,
          count: entry.count,
          last_seen: entry.lastSeen,
        })),
        fields: [...fields.values()].map(({ key, tally: entry }) => ({
          ...key,
          count: entry.count,
          last_seen: entry.lastSeen,
        })),
        tool_requests: [...toolRequests.values()].reduce((sum, { tally: entry }) => sum + entry.count, 0),
        daily: [...daily.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .flatMap(([day, clients]) => [...clients].map(([client, count]) => ({ day, client, count }))),
      };
    },
  };
}

export type UsageRecorder = ReturnType<typeof createUsageRecorder>;
