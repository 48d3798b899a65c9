import {
  DEFAULT_DEV_TOOLS_CLIENT_SECRET,
  DEFAULT_INTEGRATION_CLIENT_SECRET,
  DEFAULT_PAYROLL_CLIENT_SECRET,
} from '../idp/src/realm-builder.js';

/**
 * A development user's access token from a running identity provider (`issuer` as in `RunningIdp`), by
 * the password grant: development users' passwords are their names.
 */
export async function accessToken(issuer: string, username: string): Promise<string> {
  const response = await fetch(`${issuer}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: 'org-frontend',
      username,
      password: username,
    }),
  });
  const body = (await response.json()) as { access_token?: string; error_description?: string };
  if (!body.access_token)
    throw new Error(`no token for ${username}: ${body.error_description ?? response.status}`);
  return body.access_token;
}

/** The development realm's confidential clients and their development secrets (`idp/src/realm-builder.ts`). */
const clientSecrets = {
  integration: DEFAULT_INTEGRATION_CLIENT_SECRET,
  payroll: DEFAULT_PAYROLL_CLIENT_SECRET,
  'dev-tools': DEFAULT_DEV_TOOLS_CLIENT_SECRET,
} as const;

export type RealmClient = keyof typeof clientSecrets;

/**
 * A confidential client's access token from a running identity provider (`issuer` as in `RunningIdp`), by the
 * client credentials grant with the client's development secret.
 */
export async function clientToken(issuer: string, client: RealmClient): Promise<string> {
  const response = await fetch(`${issuer}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client,
      client_secret: clientSecrets[client],
    }),
  });
  const body = (await response.json()) as { access_token?: string; error_description?: string };
  if (!body.access_token)
    throw new Error(`no token for ${client}: ${body.error_description ?? response.status}`);
  return body.access_token;
}
