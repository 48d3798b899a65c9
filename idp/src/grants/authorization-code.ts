import type { IdpContext } from '../context.js';
import { OAuthError } from '../errors.js';
import { PKCE_VALUE_PATTERN, verifierMatches } from '../pkce.js';
import type { Client } from '../realm.js';
import { issueUserTokens, type TokenResponse } from '../tokens.js';

/** Exchanges an authorization code (from the login page) for tokens, checking PKCE. */
export async function authorizationCodeGrant(
  ctx: IdpContext,
  client: Client,
  form: URLSearchParams,
): Promise<TokenResponse> {
  const code = form.get('code');
  if (code === null) throw new OAuthError(400, 'invalid_request', 'Missing parameter: code');
  const redemption = ctx.codes.redeem(code);
  if (redemption.kind === 'reused') {
    // A code used twice may have been intercepted: the tokens from its first use stop refreshing.
    ctx.sessions.get(redemption.grant.sessionId)?.clients.delete(redemption.grant.clientId);
    throw new OAuthError(400, 'invalid_grant', 'Code not valid');
  }
  if (redemption.kind === 'unknown') throw new OAuthError(400, 'invalid_grant', 'Code not valid');
  if (redemption.kind === 'expired') throw new OAuthError(400, 'invalid_grant', 'Code is expired');
  const { grant } = redemption;

  const session = ctx.sessions.get(grant.sessionId);
  const clientSession = session?.clients.get(grant.clientId);
  if (!session || !clientSession) throw new OAuthError(400, 'invalid_grant', 'Code not valid');
  const user = ctx.realm.findUserById(session.userId);
  if (!user) throw new OAuthError(400, 'invalid_grant', 'User not found');
  if (!user.enabled) throw new OAuthError(400, 'invalid_grant', 'User disabled');
  if (grant.redirectUri !== undefined && form.get('redirect_uri') !== grant.redirectUri) {
    throw new OAuthError(400, 'invalid_grant', 'Incorrect redirect_uri');
  }
  if (grant.clientId !== client.clientId) {
    throw new OAuthError(400, 'invalid_grant', 'Auth error: Found different client_id in clientSession');
  }
  if (!client.standardFlowEnabled) {
    throw new OAuthError(400, 'invalid_grant', 'Client not allowed to exchange code');
  }
  checkVerifier(form.get('code_verifier'), grant.codeChallenge, client.pkceMethod !== undefined);
  return issueUserTokens(ctx, { user, client, session, clientSession });
}

function checkVerifier(verifier: string | null, challenge: string | undefined, enforced: boolean): void {
  if (verifier === null) {
    if (enforced || challenge !== undefined) {
      throw new OAuthError(400, 'invalid_grant', 'PKCE code verifier not specified');
    }
    return;
  }
  if (challenge === undefined) {
    throw new OAuthError(
      400,
      'invalid_grant',
      'PKCE code verifier specified but challenge not present in authorization',
    );
  }
  if (!PKCE_VALUE_PATTERN.test(verifier)) {
    throw new OAuthError(400, 'invalid_grant', 'PKCE verification failed: Invalid code verifier');
  }
  if (!verifierMatches(verifier, challenge)) {
    throw new OAuthError(400, 'invalid_grant', 'PKCE verification failed: Code mismatch');
  }
}
