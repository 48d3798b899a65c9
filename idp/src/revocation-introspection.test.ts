import { describe, expect, it } from 'vitest';
import {
  basic,
  GATEWAY_ORIGIN,
  INTEGRATION_SECRET,
  ISSUER,
  OIDC,
  passwordTokens,
  testIdp,
  type TestIdp,
} from './test-support.js';

// RFC 7009 revocation and RFC 7662 introspection, answered as Keycloak 26 answers them.

const INTEGRATION = basic('integration', INTEGRATION_SECRET);

function post(
  idp: TestIdp,
  path: string,
  params: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return idp.app.request(`${OIDC}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(params),
  });
}

async function introspect(idp: TestIdp, token: string, extra: Record<string, string> = {}) {
  const response = await post(idp, '/token/introspect', { token, ...extra }, INTEGRATION);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

describe('discovery', () => {
  it('lists both endpoints and their client authentication methods', async () => {
    const idp = await testIdp();
    const document = (await (
      await idp.app.request('/auth/realms/org/.well-known/openid-configuration')
    ).json()) as Record<string, unknown>;
    expect(document).toMatchObject({
      introspection_endpoint: `${ISSUER}/protocol/openid-connect/token/introspect`,
      revocation_endpoint: `${ISSUER}/protocol/openid-connect/revoke`,
      introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    });
  });
});

describe('introspection', () => {
  it('answers an active user token with its claims, client_id, username and token_type', async () => {
    const idp = await testIdp();
    const tokens = await passwordTokens(idp, 'oscar');
    const body = await introspect(idp, String(tokens['access_token']));
    expect(body).toMatchObject({
      active: true,
      client_id: 'org-frontend',
      username: 'oscar',
      token_type: 'Bearer',
      iss: ISSUER,
      azp: 'org-frontend',
      preferred_username: 'oscar',
      sid: tokens['session_state'],
    });
  });

  it('recognises a refresh token, with or without the hint', async () => {
    const idp = await testIdp();
    const tokens = await passwordTokens(idp);
    const refresh = String(tokens['refresh_token']);
    expect((await introspect(idp, refresh, { token_type_hint: 'refresh_token' }))['active']).toBe(true);
    expect((await introspect(idp, refresh))['typ']).toBe('Refresh');
  });

  it('answers only {"active": false} for a forged, expired or unknown token', async () => {
    const idp = await testIdp();
    const access = String((await passwordTokens(idp))['access_token']);
    expect(await introspect(idp, `${access.slice(0, -4)}AAAA`)).toEqual({ active: false });
    expect(await introspect(idp, 'not-a-token')).toEqual({ active: false });
    idp.clock.advanceSeconds(301);
    expect(await introspect(idp, access)).toEqual({ active: false });
  });

  it('needs an authenticated confidential client', async () => {
    const idp = await testIdp();
    const access = String((await passwordTokens(idp))['access_token']);
    const anonymous = await post(idp, '/token/introspect', { token: access });
    expect(anonymous.status).toBe(400);
    expect(await anonymous.json()).toEqual({
      error: 'invalid_client',
      error_description: 'Missing client_id parameter',
    });
    const wrongSecret = await post(idp, '/token/introspect', { token: access }, basic('integration', 'nope'));
    expect(wrongSecret.status).toBe(401);
    const publicClient = await post(idp, '/token/introspect', { token: access, client_id: 'org-frontend' });
    expect(publicClient.status).toBe(403);
    expect(await publicClient.json()).toEqual({
      error: 'invalid_request',
      error_description: 'Client not allowed.',
    });
  });

  it('refuses a missing token and an unknown hint', async () => {
    const idp = await testIdp();
    const missing = await post(idp, '/token/introspect', {}, INTEGRATION);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      error: 'invalid_request',
      error_description: 'Token not provided.',
    });
    const hint = await post(
      idp,
      '/token/introspect',
      { token: 'x', token_type_hint: 'id_token' },
      INTEGRATION,
    );
    expect(hint.status).toBe(400);
    expect(await hint.json()).toEqual({
      error: 'invalid_request',
      error_description: 'Unsupported token type [id_token].',
    });
  });

  it('answers 405 to GET', async () => {
    const idp = await testIdp();
    expect((await idp.app.request(`${OIDC}/token/introspect`)).status).toBe(405);
  });
});

describe('revocation', () => {
  it('revokes an access token: introspection says inactive and userinfo refuses it; the session lives on', async () => {
    const idp = await testIdp();
    const tokens = await passwordTokens(idp, 'alice', 'openid');
    const access = String(tokens['access_token']);
    const response = await post(
      idp,
      '/revoke',
      { token: access, client_id: 'org-frontend' },
      { Origin: GATEWAY_ORIGIN },
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
    expect(response.headers.get('access-control-allow-origin')).toBe(GATEWAY_ORIGIN);

    expect(await introspect(idp, access)).toEqual({ active: false });
    const userinfo = await idp.app.request(`${OIDC}/userinfo`, {
      headers: { Authorization: `Bearer ${access}` },
    });
    expect(userinfo.status).toBe(401);
    expect((await introspect(idp, String(tokens['refresh_token'])))['active']).toBe(true);
  });

  it("revokes a refresh token: the client's session ends, refresh fails and its access tokens go inactive", async () => {
    const idp = await testIdp();
    const tokens = await passwordTokens(idp);
    const refresh = String(tokens['refresh_token']);
    const response = await post(idp, '/revoke', {
      token: refresh,
      token_type_hint: 'refresh_token',
      client_id: 'org-frontend',
    });
    expect(response.status).toBe(200);
    const again = await idp.token({
      grant_type: 'refresh_token',
      client_id: 'org-frontend',
      refresh_token: refresh,
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ error: 'invalid_grant', error_description: 'Session not active' });
    expect(await introspect(idp, String(tokens['access_token']))).toEqual({ active: false });
  });

  it("revokes a service account's access token", async () => {
    const idp = await testIdp();
    const issued = await idp.token({ grant_type: 'client_credentials' }, INTEGRATION);
    const access = String(((await issued.json()) as Record<string, unknown>)['access_token']);
    expect((await introspect(idp, access))['active']).toBe(true);
    expect((await post(idp, '/revoke', { token: access }, INTEGRATION)).status).toBe(200);
    expect(await introspect(idp, access)).toEqual({ active: false });
  });

  it("refuses another client's token, and answers an unreadable token with 200 invalid_token, as Keycloak does", async () => {
    const idp = await testIdp();
    const access = String((await passwordTokens(idp))['access_token']);
    const other = await post(idp, '/revoke', { token: access }, INTEGRATION);
    expect(other.status).toBe(400);
    expect(await other.json()).toEqual({ error: 'invalid_request', error_description: 'Unmatching clients' });
    expect((await introspect(idp, access))['active']).toBe(true);

    const unreadable = await post(idp, '/revoke', { token: 'garbage', client_id: 'org-frontend' });
    expect(unreadable.status).toBe(200);
    expect(await unreadable.json()).toEqual({ error: 'invalid_token', error_description: 'Invalid token' });
  });

  it('refuses a missing token and an ID token', async () => {
    const idp = await testIdp();
    const missing = await post(idp, '/revoke', { client_id: 'org-frontend' });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      error: 'invalid_request',
      error_description: 'Token not provided',
    });
    const idToken = String((await passwordTokens(idp, 'alice', 'openid'))['id_token']);
    const id = await post(idp, '/revoke', { token: idToken, client_id: 'org-frontend' });
    expect(id.status).toBe(400);
    expect(await id.json()).toEqual({
      error: 'unsupported_token_type',
      error_description: 'Unsupported token type',
    });
  });
});
