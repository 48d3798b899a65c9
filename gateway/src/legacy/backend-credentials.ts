import { LegacyCredentialError } from './legacy-errors.js';
import { fetch, type Response } from '../auth/idp-fetch.js';

/** How the gateway authenticates to the legacy service (`LEGACY_CREDENTIALS`). */
export type LegacyAuth =
  /** The caller's own `Authorization: Bearer …`, so the backend sees the same user (the default). */
  | { mode: 'relay' }
  /** The gateway's own token from the identity provider's token endpoint (client credentials grant). */
  | { mode: 'client-credentials'; tokenUrl: URL; clientId: string; clientSecret: string }
  /** No credential: a backend that trusts its network. */
  | { mode: 'none' };

export interface BackendCredentialOptions {
  /** Longest wait for the token endpoint. */
  timeoutMs: number;
  now?: () => number;
}

/** Refresh this long before the token expires, or at half its life when that is shorter. */
const refreshMarginMs = 30_000;

/**
 * The `Authorization` header value each legacy call carries, given the caller's own header (which
 * `relay` passes on, and the other modes ignore). In `client-credentials` mode the gateway's token is
 * fetched once, kept until shortly before it expires, and fetched by one call however many legacy calls
 * wait for it. Neither the secret nor a token is ever put in an error, a log line or a trace.
 *
 * @example
 * const credentials = backendCredentials({ mode: 'relay' }, { timeoutMs: 2000 });
 * await credentials.header('Bearer eyJ…'); // → 'Bearer eyJ…'
 */
export function backendCredentials(auth: LegacyAuth, options: BackendCredentialOptions) {
  const now = options.now ?? Date.now;
  if (auth.mode === 'none') return { header: async (_caller?: string) => undefined, mode: auth.mode };
  if (auth.mode === 'relay') {
    const relayed = (caller?: string) => (caller && /^Bearer \S+$/i.test(caller) ? caller : undefined);
    return {
      header: async (caller?: string) => relayed(caller),
      /** The same header without a promise: relaying never waits, so the passthrough need not either. */
      relayed,
      mode: auth.mode,
    };
  }

  let kept: { header: string; refreshAt: number } | undefined;
  let pending: Promise<string> | undefined;

  const fetchToken = async (): Promise<string> => {
    let response: Response;
    try {
      response = await fetch(auth.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: auth.clientId,
          client_secret: auth.clientSecret,
        }).toString(),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch {
      throw new LegacyCredentialError('the token endpoint cannot be reached');
    }
    const body = (await response.json().catch(() => undefined)) as
      { access_token?: unknown; expires_in?: unknown; token_type?: unknown } | undefined;
    if (!response.ok) throw new LegacyCredentialError(`the token endpoint answered ${response.status}`);
    if (typeof body?.access_token !== 'string' || !/^[\x21-\x7e]+$/.test(body.access_token)) {
      throw new LegacyCredentialError('the token endpoint sent no usable access token');
    }
    const lifeMs =
      typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in * 1000 : 60_000;
    kept = {
      header: `Bearer ${body.access_token}`,
      refreshAt: now() + lifeMs - Math.min(refreshMarginMs, lifeMs / 2),
    };
    return kept.header;
  };

  return {
    mode: auth.mode,
    header: async (_caller?: string): Promise<string> => {
      if (kept && now() < kept.refreshAt) return kept.header;
      pending ??= fetchToken().finally(() => {
        pending = undefined;
      });
      return pending;
    },
  };
}

export type BackendCredentials = ReturnType<typeof backendCredentials>;
