import type { Context } from 'hono';
import { mappedClaims, profileClaims } from './claims.js';
import type { IdpContext } from './context.js';
import { allowOrigin } from './cors.js';
import { OAuthError, oauthErrorResponse } from './errors.js';
import { readForm } from './request-params.js';
import { includesOpenid } from './scopes.js';
import { verifyRealmToken } from './tokens.js';

/** `GET|POST …/protocol/openid-connect/userinfo` with a bearer access token. */
export function userinfoEndpoint(ctx: IdpContext) {
  return async (c: Context): Promise<Response> => {
    const unauthorized = (error: string, description: string) =>
      new OAuthError(401, error, description, {
        'WWW-Authenticate': `Bearer realm="${ctx.realm.name}", error="${error}", error_description="${description}"`,
      });
    try {
      const token = await bearerToken(c);
      if (token === undefined) throw unauthorized('invalid_request', 'Token not provided');
      let claims;
      try {
        claims = await verifyRealmToken(ctx, token, { typ: 'Bearer', checkExpiry: true });
        if (ctx.revokedTokens.isRevoked(claims.jti)) throw new Error('revoked');
      } catch {
        throw unauthorized('invalid_token', 'Token verification failed');
      }
      // UserInfo belongs to OpenID Connect: Keycloak (19.0.2+) answers 403 to a token issued without `openid`.
      if (typeof claims['scope'] !== 'string' || !includesOpenid(claims['scope'])) {
        throw new OAuthError(403, 'insufficient_scope', 'Missing openid scope', {
          'WWW-Authenticate': `Bearer realm="${ctx.realm.name}", error="insufficient_scope", error_description="Missing openid scope"`,
        });
      }
      const allowedOrigins = Array.isArray(claims['allowed-origins'])
        ? (claims['allowed-origins'] as string[])
        : [];
      const user = typeof claims.sub === 'string' ? ctx.realm.findUserById(claims.sub) : undefined;
      if (!user) throw unauthorized('invalid_token', 'User not found');
      if (!user.enabled) throw unauthorized('invalid_request', 'User disabled');
      const sid = claims['sid'];
      if (typeof sid === 'string' && !ctx.sessions.get(sid)) {
        throw unauthorized('invalid_token', "User session not found or doesn't have client attached on it");
      }
      const client = typeof claims['azp'] === 'string' ? ctx.realm.findClient(claims['azp']) : undefined;
      allowOrigin(c, (origin) => allowedOrigins.includes('*') || allowedOrigins.includes(origin));
      return c.json({
        sub: user.id,
        ...profileClaims(user),
        ...(client ? mappedClaims(client, user, 'userinfo') : {}),
      });
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      allowOrigin(c, () => true);
      return oauthErrorResponse(c, error);
    }
  };
}

async function bearerToken(c: Context): Promise<string | undefined> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('Authorization') ?? '');
  if (match) return match[1];
  if (c.req.method === 'POST') return (await readForm(c)).get('access_token') ?? undefined;
  return undefined;
}
