import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import { fetch, type Response } from './idp-fetch.js';

/** The identity provider's JWKS could not be fetched or was not a key set. */
export class JwksUnavailableError extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(`The JWKS cannot be fetched: ${reason}`, options);
    this.name = 'JwksUnavailableError';
  }
}

export interface JwksCacheOptions {
  url: URL;
  /** Least time between two refetches of keys already cached (unknown `kid`, or keys past `maxAgeMs`). */
  cooldownMs: number;
  /**
   * Age after which cached keys are refetched before they verify again, so a key the IdP withdrew stops
   * verifying within this time (unless the refetch fails: then the cached keys stay).
   */
  maxAgeMs: number;
  /** Longest wait for one JWKS response. */
  timeoutMs: number;
  /** Told about every JWKS fetch, for metrics. */
  onFetch?: (fetch: { outcome: 'ok' | 'error'; durationMs: number }) => void;
}

export interface JwksCache {
  /** The key for a token's protected header, for `jwtVerify`. */
  getKey: JWTVerifyGetKey;
  /** Whether any key set has been fetched: without one, a fetch failure means "identity provider down". */
  hasKeys(): boolean;
}

/**
 * The identity provider's signing keys, fetched once and shared. Unlike jose's `createRemoteJWKSet`, the
 * cooldown only limits refetches of a cache that already holds keys: while no key set has ever been
 * fetched, each request may try again (one fetch in flight at a time), so the gateway recovers as soon as
 * the identity provider is back; and the first fetch does not count, so a key rotation right after start
 * is picked up at once. Keys older than `maxAgeMs` are refetched before use (requests meanwhile wait for
 * that one fetch); if it fails they keep verifying: while the identity provider is down, tokens still work.
 *
 * @example
 * const jwks = createJwksCache({ url, cooldownMs: 30_000, maxAgeMs: 600_000, timeoutMs: 5_000 });
 * await jwtVerify(token, jwks.getKey, { algorithms: ['RS256'] });
 */
export function createJwksCache(options: JwksCacheOptions): JwksCache {
  let keySet: ReturnType<typeof createLocalJWKSet> | undefined;
  let fetchedAt = 0;
  let lastRefetchAt = Number.NEGATIVE_INFINITY;
  let inFlight: Promise<void> | undefined;

  const load = (): Promise<void> => {
    const started = performance.now();
    const report = (outcome: 'ok' | 'error') =>
      options.onFetch?.({ outcome, durationMs: performance.now() - started });
    inFlight ??= fetchKeySet(options)
      .then(
        (jwks) => {
          keySet = createLocalJWKSet(jwks);
          fetchedAt = Date.now();
          report('ok');
        },
        (error: unknown) => {
          report('error');
          throw error;
        },
      )
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };

  /** Takes the one refetch a cooldown allows, if it is free. */
  const claimRefetch = (): boolean => {
    const now = Date.now();
    if (now - lastRefetchAt < options.cooldownMs) return false;
    lastRefetchAt = now;
    return true;
  };

  const getKey: JWTVerifyGetKey = async (header, token) => {
    let loadedForThisToken = false;
    if (keySet === undefined) {
      await load();
      loadedForThisToken = true;
    } else if (Date.now() - fetchedAt > options.maxAgeMs && (inFlight !== undefined || claimRefetch())) {
      // Keys past their age are refreshed before they verify again, so a withdrawn key verifies at most
      // `maxAgeMs` after it left the JWKS. A failed refresh leaves them in place: the identity provider is
      // down, and tokens keep verifying.
      loadedForThisToken = true;
      await load().catch(() => undefined);
    }
    try {
      return await keySet!(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey) || loadedForThisToken) throw error;
      if (inFlight !== undefined) {
        // A refetch is already under way: its keys may know this kid.
        await inFlight.catch(() => undefined);
      } else if (claimRefetch()) {
        await load();
      } else {
        throw error;
      }
      return keySet!(header, token);
    }
  };

  return { getKey, hasKeys: () => keySet !== undefined };
}

async function fetchKeySet(options: JwksCacheOptions): Promise<JSONWebKeySet> {
  let response: Response;
  try {
    response = await fetch(options.url, {
      headers: { accept: 'application/jwk-set+json, application/json' },
      // A redirect could send the gateway to keys the identity provider never published.
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (cause) {
    throw new JwksUnavailableError('no response', { cause });
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new JwksUnavailableError(`status ${response.status}`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch (cause) {
    throw new JwksUnavailableError('the response is not JSON', { cause });
  }
  if (!isKeySet(body)) throw new JwksUnavailableError('the response is not a JWK set');
  return body;
}

function isKeySet(value: unknown): value is JSONWebKeySet {
  if (typeof value !== 'object' || value === null) return false;
  const keys = (value as { keys?: unknown }).keys;
  return Array.isArray(keys) && keys.every((key) => typeof key === 'object' && key !== null);
}
