import type { IdpContext } from '../context.js';
import { OAuthError } from '../errors.js';
import type { Client } from '../realm.js';
import { grantedScope, narrowedScope } from '../scopes.js';
import type { ClientSession, UserSession } from '../sessions.js';
import { issueUserTokens, verifyRefreshToken, type TokenResponse } from '../tokens.js';

/** Refresh: checks run in Keycloak's order and fail with its descriptions. */
export async function refreshTokenGrant(
  ctx: IdpContext,
  client: Client,
  form: URLSearchParams,
): Promise<TokenResponse> {
  const token = form.get('refresh_token');
  if (token === null) throw new OAuthError(400, 'invalid_request', 'No refresh token');
  const requestedScope = form.get('scope');
  if (requestedScope !== null) grantedScope(requestedScope);

  const claims = await verifyRefreshToken(ctx, token);
  if (claims.azp !== client.clientId) {
    throw new OAuthError(
      400,
      'invalid_grant',
      "Invalid refresh token. Token client and authorized client don't match",
    );
  }
  const session = ctx.sessions.get(claims.sid);
  if (!session) throw new OAuthError(400, 'invalid_grant', 'Session not active');
  const user = ctx.realm.findUserById(session.userId);
  if (!user) throw new OAuthError(400, 'invalid_grant', 'Invalid refresh token');
  if (!user.enabled) throw new OAuthError(400, 'invalid_grant', 'User disabled');
  const clientSession = session.clients.get(client.clientId);
  if (!clientSession) throw new OAuthError(400, 'invalid_grant', "Session doesn't have required client");
  if (ctx.realm.revokeRefreshToken) checkRotation(ctx, session, clientSession, claims.jti);

  ctx.sessions.touch(session);
  clientSession.scope = narrowedScope(claims.scope, requestedScope);
  return issueUserTokens(ctx, { user, client, session, clientSession });
}

/**
 * With "Revoke Refresh Token" on, only the newest refresh token works, and only once (plus the realm's
 * allowed reuse). A replayed token may be stolen, so the client's session ends, as Keycloak does.
 */
function checkRotation(
  ctx: IdpContext,
  session: UserSession,
  clientSession: ClientSession,
  tokenId: string,
): void {
  if (tokenId === clientSession.lastUsedRefreshTokenId) {
    if (clientSession.lastUsedCount > ctx.realm.refreshTokenMaxReuse) {
      session.clients.delete(clientSession.clientId);
      throw new OAuthError(400, 'invalid_grant', 'Maximum allowed refresh token reuse exceeded');
    }
    clientSession.lastUsedCount += 1;
    return;
  }
  if (tokenId !== clientSession.latestRefreshTokenId) {
    session.clients.delete(clientSession.clientId);
    throw new OAuthError(400, 'invalid_grant', 'Stale token');
  }
  clientSession.lastUsedRefreshTokenId = tokenId;
  clientSession.lastUsedCount = 1;
}
