import { ConfigError } from '../config-error.js';

/** How much one client (`azp`) may do in one window. Undefined: no limit of that kind. */
export interface ClientAllowance {
  /** Requests to `/graphql/vN`, `/service` and `/api/v1` per window. */
  requests: number | undefined;
  /** Legacy calls those requests may make per window (a GraphQL query can make many). */
  legacyCalls: number | undefined;
}

/** Per-client rate limits (`RATE_LIMIT_*`); undefined when none is set. */
export interface RateLimitConfig {
  /** The window both kinds of limit count over (`RATE_LIMIT_WINDOW_SECONDS`, default 60). */
  windowSeconds: number;
  /** What every client not named in `clients` gets (`RATE_LIMIT_REQUESTS`, `RATE_LIMIT_LEGACY_CALLS`). */
  allowance: ClientAllowance;
  /** Clients with an allowance of their own (`RATE_LIMIT_CLIENTS`), by `azp`. */
  clients: ReadonlyMap<string, ClientAllowance>;
}

type Env = Record<string, string | undefined>;

const maxCount = 1_000_000_000;

function count(variable: string, raw: unknown): number | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const value = typeof raw === 'number' ? raw : Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > maxCount) {
    throw new ConfigError(variable, `must be a whole number from 1 to ${maxCount}, or unset for no limit`);
  }
  return value;
}

const example = '{"integration": {"requests": 1200, "legacy_calls": 50000}}';

/** `RATE_LIMIT_CLIENTS`: a JSON object from client id to `{requests?, legacy_calls?}`; a member left out is unlimited. */
function clientAllowances(raw: string | undefined): Map<string, ClientAllowance> {
  const clients = new Map<string, ClientAllowance>();
  if (raw === undefined || raw.trim() === '') return clients;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError('RATE_LIMIT_CLIENTS', `must be JSON, such as ${example}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError('RATE_LIMIT_CLIENTS', `must be a JSON object of clients, such as ${example}`);
  }
  for (const [client, allowance] of Object.entries(parsed)) {
    const where = `RATE_LIMIT_CLIENTS (client "${client}")`;
    if (typeof allowance !== 'object' || allowance === null || Array.isArray(allowance)) {
      throw new ConfigError(where, 'must be an object with "requests" and/or "legacy_calls"');
    }
    const unknown = Object.keys(allowance).filter((key) => key !== 'requests' && key !== 'legacy_calls');
    if (unknown.length > 0) {
      throw new ConfigError(where, `has ${unknown.join(', ')}; only "requests" and "legacy_calls" are read`);
    }
    const { requests, legacy_calls } = allowance as Record<string, unknown>;
    clients.set(client, {
      requests: count(`${where} requests`, requests),
      legacyCalls: count(`${where} legacy_calls`, legacy_calls),
    });
  }
  return clients;
}

/**
 * The rate limits from the environment, or undefined when no `RATE_LIMIT_*` limit is set: limits are per
 * client (`azp`), and every person using the web UI shares its client, so a default would be one ceiling for
 * the whole organisation's UI. Each mistake fails at start with the variable's name.
 */
export function readRateLimitConfig(env: Env): RateLimitConfig | undefined {
  const allowance = {
    requests: count('RATE_LIMIT_REQUESTS', env.RATE_LIMIT_REQUESTS),
    legacyCalls: count('RATE_LIMIT_LEGACY_CALLS', env.RATE_LIMIT_LEGACY_CALLS),
  };
  const clients = clientAllowances(env.RATE_LIMIT_CLIENTS);
  const windowSeconds = count('RATE_LIMIT_WINDOW_SECONDS', env.RATE_LIMIT_WINDOW_SECONDS) ?? 60;
  if (windowSeconds > 86_400) {
    throw new ConfigError('RATE_LIMIT_WINDOW_SECONDS', 'must be at most 86400 (one day)');
  }
  const limited = [allowance, ...clients.values()].some(
    (each) => each.requests !== undefined || each.legacyCalls !== undefined,
  );
  return limited ? { windowSeconds, allowance, clients } : undefined;
}
