import { decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from 'jose';
import { createJwksCache, JwksUnavailableError } from './jwks-cache.js';
import type { Principal } from './principal.js';

/**
 * `aud`, `azp` and lifetime rules for access tokens (`IDP_AUDIENCE`, `IDP_ALLOWED_CLIENTS`,
 * `IDP_MAX_TOKEN_LIFETIME_SECONDS`).
 */
export interface TokenClaimRules {
  /** Accepted audiences: `aud` must name one of them. Empty: `aud` is not checked. */
  audiences: string[];
  /** Accepted clients: `azp` must be one of them. `'any'`: `azp` is not checked. */
  allowedClients: string[] | 'any';
  /** Longest accepted `exp - iat`. */
  maxLifetimeSeconds: number;
}

export type { Principal } from './principal.js';

export type TokenFailure =
  /** No usable credentials, or a token that does not verify: 401. */
  | { kind: 'unauthenticated'; reason: string }
  /** The identity provider cannot be reached and no key is cached: 503. */
  | { kind: 'unavailable'; reason: string };

export class TokenError extends Error {
  constructor(readonly failure: TokenFailure) {
    super(failure.reason);
    this.name = 'TokenError';
  }
}

export interface TokenVerifierOptions {
  issuer: string;
  jwksUrl: URL;
  clockToleranceSeconds: number;
  /** Least time between JWKS refetches caused by an unknown `kid`. */
  cooldownMs: number;
  /** Age after which cached keys are refetched before they verify again (default 10 minutes). */
  maxAgeMs?: number;
  /** Longest time to wait for the identity provider's JWKS. */
  fetchTimeoutMs?: number;
  /** Told about every JWKS fetch, for metrics. */
  onJwksFetch?: (fetch: { outcome: 'ok' | 'error'; durationMs: number }) => void;
  /** Tokens remembered as verified (default 10,000); 0 checks every request's signature. */
  verifiedCacheSize?: number;
  /** How long a verified token is trusted without a new check, within its expiry (default 60 s). */
  verifiedTtlMs?: number;
  /** Accepted audiences and clients, and the longest lifetime; default: any audience or client, 24 h. */
  claims?: TokenClaimRules;
}

/**
 * Tokens that passed every check, keyed by the exact token text: a forged or altered token never matches.
 * An entry lasts until the token expires (with the leeway) or `ttlMs` passes, whichever is first; then the
 * token is checked again against the key cache, whose keys are at most `maxAgeMs` old. So a key the
 * identity provider withdraws stops being trusted within `maxAgeMs + ttlMs` (10 + 1 minutes by default),
 * as long as the identity provider answers the refetch. The oldest entries go first.
 */
class VerifiedTokens {
  private readonly entries = new Map<
    string,
    { principal: Principal; expiresAt: number; trustedUntil: number }
  >();

  constructor(
    private readonly size: number,
    private readonly ttlMs: number,
  ) {}

  get(token: string, now: number, toleranceSeconds: number): Principal | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (now > entry.trustedUntil || now > entry.expiresAt + toleranceSeconds * 1000) {
      this.entries.delete(token);
      return undefined;
    }
    return entry.principal;
  }

  set(token: string, verified: Principal & { expiresAt: number }, now: number): void {
    if (this.size === 0) return;
    const { expiresAt, ...principal } = verified;
    if (this.entries.size >= this.size) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(token, { principal, expiresAt, trustedUntil: now + this.ttlMs });
  }
}

/** Tokens longer than this are refused before any parsing: no real access token comes close. */
export const maxTokenLength = 8 * 1024;

const jwtShape = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * Verifies OIDC access tokens with `jose` against the identity provider's JWKS: RS256 only (never the
 * token's own `alg` choice), `kid` required, signature, `exp`/`nbf` with a small leeway, issuer, and the
 * Keycloak `typ: Bearer` claim (refresh and ID tokens are refused), then the accepted audiences and clients
 * (`aud`, `azp`), `iat` not in the future and a bounded lifetime (`exp - iat`). Keys are fetched once and cached (see
 * `createJwksCache`): an unknown `kid` causes at most one refetch per cooldown, never a fetch per request.
 *
 * @example
 * const verifier = createTokenVerifier({ issuer, jwksUrl, clockToleranceSeconds: 30, cooldownMs: 30_000 });
 * const principal = await verifier.verify(token);
 */
export function createTokenVerifier(options: TokenVerifierOptions) {
  const jwks = createJwksCache({
    url: options.jwksUrl,
    cooldownMs: options.cooldownMs,
    maxAgeMs: options.maxAgeMs ?? 10 * 60_000,
    timeoutMs: options.fetchTimeoutMs ?? 5_000,
    onFetch: options.onJwksFetch,
  });
  const unauthenticated = (reason: string) => new TokenError({ kind: 'unauthenticated', reason });
  // A signature check is most of a passthrough request's CPU; clients send the same token many times.
  const claimRules: TokenClaimRules = options.claims ?? {
    audiences: [],
    allowedClients: 'any',
    maxLifetimeSeconds: 86_400,
  };
  const verified = new VerifiedTokens(options.verifiedCacheSize ?? 10_000, options.verifiedTtlMs ?? 60_000);

  async function verify(token: string): Promise<Principal> {
    const now = Date.now();
    const known = verified.get(token, now, options.clockToleranceSeconds);
    if (known) return known;
    const principal = await verifySignedToken(token);
    verified.set(token, principal, now);
    return principal;
  }

  async function verifySignedToken(token: string): Promise<Principal & { expiresAt: number }> {
    if (token.length > maxTokenLength) throw unauthenticated('The token is too long.');
    if (!jwtShape.test(token)) throw unauthenticated('The token is not a signed JWT.');
    let header;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      throw unauthenticated('The token header cannot be decoded.');
    }
    if (header.alg !== 'RS256') throw unauthenticated('The token must be signed with RS256.');
    if (typeof header.kid !== 'string' || header.kid === '')
      throw unauthenticated('The token has no key id (kid).');

    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, jwks.getKey, {
        issuer: options.issuer,
        algorithms: ['RS256'],
        clockTolerance: options.clockToleranceSeconds,
        requiredClaims: ['exp', 'iat', 'sub'],
      }));
    } catch (error) {
      throw classify(error, jwks.hasKeys());
    }
    if (payload.typ !== 'Bearer')
      throw unauthenticated('The token is not an access token (typ must be Bearer).');
    const problem = claimProblem(payload, claimRules, options.clockToleranceSeconds, Date.now() / 1000);
    if (problem) throw unauthenticated(problem);
    return { ...principalOf(payload), expiresAt: Number(payload.exp) * 1000 };
  }

  return { verify, hasKeys: jwks.hasKeys };
}

/**
 * What jose does not check: who the token is for, and whether its times are plausible. A token issued in the
 * future (beyond the leeway), or one meant to live longer than any access token should, comes from a
 * misconfigured or misused signer; accepting it would let a leaked token work for that long.
 */
function claimProblem(
  payload: JWTPayload,
  rules: TokenClaimRules,
  toleranceSeconds: number,
  nowSeconds: number,
): string | undefined {
  const iat = Number(payload.iat);
  const exp = Number(payload.exp);
  if (iat > nowSeconds + toleranceSeconds) return 'The token was issued in the future (check the clocks).';
  if (exp - iat > rules.maxLifetimeSeconds) {
    return `The token's lifetime (exp - iat) exceeds the accepted maximum of ${rules.maxLifetimeSeconds} seconds.`;
  }
  if (rules.audiences.length > 0) {
    const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    if (!audiences.some((audience) => typeof audience === 'string' && rules.audiences.includes(audience))) {
      return 'The token is not meant for this service (its aud claim names no accepted audience).';
    }
  }
  if (rules.allowedClients !== 'any') {
    if (typeof payload.azp !== 'string' || !rules.allowedClients.includes(payload.azp)) {
      return 'The token was issued to a client this service does not accept (azp).';
    }
  }
  return undefined;
}

function classify(error: unknown, keysCached: boolean): TokenError {
  const unauthenticated = (reason: string) => new TokenError({ kind: 'unauthenticated', reason });
  if (error instanceof errors.JWTExpired) return unauthenticated('The token has expired.');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return unauthenticated('The token was issued by another identity provider.');
    if (error.claim === 'nbf') return unauthenticated('The token is not valid yet.');
    if (error.reason === 'missing') return unauthenticated(`The token has no ${error.claim} claim.`);
    return unauthenticated(`The token's ${error.claim} claim is invalid.`);
  }
  if (error instanceof errors.JWKSNoMatchingKey)
    return unauthenticated('The token was signed by an unknown key.');
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return unauthenticated('The token signature is invalid.');
  if (error instanceof errors.JOSEAlgNotAllowed)
    return unauthenticated('The token must be signed with RS256.');
  if (error instanceof JwksUnavailableError) {
    // With keys cached, a kid the identity provider cannot be asked about is simply unknown.
    return keysCached
      ? unauthenticated('The token was signed by an unknown key.')
      : new TokenError({ kind: 'unavailable', reason: 'The identity provider cannot be reached.' });
  }
  if (error instanceof errors.JOSEError) return unauthenticated('The token is invalid.');
  // Anything else is a defect, not the caller's fault: let it surface as a 500 and in the log.
  throw error;
}

function principalOf(payload: JWTPayload): Principal {
  const realmAccess = payload.realm_access as { roles?: unknown } | undefined;
  const roles = Array.isArray(realmAccess?.roles)
    ? realmAccess.roles.filter((role): role is string => typeof role === 'string')
    : [];
  return {
    subject: String(payload.sub),
    username: typeof payload.preferred_username === 'string' ? payload.preferred_username : undefined,
    clientId: typeof payload.azp === 'string' ? payload.azp : undefined,
    roles,
    employeeUuid: typeof payload.uuid === 'string' ? payload.uuid : undefined,
    ...(typeof payload.email === 'string' ? { email: payload.email } : {}),
  };
}

export type TokenVerifier = ReturnType<typeof createTokenVerifier>;
