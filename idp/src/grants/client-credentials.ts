import type { IdpContext } from '../context.js';
import { OAuthError } from '../errors.js';
import type { Client } from '../realm.js';
import { grantedScope } from '../scopes.js';
import { issueServiceAccountTokens, type TokenResponse } from '../tokens.js';

/** Client credentials: the client acts as its service account user. */
export async function clientCredentialsGrant(
  ctx: IdpContext,
  client: Client,
  form: URLSearchParams,
): Promise<TokenResponse> {
  if (client.publicClient) {
    throw new OAuthError(401, 'unauthorized_client', 'Public client not allowed to retrieve service account');
  }
  if (!client.serviceAccountsEnabled) {
    throw new OAuthError(401, 'unauthorized_client', 'Client not enabled to retrieve service account');
  }
  const user = ctx.realm.serviceAccountOf(client.clientId);
  if (!user) {
    throw new OAuthError(
      401,
      'invalid_request',
      'The associated service account for the client does not exist',
    );
  }
  if (!user.enabled) throw new OAuthError(401, 'invalid_request', `User '${user.username}' disabled`);
  const scope = grantedScope(form.get('scope'));
  return issueServiceAccountTokens(ctx, { user, client, scope });
}
