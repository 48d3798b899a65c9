import { describe, expect, it } from 'vitest';
import { escapeHtml } from './html.js';
import { renderLoginPage } from './login-page.js';
import { devUsers, OIDC, openLoginForm, testIdp, type TestIdp } from './test-support.js';

const ATTACK = '"><script>alert(1)</script><img src=x onerror=alert(2)>';

/** Posts the login form for `params` as a browser does: opened first, with its token and cookie. */
async function postLogin(idp: TestIdp, params: URLSearchParams, username: string, password: string) {
  const { fields, cookie } = await openLoginForm(idp, params);
  fields.set('username', username);
  fields.set('password', password);
  return idp.app.request(`${OIDC}/auth`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
    body: fields,
  });
}

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

    const failed = await postLogin(idp, params, ATTACK, 'x');
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
    const response = await postLogin(disabled, authorize({}), 'nora', 'nora');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Account is disabled, contact your administrator.');
  });
});

describe('the login form’s anti-forgery token (issue 20: another site could post the form)', () => {
  const refusal = 'This sign-in was not sent from the sign-in page in this browser';

  it('is in the form and bound to a cookie the form sets', async () => {
    const idp = await testIdp();
    const page = await idp.app.request(`${OIDC}/auth?${authorize({ state: 's1' })}`);
    expect(page.headers.get('set-cookie')).toMatch(
      /^IDP_LOGIN=[A-Za-z0-9_-]{43}; Path=\/auth\/realms\/org\/; HttpOnly; SameSite=Lax$/,
    );
    expect(await page.text()).toMatch(/<input type="hidden" name="login_token" value="[A-Za-z0-9_-]{43}">/);
    expect((await postLogin(idp, authorize({ state: 's1' }), 'alice', 'alice')).status).toBe(302);
  });

  it('refuses a post without the token, without the cookie, with another browser’s or for another request', async () => {
    const idp = await testIdp();
    const mine = await openLoginForm(idp, authorize({ state: 's1' }));
    const theirs = await openLoginForm(idp, authorize({ state: 's1' }));
    const cases: [string, URLSearchParams, string | undefined][] = [
      ['no token (a cross-site form)', authorize({ state: 's1' }), mine.cookie],
      ['no cookie', mine.fields, undefined],
      ['another browser’s cookie', mine.fields, theirs.cookie],
      [
        'another request (state changed)',
        new URLSearchParams({ ...Object.fromEntries(mine.fields), state: 's2' }),
        mine.cookie,
      ],
      [
        'a forged token',
        new URLSearchParams({ ...Object.fromEntries(mine.fields), login_token: 'x'.repeat(43) }),
        mine.cookie,
      ],
    ];
    for (const [name, fields, cookie] of cases) {
      const body = new URLSearchParams(fields);
      body.set('username', 'alice');
      body.set('password', 'alice');
      const response = await idp.app.request(`${OIDC}/auth`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          ...(cookie ? { Cookie: cookie } : {}),
        },
        body,
      });
      expect(response.status, name).toBe(400);
      expect(response.headers.get('location'), name).toBeNull();
      expect(response.headers.get('set-cookie') ?? '', name).not.toContain('IDP_SSO=');
      expect(await response.text(), name).toContain(refusal);
    }
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
