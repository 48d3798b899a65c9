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
