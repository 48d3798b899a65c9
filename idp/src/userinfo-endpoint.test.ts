import { describe, expect, it } from 'vitest';
import { basic, GATEWAY_ORIGIN, INTEGRATION_SECRET, OIDC, passwordTokens, testIdp } from './test-support.js';

describe('userinfo', () => {
  it("answers the bearer's profile claims and the mapped uuid", async () => {
    const idp = await testIdp({ rbacEnabled: true });
    const tokens = await passwordTokens(idp, 'oscar', 'openid');
    const response = await idp.app.request(`${OIDC}/userinfo`, {
      headers: { Authorization: `Bearer ${String(tokens['access_token'])}`, Origin: GATEWAY_ORIGIN },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(GATEWAY_ORIGIN);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({
      sub: expect.any(String),
      email_verified: true,
      name: 'Oscar Olsen',
      preferred_username: 'oscar',
      given_name: 'Oscar',
      family_name: 'Olsen',
      email: 'oscar@example.org',
      uuid: '0dbddb2e-6dd2-4081-bf5a-484b7018914f',
    });
  });

  it('accepts the token as a form parameter on POST', async () => {
    const idp = await testIdp();
    const tokens = await passwordTokens(idp, 'nora', 'openid');
    const response = await idp.app.request(`${OIDC}/userinfo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ access_token: String(tokens['access_token']) }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Record<string, unknown>)['preferred_username']).toBe('nora');
  });

  it('refuses a missing, forged, expired or refresh token with 401 and WWW-Authenticate', async () => {
    const idp = await testIdp();
    const tokens = await passwordTokens(idp);
    const access = String(tokens['access_token']);
    const missing = await idp.app.request(`${OIDC}/userinfo`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({
      error: 'invalid_request',
      error_description: 'Token not provided',
    });

    for (const token of [`${access.slice(0, -4)}AAAA`, String(tokens['refresh_token'])]) {
      const response = await idp.app.request(`${OIDC}/userinfo`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(
        'Bearer realm="org", error="invalid_token", error_description="Token verification failed"',
      );
    }
    idp.clock.advanceSeconds(301);
    const expired = await idp.app.request(`${OIDC}/userinfo`, {
      headers: { Authorization: `Bearer ${access}` },
    });
    expect(expired.status).toBe(401);
  });

  it('answers a service account token', async () => {
    const idp = await testIdp();
    const response = await idp.token(
      { grant_type: 'client_credentials', scope: 'openid' },
      basic('integration', INTEGRATION_SECRET),
    );
    const token = ((await response.json()) as Record<string, string>)['access_token'];
    const info = await idp.app.request(`${OIDC}/userinfo`, { headers: { Authorization: `Bearer ${token}` } });
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({
      preferred_username: 'service-account-integration',
      email_verified: false,
    });
  });
});
