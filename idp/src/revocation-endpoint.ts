import type { Context } from 'hono';
import type { JWTPayload } from 'jose';
import { authenticateClient } from './clients.js';
import type { IdpContext } from './context.js';
import { allowOrigin, webOriginAllows } from './cors.js';
import { OAuthError, oauthErrorResponse } from './errors.js';
import type { Client } from './realm.js';
import { hasDuplicatedParameter, readForm } from './request-params.js';
import { verifyRealmToken, verifyRefreshToken } from './tokens.js';

/**
 * `POST …/protocol/openid-connect/revoke` (RFC 7009), checking in Keycloak 26's order and answering as it
 * does: the client authenticates (a public client by its `client_id`); a refresh token ends that client's
 * part of the session (and the session, if no other client is in it); an access token is refused by
 * userinfo and introspection until it expires. A token that cannot be read answers 200 with
 * `invalid_token`, as Keycloak does; success is an empty 200.
 */
export function revocationEndpoint(ctx: IdpContext) {
  return async (c: Context): Promise<Response> => {
    let client: Client | undefined;
    try {
      const form = await readForm(c);
      client = authenticateClient(ctx.realm, c.req.header('Authorization'), form);
      const { webOrigins } = client;
      allowOrigin(c, (origin) => webOriginAllows(webOrigins, origin));
      if (hasDuplicatedParameter(form)) throw new OAuthError(400, 'invalid_request', 'duplicated parameter');
      const token = form.get('token');
      if (token === null) throw new OAuthError(400, 'invalid_request', 'Token not provided');
      const invalid = new OAuthError(200, 'invalid_token', 'Invalid token');

      const refresh = await verifyRefreshToken(ctx, token, { checkExpiry: true }).catch(() => undefined);
      const access = refresh
        ? undefined
        : await readAccessOrIdToken(ctx, token).catch((error: unknown) => {
            if (error instanceof OAuthError) throw error;
            return undefined;
          });
      if (!refresh && !access) throw invalid;
      const issuedFor = refresh?.azp ?? access?.['azp'];
      if (typeof issuedFor !== 'string') throw invalid;
      if (issuedFor !== client.clientId) throw new OAuthError(400, 'invalid_request', 'Unmatching clients');
      const sid = refresh?.sid ?? access?.['sid'];
      const session = typeof sid === 'string' ? ctx.sessions.get(sid) : undefined;
      // Service-account tokens have no session; a user's token needs its session to be active.
      if (typeof sid === 'string' && !session) throw invalid;

      if (refresh) {
        session?.clients.delete(client.clientId);
        if (session && session.clients.size === 0) ctx.sessions.end(session.id);
      } else if (access && typeof access.jti === 'string' && typeof access.exp === 'number') {
        ctx.revokedTokens.revoke(access.jti, access.exp);
      }
      c.header('Cache-Control', 'no-store');
      return c.body(null, 200);
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      const webOrigins = client?.webOrigins;
      allowOrigin(c, (origin) => webOrigins === undefined || webOriginAllows(webOrigins, origin));
      return oauthErrorResponse(c, error);
    }
  };
}

/** An access token (revocable), or an ID token (refused as Keycloak does: not a type it revokes). */
async function readAccessOrIdToken(ctx: IdpContext, token: string): Promise<JWTPayload> {
  try {
    return await verifyRealmToken(ctx, token, { typ: 'Bearer', checkExpiry: true });
  } catch {
    await verifyRealmToken(ctx, token, { typ: 'ID', checkExpiry: false });
    throw new OAuthError(400, 'unsupported_token_type', 'Unsupported token type');
  }
}
