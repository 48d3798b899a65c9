import type { CheckResult, ReadinessCheck } from './readiness.js';
import { fetch, type Response } from '../auth/idp-fetch.js';

export interface SigningKeysCheckOptions {
  jwksUrl: URL;
  /** Whether the token verifier holds keys already (then nothing is fetched). */
  keysCached?: () => boolean;
  /** Told about each fetch this check makes (metrics). */
  onFetch?: (outcome: 'ok' | 'error') => void;
}

/**
 * Readiness of the signing keys: ready once keys have been fetched successfully — cached keys keep
 * verifying tokens while the identity provider is down, so its outage must not take every replica out of
 * the load balancer — or when the JWKS can be fetched now.
 *
 * @example
 * const signingKeys = signingKeysCheck({ jwksUrl: config.idp.jwksUrl });
 * createReadiness({ checks: { signing_keys: signingKeys.check }, timeoutMs: 2000 });
 */
export function signingKeysCheck(options: SigningKeysCheckOptions) {
  let fetchedOnce = false;

  async function fetchKeys(timeoutMs: number): Promise<CheckResult> {
    let response: Response;
    try {
      response = await fetch(options.jwksUrl, {
        headers: { accept: 'application/jwk-set+json, application/json' },
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      return { ok: false, reason: timedOut ? `no answer within ${timeoutMs} ms` : 'unreachable' };
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      return { ok: false, reason: `answered ${response.status}` };
    }
    const body = (await response.json().catch(() => undefined)) as { keys?: unknown } | undefined;
    if (!Array.isArray(body?.keys) || body.keys.length === 0) {
      return { ok: false, reason: 'the answer is not a key set with keys' };
    }
    return { ok: true };
  }

  const check: ReadinessCheck = async (timeoutMs) => {
    if (fetchedOnce || options.keysCached?.()) return { ok: true };
    const result = await fetchKeys(timeoutMs);
    options.onFetch?.(result.ok ? 'ok' : 'error');
    if (result.ok) fetchedOnce = true;
    return result;
  };

  return {
    check,
    /** Records a successful fetch made elsewhere (the token verifier's). */
    noteFetched(): void {
      fetchedOnce = true;
    },
  };
}
