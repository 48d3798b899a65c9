import type { Client } from '../realm.js';
import type { IdpContext } from '../context.js';
import { OAuthError } from '../errors.js';
import { grantedScope } from '../scopes.js';
import { checkPasswordLogin } from '../password-login.js';
import { issueUserTokens, type TokenResponse } from '../tokens.js';

/** Resource owner password credentials (Keycloak's "direct access grants"). */
export async function passwordGrant(
  ctx: IdpContext,
  client: Client,
  form: URLSearchParams,
  address: string,
): Promise<TokenResponse> {
  if (!client.directAccessGrantsEnabled) {
    throw new OAuthError(400, 'unauthorized_client', 'Client not allowed for direct access grants');
  }
  const scope = grantedScope(form.get('scope'));
  const username = form.get('username');
  if (username === null) throw new OAuthError(401, 'invalid_request', 'Missing parameter: username');
  const login = checkPasswordLogin(ctx, username, form.get('password'), address);
  // One answer for an unknown user, a service account, a locked account and a wrong password. Keycloak 26
  // sends 401 for a wrong password but 400 for the others, which tells a guesser which usernames exist
  // and when an account is locked; we send its wrong-password answer for all (see idp/README.md).
  if (login.kind === 'invalid') throw new OAuthError(401, 'invalid_grant', 'Invalid user credentials');
  if (login.kind === 'disabled') throw new OAuthError(400, 'invalid_grant', 'Account disabled');
  const { user } = login;
  const session = ctx.sessions.create(user.id);
  const clientSession = ctx.sessions.attachClient(session, { clientId: client.clientId, scope, acr: '1' });
  return issueUserTokens(ctx, { user, client, session, clientSession });
}
