import type { Context } from 'hono';
import { authenticateClient } from './clients.js';
import type { IdpContext } from './context.js';
import { OAuthError, oauthErrorResponse } from './errors.js';
import { hasDuplicatedParameter, readForm } from './request-params.js';
import { verifyRealmToken, verifyRefreshToken } from './tokens.js';

const TOKEN_TYPE_HINTS = new Set(['access_token', 'refresh_token']);

/**
 * `POST …/protocol/openid-connect/token/introspect` (RFC 7662), as Keycloak 26 answers it: only a
 * confidential client that authenticates may ask (a public client gets 403 "Client not allowed."); an
 * active token gives its claims plus `client_id`, `username`, `token_type` and `active: true`; anything
 * else — expired, forged, revoked, its session ended, its user disabled — gives `{"active": false}`.
 */
export function introspectionEndpoint(ctx: IdpContext) {
  return async (c: Context): Promise<Response> => {
    try {
      const form = await readForm(c);
      const client = authenticateClient(ctx.realm, c.req.header('Authorization'), form);
      if (client.publicClient) throw new OAuthError(403, 'invalid_request', 'Client not allowed.');
      if (hasDuplicatedParameter(form)) throw new OAuthError(400, 'invalid_request', 'duplicated parameter');
      const hint = form.get('token_type_hint') ?? 'access_token';
      const token = form.get('token');
      if (token === null) throw new OAuthError(400, 'invalid_request', 'Token not provided.');
      if (!TOKEN_TYPE_HINTS.has(hint)) {
        throw new OAuthError(400, 'invalid_request', `Unsupported token type [${hint}].`);
      }
      c.header('Cache-Control', 'no-store');
      return c.json(await introspect(ctx, token));
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      return oauthErrorResponse(c, error);
    }
  };
}

async function introspect(ctx: IdpContext, token: string): Promise<Record<string, unknown>> {
  const inactive = { active: false };
  // The hint only says where to look first (RFC 7662 §2.1); both kinds are recognised.
  const claims: Record<string, unknown> | undefined =
    (await verifyRealmToken(ctx, token, { typ: 'Bearer', checkExpiry: true }).catch(() => undefined)) ??
    (await verifyRefreshToken(ctx, token, { checkExpiry: true }).then(
      (refresh) => refresh as unknown as Record<string, unknown>,
      () => undefined,
    ));
  if (!claims || ctx.revokedTokens.isRevoked(claims['jti'])) return inactive;
  const user = typeof claims['sub'] === 'string' ? ctx.realm.findUserById(claims['sub']) : undefined;
  if (!user?.enabled) return inactive;
  const sid = claims['sid'];
  if (typeof sid === 'string') {
    const session = ctx.sessions.get(sid);
    if (!session || (typeof claims['azp'] === 'string' && !session.clients.has(claims['azp'])))
      return inactive;
  }
  return {
    ...claims,
    client_id: claims['azp'],
    username: user.username,
    token_type: 'Bearer',
    active: true,
  };
}
