import { Counter, type Registry } from 'prom-client';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { GatewayError } from '../errors/gateway-error.js';
import type { ClientAllowance, RateLimitConfig } from './rate-limit-config.js';

/** The two things a client's allowance counts. */
export type LimitKind = 'requests' | 'legacy_calls';

/** What the limiter needs of the gateway's database: node-postgres's `query` (the gateway's `Database` has it). */
export interface RateLimitStore {
  query(text: string, values?: readonly unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

export interface RateLimitsOptions {
  config: RateLimitConfig;
  /** The gateway's Postgres (`DATABASE_URL`): replicas then share each client's counts. Else per replica. */
  store?: RateLimitStore;
  /** Where `gateway_rate_limited_total` is registered. */
  registry?: Registry;
}

/** A client's standing after a request was admitted: the headers its answer carries. */
export type RateLimitHeaders = Record<string, string>;

export interface RateLimits {
  /**
   * Counts one request of `client` (the token's `azp`). Answers the `RateLimit-Policy` and `RateLimit` headers
   * for its answer, or throws a 429 `GatewayError` (with `Retry-After` and the same headers) when the client
   * has used its requests or its legacy calls for this window.
   */
  admit(client: string | undefined): Promise<RateLimitHeaders>;
  /** Adds the legacy calls an admitted request made to its client's count. */
  charge(client: string | undefined, legacyCalls: number): Promise<void>;
}

/** The table migration 0020 creates; rate-limiter-flexible's own columns (key, points, expire). */
const table = 'gateway_rate_limits';

/** A token without `azp` is counted under this name (Keycloak always sets it). */
const noClient = '(no client)';

/** Policy names in the headers: an sf-string each (draft-ietf-httpapi-ratelimit-headers-10, section 3). */
const policyName: Record<LimitKind, string> = { requests: 'requests', legacy_calls: 'legacy-calls' };

const units: Record<LimitKind, string> = { requests: 'requests', legacy_calls: 'legacy calls' };

function pointsOf(allowance: ClientAllowance, kind: LimitKind): number | undefined {
  return kind === 'requests' ? allowance.requests : allowance.legacyCalls;
}

/**
 * Per-client rate limits on rate-limiter-flexible: fixed windows of `RATE_LIMIT_WINDOW_SECONDS`, counted in the
 * gateway's Postgres when there is one (shared by replicas; a failing database falls back to this replica's
 * memory rather than refusing requests) and in memory otherwise.
 *
 * @example
 * const limits = createRateLimits({ config: config.rateLimits, store: database });
 * const headers = await limits.admit(principal.clientId); // throws a 429 GatewayError past a limit
 * await limits.charge(principal.clientId, legacyCallsMade);
 */
export function createRateLimits(options: RateLimitsOptions): RateLimits {
  const { config } = options;
  const duration = config.windowSeconds;
  const limited = new Counter({
    name: 'gateway_rate_limited_total',
    help: 'Requests refused with 429 by a per-client rate limit, by client (clients without an allowance of their own are "other") and limit (requests, legacy_calls).',
    labelNames: ['client', 'limit'] as const,
    registers: options.registry ? [options.registry] : [],
  });

  // One limiter per kind and allowance size: rate-limiter-flexible keeps one quota per instance.
  const limiters = new Map<string, RateLimiterAbstract>();
  const limiterFor = (kind: LimitKind, points: number): RateLimiterAbstract => {
    const name = `${kind}:${points}`;
    let limiter = limiters.get(name);
    if (!limiter) {
      const memory = new RateLimiterMemory({ points, duration, keyPrefix: kind });
      limiter = options.store
        ? new RateLimiterPostgres({
            storeClient: {
              query: (q: { text: string; values?: unknown[] }) => options.store!.query(q.text, q.values),
            },
            storeType: 'pool',
            tableName: table,
            tableCreated: true,
            points,
            duration,
            keyPrefix: kind,
            insuranceLimiter: memory,
          })
        : memory;
      limiters.set(name, limiter);
    }
    return limiter;
  };

  const allowanceOf = (client: string) => config.clients.get(client) ?? config.allowance;
  const label = (client: string) => (config.clients.has(client) ? client : 'other');

  const refuse = (client: string, kind: LimitKind, points: number, state: RateLimiterRes) => {
    const retryAfter = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
    limited.inc({ client: label(client), limit: kind });
    return new GatewayError(
      429,
      'RATE_LIMITED',
      `Client "${client}" has used its ${points} ${units[kind]} of this ${duration}-second window: try again in ${retryAfter} s.`,
      {
        context: { limit: kind, quota: points, window_seconds: duration, retry_after_seconds: retryAfter },
        headers: { 'Retry-After': String(retryAfter) },
      },
    );
  };

  return {
    async admit(clientId) {
      const client = clientId ?? noClient;
      const allowance = allowanceOf(client);
      const policies: string[] = [];
      const standings: string[] = [];
      const headers = (): RateLimitHeaders =>
        policies.length === 0
          ? {}
          : { 'RateLimit-Policy': policies.join(', '), RateLimit: standings.join(', ') };
      let refusal: GatewayError | undefined;

      const calls = pointsOf(allowance, 'legacy_calls');
      const requests = pointsOf(allowance, 'requests');
      if (requests !== undefined) {
        policies.push(`"${policyName.requests}";q=${requests};w=${duration}`);
        const state = await limiterFor('requests', requests)
          .consume(client, 1)
          .catch((rejection: unknown) => {
            if (rejection instanceof RateLimiterRes) return rejection;
            throw rejection;
          });
        const left = Math.max(0, requests - state.consumedPoints);
        standings.push(`"${policyName.requests}";r=${left};t=${Math.ceil(state.msBeforeNext / 1000)}`);
        if (state.consumedPoints > requests) refusal = refuse(client, 'requests', requests, state);
      }
      if (calls !== undefined) {
        policies.push(`"${policyName.legacy_calls}";q=${calls};w=${duration}`);
        const state = await limiterFor('legacy_calls', calls).get(client);
        const used = state?.consumedPoints ?? 0;
        const reset = state ? Math.ceil(state.msBeforeNext / 1000) : duration;
        standings.push(`"${policyName.legacy_calls}";r=${Math.max(0, calls - used)};t=${reset}`);
        if (!refusal && state && used >= calls) refusal = refuse(client, 'legacy_calls', calls, state);
      }
      if (refusal) {
        Object.assign(refusal.headers, headers());
        throw refusal;
      }
      return headers();
    },

    async charge(clientId, legacyCalls) {
      const client = clientId ?? noClient;
      const calls = pointsOf(allowanceOf(client), 'legacy_calls');
      if (calls === undefined || legacyCalls <= 0) return;
      await limiterFor('legacy_calls', calls).penalty(client, legacyCalls);
    },
  };
}
