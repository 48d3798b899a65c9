import { createHash, randomUUID } from 'node:crypto';
import { compactVerify, SignJWT, type JWTPayload } from 'jose';
import { allowedOriginsClaim, mappedClaims, profileClaims, realmAccessClaim } from './claims.js';
import { epochSeconds } from './clock.js';
import type { IdpContext } from './context.js';
import { OAuthError } from './errors.js';
import { SIGNING_ALGORITHM } from './keys.js';
import type { Client, UserAccount } from './realm.js';
import { includesOpenid } from './scopes.js';
import type { ClientSession, UserSession } from './sessions.js';

/** The token endpoint's answer; built in Keycloak's member order. */
export interface TokenResponse {
  access_token: string;
  expires_in: number;
  refresh_expires_in: number;
  refresh_token?: string;
  token_type: 'Bearer';
  id_token?: string;
  'not-before-policy': number;
  session_state?: string;
  scope: string;
}

/** The claims of a refresh token this provider issued. */
export interface RefreshTokenClaims {
  jti: string;
  iat: number;
  exp: number;
  sub: string;
  azp: string;
  sid: string;
  scope: string;
}

// Keycloak's audience for tokens of users holding the default account roles.
const ACCESS_TOKEN_AUDIENCE = 'account';

/**
 * Tokens for a user session: access, refresh and, for OpenID requests, an ID token. As in Keycloak 25+, the
 * tokens name the session in `sid` only; `session_state` stays in the token response (OpenID Connect
 * Session Management asks for it there).
 */
export async function issueUserTokens(
  ctx: IdpContext,
  input: { user: UserAccount; client: Client; session: UserSession; clientSession: ClientSession },
): Promise<TokenResponse> {
  const { user, client, session, clientSession } = input;
  const now = epochSeconds(ctx.now);
  const accessExpiresAt = now + ctx.realm.accessTokenLifespan;
  const refreshExpiresAt = ctx.sessions.refreshExpiresAt(session);
  const profile = profileClaims(user);

  const accessToken = await signWithRealmKey(ctx, {
    exp: accessExpiresAt,
    iat: now,
    jti: randomUUID(),
    iss: ctx.issuer,
    aud: ACCESS_TOKEN_AUDIENCE,
    sub: user.id,
    typ: 'Bearer',
    azp: client.clientId,
    acr: clientSession.acr,
    ...allowedOriginsClaim(client),
    ...realmAccessClaim(ctx.realm, user),
    scope: clientSession.scope,
    sid: session.id,
    ...profile,
    ...mappedClaims(client, user, 'accessToken'),
  });

  const refreshTokenId = randomUUID();
  const refreshToken = await signRefreshToken(ctx, {
    exp: refreshExpiresAt,
    iat: now,
    jti: refreshTokenId,
    iss: ctx.issuer,
    aud: ctx.issuer,
    sub: user.id,
    typ: 'Refresh',
    azp: client.clientId,
    ...(clientSession.nonce === undefined ? {} : { nonce: clientSession.nonce }),
    scope: clientSession.scope,
    sid: session.id,
  });
  clientSession.latestRefreshTokenId = refreshTokenId;

  const idToken = includesOpenid(clientSession.scope)
    ? await signWithRealmKey(ctx, {
        exp: accessExpiresAt,
        iat: now,
        auth_time: session.authTime,
        jti: randomUUID(),
        iss: ctx.issuer,
        aud: client.clientId,
        sub: user.id,
        typ: 'ID',
        azp: client.clientId,
        ...(clientSession.nonce === undefined ? {} : { nonce: clientSession.nonce }),
        at_hash: accessTokenHash(accessToken),
        acr: clientSession.acr,
        sid: session.id,
        ...profile,
        ...mappedClaims(client, user, 'idToken'),
      })
    : undefined;

  return {
    access_token: accessToken,
    expires_in: ctx.realm.accessTokenLifespan,
    refresh_expires_in: Math.max(refreshExpiresAt - now, 0),
    refresh_token: refreshToken,
    token_type: 'Bearer',
    ...(idToken === undefined ? {} : { id_token: idToken }),
    'not-before-policy': 0,
    session_state: session.id,
    scope: clientSession.scope,
  };
}

/** Client credentials: an access token for the client's service account; no refresh token, no session. */
export async function issueServiceAccountTokens(
  ctx: IdpContext,
  input: { user: UserAccount; client: Client; scope: string },
): Promise<TokenResponse> {
  const { user, client, scope } = input;
  const now = epochSeconds(ctx.now);
  const expiresAt = now + ctx.realm.accessTokenLifespan;
  const accessToken = await signWithRealmKey(ctx, {
    exp: expiresAt,
    iat: now,
    jti: randomUUID(),
    iss: ctx.issuer,
    aud: ACCESS_TOKEN_AUDIENCE,
    sub: user.id,
    typ: 'Bearer',
    azp: client.clientId,
    acr: '1',
    ...allowedOriginsClaim(client),
    ...realmAccessClaim(ctx.realm, user),
    scope,
    ...profileClaims(user),
    client_id: client.clientId,
    ...mappedClaims(client, user, 'accessToken'),
  });
  const idToken = includesOpenid(scope)
    ? await signWithRealmKey(ctx, {
        exp: expiresAt,
        iat: now,
        auth_time: now,
        jti: randomUUID(),
        iss: ctx.issuer,
        aud: client.clientId,
        sub: user.id,
        typ: 'ID',
        azp: client.clientId,
        at_hash: accessTokenHash(accessToken),
        acr: '1',
        ...profileClaims(user),
        ...mappedClaims(client, user, 'idToken'),
      })
    : undefined;
  return {
    access_token: accessToken,
    expires_in: ctx.realm.accessTokenLifespan,
    refresh_expires_in: 0,
    token_type: 'Bearer',
    ...(idToken === undefined ? {} : { id_token: idToken }),
    'not-before-policy': 0,
    scope,
  };
}

/** Checks a refresh token's signature, type, issuer and expiry, with Keycloak's error descriptions. */
export async function verifyRefreshToken(
  ctx: IdpContext,
  token: string,
  options: { checkExpiry: boolean } = { checkExpiry: true },
): Promise<RefreshTokenClaims> {
  let payload: Record<string, unknown>;
  try {
    const { payload: bytes } = await compactVerify(token, ctx.keys.refreshTokenKey.secret, {
      algorithms: ['HS512'],
    });
    payload = JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
  } catch {
    throw new OAuthError(400, 'invalid_grant', 'Invalid refresh token');
  }
  const claims = payload as Partial<RefreshTokenClaims> & { typ?: unknown; iss?: unknown };
  if (
    claims.typ !== 'Refresh' ||
    typeof claims.jti !== 'string' ||
    typeof claims.sid !== 'string' ||
    typeof claims.azp !== 'string' ||
    typeof claims.exp !== 'number' ||
    typeof claims.iat !== 'number' ||
    typeof claims.sub !== 'string' ||
    typeof claims.scope !== 'string'
  ) {
    throw new OAuthError(400, 'invalid_grant', 'Invalid refresh token');
  }
  if (claims.iss !== ctx.issuer) {
    throw new OAuthError(400, 'invalid_grant', `Invalid token issuer. Expected '${ctx.issuer}'`);
  }
  if (options.checkExpiry && epochSeconds(ctx.now) > claims.exp) {
    throw new OAuthError(400, 'invalid_grant', 'Token is not active');
  }
  return claims as RefreshTokenClaims;
}

/**
 * Verifies an access or ID token this provider signed with one of its published keys. Used by userinfo
 * and logout, never by anyone else: the gateway verifies against the JWKS.
 */
export async function verifyRealmToken(
  ctx: IdpContext,
  token: string,
  options: { typ: 'Bearer' | 'ID'; checkExpiry: boolean },
): Promise<JWTPayload> {
  const { payload: bytes } = await compactVerify(
    token,
    (header) => {
      const key = ctx.keys.find(header.kid);
      if (!key) throw new Error('unknown kid');
      return key.publicKey;
    },
    { algorithms: [SIGNING_ALGORITHM] },
  );
  const payload = JSON.parse(new TextDecoder().decode(bytes)) as JWTPayload;
  if (payload['typ'] !== options.typ) throw new Error(`not a ${options.typ} token`);
  if (payload.iss !== ctx.issuer) throw new Error('wrong issuer');
  if (options.checkExpiry && (typeof payload.exp !== 'number' || epochSeconds(ctx.now) > payload.exp)) {
    throw new Error('expired');
  }
  return payload;
}

/** OpenID Connect's `at_hash`: the left half of the access token's SHA-256, base64url. */
export function accessTokenHash(accessToken: string): string {
  return createHash('sha256').update(accessToken, 'ascii').digest().subarray(0, 16).toString('base64url');
}

async function signWithRealmKey(ctx: IdpContext, claims: Record<string, unknown>): Promise<string> {
  const key = ctx.keys.active;
  return new SignJWT(claims)
    .setProtectedHeader({ alg: SIGNING_ALGORITHM, typ: 'JWT', kid: key.kid })
    .sign(key.privateKey);
}

async function signRefreshToken(ctx: IdpContext, claims: Record<string, unknown>): Promise<string> {
  const key = ctx.keys.refreshTokenKey;
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS512', typ: 'JWT', kid: key.kid }).sign(key.secret);
}
