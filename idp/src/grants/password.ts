import type { Client } from '../realm.js';
import type { IdpContext } from '../context.js';
import { OAuthError } from '../errors.js';
import { grantedScope } from '../scopes.js';
import { sameSecret } from '../secrets.js';
import { issueUserTokens, type TokenResponse } from '../tokens.js';

/** Resource owner password credentials (Keycloak's "direct access grants"). */
export async function passwordGrant(
  ctx: IdpContext,
  client: Client,
  form: URLSearchParams,
): Promise<TokenResponse> {
  if (!client.directAccessGrantsEnabled) {
    throw new OAuthError(400, 'unauthorized_client', 'Client not allowed for direct access grants');
  }
  const scope = grantedScope(form.get('scope'));
  const username = form.get('username');
  // Keycloak's statuses differ on purpose: 401 for a missing username or a wrong password, 400 otherwise.
  if (username === null) throw new OAuthError(401, 'invalid_request', 'Missing parameter: username');
  const user = ctx.realm.findUserForLogin(username);
  if (!user || user.serviceAccountClientId !== undefined) {
    throw new OAuthError(400, 'invalid_grant', 'Invalid user credentials');
  }
  if (!user.enabled) throw new OAuthError(400, 'invalid_grant', 'Account disabled');
  const password = form.get('password');
  if (password === null || user.password === undefined || !sameSecret(password, user.password)) {
    throw new OAuthError(401, 'invalid_grant', 'Invalid user credentials');
  }
  const session = ctx.sessions.create(user.id);
  const clientSession = ctx.sessions.attachClient(session, { clientId: client.clientId, scope, acr: '1' });
  return issueUserTokens(ctx, { user, client, session, clientSession });
}
