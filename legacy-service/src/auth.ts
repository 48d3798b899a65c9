import type { MiddlewareHandler } from 'hono';
import { createRemoteJWKSet, decodeProtectedHeader, errors, jwtVerify } from 'jose';
import type { LegacyAuthConfig } from './config.js';

/**
 * Bearer-token authentication as OS2mo 2.4.0 does it for `/service`: every call needs an access token from
 * the realm, checked with `jose` against the identity provider's JWKS (RS256 only, `kid` required,
 * signature, `exp`/`nbf` with a small leeway, issuer). There is no RBAC here: that is the gateway's job.
 *
 * OS2mo's answers, kept as they are because integrations match on them: no `Authorization: Bearer` at all is
 * `401 "Not authenticated"` (a bare JSON string, from its bearer scheme); a token that fails a check is
 * `401 {"status": "Unauthorized", "msg": …}`; a problem reaching the identity provider is
 * `500 {"msg": "A server side authentication error occurred"}`.
 */

/** Why a request was refused: the sentence goes into OS2mo's `msg`. */
class Unauthorized extends Error {}
/** No credentials at all: OS2mo's bearer scheme refuses before any token check, with a bare JSON string. */
class Anonymous extends Error {}
class ServerSide extends Error {}

/** Tokens longer than this are refused before parsing: no real access token comes close. */
const maxTokenLength = 8 * 1024;

/**
 * Tokens that verified, by their exact text (a forged or altered token never matches), trusted until they
 * expire or for at most `ttlMs`, so a withdrawn key stops working soon. Clients repeat one token for many
 * calls, and the signature check is most of a small read's cost.
 */
class VerifiedTokens {
  private readonly entries = new Map<string, number>();

  constructor(
    private readonly size: number,
    private readonly ttlMs: number,
  ) {}

  has(token: string, now: number): boolean {
    const until = this.entries.get(token);
    if (until === undefined) return false;
    if (now <= until) return true;
    this.entries.delete(token);
    return false;
  }

  add(token: string, expiresAtMs: number, now: number): void {
    if (this.entries.size >= this.size) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(token, Math.min(expiresAtMs, now + this.ttlMs));
  }
}

export type TokenCheck = (authorization: string | undefined) => Promise<void>;

/** The check for one realm; the JWKS is fetched on first use and cached (see `createRemoteJWKSet`). */
export function createTokenCheck(config: Extract<LegacyAuthConfig, { enabled: true }>): TokenCheck {
  // jose fetches once, reuses the keys, and refetches for an unknown `kid` at most once per cooldown.
  const jwks = createRemoteJWKSet(config.jwksUrl, {
    cooldownDuration: config.jwksCooldownMs,
    cacheMaxAge: 10 * 60_000,
    timeoutDuration: 5_000,
  });
  const verified = new VerifiedTokens(10_000, 60_000);

  return async (authorization) => {
    const match = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
    if (!match) throw new Anonymous('Not authenticated');
    const token = match[1]!;
    const now = Date.now();
    if (verified.has(token, now)) return;
    if (token.length > maxTokenLength) throw new Unauthorized('The token is too long.');
    let header;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      throw new Unauthorized('The token is not a signed JWT.');
    }
    // Checked before any key is looked up, so a token cannot choose its own algorithm or skip the kid.
    if (header.alg !== 'RS256') throw new Unauthorized('The token must be signed with RS256.');
    if (typeof header.kid !== 'string' || header.kid === '') {
      throw new Unauthorized('The token has no key id (kid).');
    }
    try {
      const { payload } = await jwtVerify(token, jwks, {
        issuer: config.issuer,
        algorithms: ['RS256'],
        clockTolerance: config.clockToleranceSeconds,
        requiredClaims: ['exp'],
      });
      verified.add(token, (Number(payload.exp) + config.clockToleranceSeconds) * 1000, now);
    } catch (error) {
      throw classify(error);
    }
  };
}

function classify(error: unknown): Error {
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) {
    return new ServerSide(error.message);
  }
  if (error instanceof errors.JWTExpired) return new Unauthorized('The token has expired.');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return new Unauthorized('The token was issued by another identity provider.');
    if (error.claim === 'nbf') return new Unauthorized('The token is not valid yet.');
    return new Unauthorized(`The token's ${error.claim} claim is missing or invalid.`);
  }
  if (error instanceof errors.JWKSNoMatchingKey)
    return new Unauthorized('The token was signed by an unknown key.');
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return new Unauthorized('The token signature is invalid.');
  }
  if (error instanceof errors.JOSEError) return new Unauthorized('The token is invalid.');
  // Not a JOSE verdict: the JWKS could not be fetched (connection refused, bad response).
  return new ServerSide(error instanceof Error ? error.message : String(error));
}

/**
 * The middleware for `/service/*`. `onServerSideError` hears about identity-provider failures (the
 * client only sees OS2mo's generic sentence).
 */
export function requireBearerToken(
  check: TokenCheck,
  onServerSideError?: (error: unknown) => void,
): MiddlewareHandler {
  return async (c, next) => {
    try {
      await check(c.req.header('authorization'));
    } catch (error) {
      if (error instanceof Anonymous) {
        c.header('WWW-Authenticate', 'Bearer');
        return c.json('Not authenticated', 401);
      }
      if (error instanceof Unauthorized) {
        c.header('WWW-Authenticate', 'Bearer');
        return c.json({ status: 'Unauthorized', msg: error.message }, 401);
      }
      onServerSideError?.(error);
      return c.json({ msg: 'A server side authentication error occurred' }, 500);
    }
    await next();
    return undefined;
  };
}
