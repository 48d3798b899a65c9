import { describe, expect, it } from 'vitest';
import { escapeHtml } from './html.js';
import { renderLoginPage } from './login-page.js';
import { devUsers, OIDC, testIdp } from './test-support.js';

const ATTACK = '"><script>alert(1)</script><img src=x onerror=alert(2)>';

function authorize(params: Record<string, string>) {
  return new URLSearchParams({
    client_id: 'org-frontend',
    redirect_uri: 'http://localhost:8080/',
    response_type: 'code',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    ...params,
  });
}

describe('login page', () => {
  it('escapes every value it shows', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
    const html = renderLoginPage({
      realm: 'org',
      action: '/auth/realms/org/protocol/openid-connect/auth',
      hiddenFields: [['state', ATTACK]],
      username: ATTACK,
      error: 'Invalid username or password.',
    });
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain(
      'value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;"',
    );
  });

  it('never reflects request parameters unescaped, on the form or after a failed login', async () => {
    const idp = await testIdp();
    const params = authorize({ state: ATTACK, nonce: ATTACK, login_hint: ATTACK });
    const page = await idp.app.request(`${OIDC}/auth?${params}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');

    const body = new URLSearchParams(params);
    body.set('username', ATTACK);
    body.set('password', 'x');
    const failed = await idp.app.request(`${OIDC}/auth`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect(failed.status).toBe(200);
    const failedHtml = await failed.text();
    expect(failedHtml).toContain('Invalid username or password.');
    expect(failedHtml).not.toContain('<script>');
  });

  it('is plain accessible HTML with no external resources and no scripts', async () => {
    const idp = await testIdp();
    const page = await idp.app.request(`${OIDC}/auth?${authorize({})}`);
    const html = await page.text();
    expect(html).toMatch(/<html lang="en">/);
    expect(html).toContain('<label for="username">');
    expect(html).toContain('<label for="password">');
    expect(html).toContain('autocomplete="current-password"');
    expect(html).not.toMatch(/<script|<link|\bsrc=|https?:\/\/(?!localhost)/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('cache-control')).toBe('no-store');
  });

  it('shows the disabled-account message for a disabled user', async () => {
    const disabled = await testIdp({
      users: devUsers().map((user) => ({ ...user, enabled: user.username !== 'nora' })),
    });
    const body = authorize({});
    body.set('username', 'nora');
    body.set('password', 'nora');
    const response = await disabled.app.request(`${OIDC}/auth`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Account is disabled, contact your administrator.');
  });
});

describe('redirect URI checks', () => {
  const refused = [
    'http://evil.example/',
    'http://localhost:8080.evil.example/',
    'http://localhost:8080@evil.example/',
    'http://localhost:8081/',
    'https://localhost:8080/',
    'http://localhost:8080/#fragment',
    'javascript:alert(1)//localhost:8080/',
    'not a url',
  ];
  for (const redirectUri of refused) {
    it(`shows an error page and never redirects to ${redirectUri}`, async () => {
      const idp = await testIdp();
      const response = await idp.app.request(`${OIDC}/auth?${authorize({ redirect_uri: redirectUri })}`);
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).toContain('Invalid parameter: redirect_uri');
    });
  }

  it('refuses an unregistered redirect URI on the login post too', async () => {
    const idp = await testIdp();
    const body = authorize({ redirect_uri: 'http://evil.example/' });
    body.set('username', 'alice');
    body.set('password', 'alice');
    const response = await idp.app.request(`${OIDC}/auth`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });

  it('answers an unknown client with an error page', async () => {
    const idp = await testIdp();
    const response = await idp.app.request(`${OIDC}/auth?${authorize({ client_id: 'nobody' })}`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('Client not found.');
  });

  it('redirects other errors to a registered redirect URI, as Keycloak does', async () => {
    const idp = await testIdp();
    const response = await idp.app.request(
      `${OIDC}/auth?${authorize({ response_type: 'token', state: 's1' })}`,
    );
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(location.origin).toBe('http://localhost:8080');
    expect(location.searchParams.get('error')).toBe('unsupported_response_type');
    expect(location.searchParams.get('state')).toBe('s1');
    expect(location.searchParams.get('iss')).toBe(idp.issuer);
  });

  it('refuses browser login for the integration client, which has no redirect URIs', async () => {
    const idp = await testIdp();
    const response = await idp.app.request(
      `${OIDC}/auth?${authorize({ client_id: 'integration', redirect_uri: 'http://localhost:8080/' })}`,
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });
});
