import { describe, expect, it } from 'vitest';
import {
  basic,
  browserLogin,
  formFields,
  GATEWAY_ORIGIN,
  INTEGRATION_SECRET,
  OIDC,
  passwordTokens,
  testIdp,
  type TestIdp,
} from './test-support.js';

const form = (params: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(params),
});

describe('logout', () => {
  it("ends the session with a client's refresh token (back channel): 204, then refresh and userinfo fail", async () => {
    const idp = await testIdp();
    const tokens = await passwordTokens(idp, 'alice', 'openid');
    const response = await idp.app.request(
      `${OIDC}/logout`,
      form(
        { client_id: 'org-frontend', refresh_token: String(tokens['refresh_token']) },
        { Origin: GATEWAY_ORIGIN },
      ),
    );
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(GATEWAY_ORIGIN);

    const refresh = await idp.token({
      grant_type: 'refresh_token',
      client_id: 'org-frontend',
      refresh_token: String(tokens['refresh_token']),
    });
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toEqual({ error: 'invalid_grant', error_description: 'Session not active' });

    const userinfo = await idp.app.request(`${OIDC}/userinfo`, {
      headers: { Authorization: `Bearer ${String(tokens['access_token'])}` },
    });
    expect(userinfo.status).toBe(401);
  });

  it("refuses a back-channel logout with another client's refresh token", async () => {
    const idp = await testIdp();
    const tokens = await passwordTokens(idp);
    const response = await idp.app.request(
      `${OIDC}/logout`,
      form({ refresh_token: String(tokens['refresh_token']) }, basic('integration', INTEGRATION_SECRET)),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as Record<string, string>)['error']).toBe('invalid_grant');
  });

  it('redirects only to a registered post-logout URI of a known client', async () => {
    const idp = await testIdp();
    const allowed = await idp.app.request(
      `${OIDC}/logout?${new URLSearchParams({ client_id: 'org-frontend', post_logout_redirect_uri: 'http://localhost:8080/graphql/v2' })}`,
    );
    expect(allowed.status).toBe(302);
    expect(allowed.headers.get('location')).toBe('http://localhost:8080/graphql/v2');

    const unregistered = await idp.app.request(
      `${OIDC}/logout?${new URLSearchParams({ client_id: 'org-frontend', post_logout_redirect_uri: 'http://evil.example/' })}`,
    );
    expect(unregistered.status).toBe(400);
    expect(unregistered.headers.get('location')).toBeNull();
    expect(await unregistered.text()).toContain('Invalid redirect uri');

    const anonymous = await idp.app.request(
      `${OIDC}/logout?${new URLSearchParams({ post_logout_redirect_uri: 'http://localhost:8080/' })}`,
    );
    expect(anonymous.status).toBe(400);
    expect(await anonymous.text()).toContain('Missing parameters: id_token_hint');
  });

  it('shows a logged-out page without a redirect URI, and refuses a forged id_token_hint', async () => {
    const idp = await testIdp();
    const page = await idp.app.request(`${OIDC}/logout`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('You are logged out.');

    const forged = await idp.app.request(`${OIDC}/logout?id_token_hint=abc.def.ghi`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('Invalid parameter: id_token_hint');
  });
});

describe('logout without an id_token_hint (issue 20: a bare cross-site GET ended the session)', () => {
  const params = { client_id: 'org-frontend', post_logout_redirect_uri: 'http://localhost:8080/graphql/v2' };
  /** Whether the browser's session is still there: a silent authorization gets a code, not login_required. */
  const signedIn = async (idp: TestIdp, cookie: string) => {
    const silent = new URLSearchParams({
      client_id: 'org-frontend',
      redirect_uri: 'http://localhost:8080/graphql/v2',
      response_type: 'code',
      scope: 'openid',
      prompt: 'none',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    const answer = await idp.app.request(`${OIDC}/auth?${silent}`, { headers: { Cookie: cookie } });
    return new URL(answer.headers.get('location')!).searchParams.has('code');
  };

  it('asks to confirm, ends nothing on a GET, and logs out when the page’s own form is posted', async () => {
    const idp = await testIdp();
    const cookie = await browserLogin(idp);
    expect(await signedIn(idp, cookie)).toBe(true);

    const asked = await idp.app.request(`${OIDC}/logout?${new URLSearchParams(params)}`, {
      headers: { Cookie: cookie },
    });
    expect(asked.status).toBe(200);
    expect(asked.headers.get('set-cookie')).toBeNull();
    const html = await asked.text();
    expect(html).toContain('Do you want to log out?');
    expect(html).toContain('<form method="post" action="/auth/realms/org/protocol/openid-connect/logout">');
    expect(await signedIn(idp, cookie)).toBe(true);

    const confirmed = await idp.app.request(`${OIDC}/logout`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
      body: formFields(html),
    });
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get('location')).toBe('http://localhost:8080/graphql/v2');
    expect(confirmed.headers.get('set-cookie')).toMatch(/IDP_SSO=;/);
    expect(await signedIn(idp, cookie)).toBe(false);
  });

  it('refuses a post without the page’s token, or with another session’s, and ends nothing', async () => {
    const idp = await testIdp();
    const cookie = await browserLogin(idp);
    const other = await browserLogin(idp, 'oscar');
    const othersToken = formFields(
      await (await idp.app.request(`${OIDC}/logout`, { headers: { Cookie: other } })).text(),
    ).get('session_code')!;
    for (const token of [undefined, 'forged', othersToken]) {
      const body = new URLSearchParams(params);
      if (token !== undefined) body.set('session_code', token);
      const refused = await idp.app.request(`${OIDC}/logout`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
        body,
      });
      // Without a token it is the question again; with a wrong one, the question with a warning.
      expect(refused.status, String(token)).toBe(token === undefined ? 200 : 400);
      expect(refused.headers.get('location')).toBeNull();
      expect(await refused.text()).toContain('Do you want to log out?');
      expect(await signedIn(idp, cookie), String(token)).toBe(true);
    }
  });
});
