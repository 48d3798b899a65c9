import type { Context } from 'hono';
import { authenticateClient } from './clients.js';
import type { IdpContext } from './context.js';
import { allowOrigin, webOriginAllows } from './cors.js';
import { OAuthError, oauthErrorResponse } from './errors.js';
import { authorizationCodeGrant } from './grants/authorization-code.js';
import { clientCredentialsGrant } from './grants/client-credentials.js';
import { passwordGrant } from './grants/password.js';
import { refreshTokenGrant } from './grants/refresh-token.js';
import type { Client } from './realm.js';
import { clientAddress } from './password-login.js';
import { hasDuplicatedParameter, readForm } from './request-params.js';
import type { TokenResponse } from './tokens.js';

type Grant = (
  ctx: IdpContext,
  client: Client,
  form: URLSearchParams,
  address: string,
) => Promise<TokenResponse>;

export const GRANTS: Readonly<Record<string, Grant>> = {
  authorization_code: authorizationCodeGrant,
  refresh_token: refreshTokenGrant,
  password: passwordGrant,
  client_credentials: clientCredentialsGrant,
};

/** `POST …/protocol/openid-connect/token`, checking in Keycloak's order: grant type, client, parameters. */
export function tokenEndpoint(ctx: IdpContext) {
  return async (c: Context): Promise<Response> => {
    let client: Client | undefined;
    try {
      const form = await readForm(c);
      const grantType = form.get('grant_type');
      if (grantType === null)
        throw new OAuthError(400, 'invalid_request', 'Missing form parameter: grant_type');
      const grant = Object.hasOwn(GRANTS, grantType) ? GRANTS[grantType] : undefined;
      if (!grant) throw new OAuthError(400, 'unsupported_grant_type', 'Unsupported grant_type');
      client = authenticateClient(ctx.realm, c.req.header('Authorization'), form);
      if (hasDuplicatedParameter(form)) throw new OAuthError(400, 'invalid_request', 'duplicated parameter');
      const tokens = await grant(ctx, client, form, clientAddress(c));
      const { webOrigins } = client;
      allowOrigin(c, (origin) => webOriginAllows(webOrigins, origin));
      c.header('Cache-Control', 'no-store');
      c.header('Pragma', 'no-cache');
      return c.json(tokens);
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      // A browser client may read why it failed; before the client is known any origin may.
      const webOrigins = client?.webOrigins;
      allowOrigin(c, (origin) => webOrigins === undefined || webOriginAllows(webOrigins, origin));
      return oauthErrorResponse(c, error);
    }
  };
}
