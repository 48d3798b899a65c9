import { randomBytes } from 'node:crypto';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s256Challenge } from './pkce.js';
import { startIdp, type RunningIdp } from './server.js';

// The browser flow keycloak-js runs, over a real socket: login form, redirect with code, code exchange.

const REDIRECT_URI = 'http://localhost:8080/graphql/v2';

let idp: RunningIdp;
let authUrl: string;
let tokenUrl: string;

beforeAll(async () => {
  idp = await startIdp({ rbacEnabled: true });
  authUrl = `${idp.issuer}/protocol/openid-connect/auth`;
  tokenUrl = `${idp.issuer}/protocol/openid-connect/token`;
});

afterAll(async () => {
  await idp.close();
});

interface LoginAttempt {
  verifier: string;
  nonce: string;
  state: string;
  params: URLSearchParams;
}

function authorizationRequest(overrides: Record<string, string> = {}): LoginAttempt {
  const verifier = randomBytes(48).toString('base64url');
  const nonce = randomBytes(16).toString('hex');
  const state = randomBytes(16).toString('hex');
  const params = new URLSearchParams({
    client_id: 'org-frontend',
    redirect_uri: REDIRECT_URI,
    state,
    response_mode: 'fragment',
    response_type: 'code',
    scope: 'openid',
    nonce,
    code_challenge: s256Challenge(verifier),
    code_challenge_method: 'S256',
    ...overrides,
  });
  return { verifier, nonce, state, params };
}

/** Reads the form's hidden fields back, as a browser submits them. */
function hiddenFields(html: string): URLSearchParams {
  const fields = new URLSearchParams();
  for (const match of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    fields.append(decodeEntities(match[1]!), decodeEntities(match[2]!));
  }
  return fields;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The login cookie the form's page set: the form's token is bound to it. */
const loginCookie = (page: Response) => page.headers.get('set-cookie')?.split(';')[0];

async function submitLogin(form: URLSearchParams, username: string, password: string, cookie?: string) {
  const body = new URLSearchParams(form);
  body.set('username', username);
  body.set('password', password);
  return fetch(authUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(cookie ? { Cookie: cookie } : {}) },
    body,
  });
}

function responseParams(location: string, mode: 'fragment' | 'query'): URLSearchParams {
  const url = new URL(location);
  return new URLSearchParams(mode === 'fragment' ? url.hash.slice(1) : url.search);
}

async function exchange(code: string, verifier: string, redirectUri = REDIRECT_URI) {
  return fetch(tokenUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'http://localhost:8080' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: 'org-frontend',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    }),
  });
}

/** Runs the login up to the redirect, returning the code and the SSO cookie. */
async function logIn(attempt: LoginAttempt, mode: 'fragment' | 'query' = 'fragment') {
  const page = await fetch(`${authUrl}?${attempt.params}`);
  const response = await submitLogin(hiddenFields(await page.text()), 'alice', 'alice', loginCookie(page));
  expect(response.status).toBe(302);
  const location = response.headers.get('location')!;
  const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
  return { location, cookie, params: responseParams(location, mode) };
}

describe('authorization code flow with PKCE', () => {
  it('shows the login form, redirects with a code in the fragment, and exchanges it for tokens', async () => {
    const attempt = authorizationRequest();
    const page = await fetch(`${authUrl}?${attempt.params}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<form method="post"');
    expect(html).toContain('name="username"');
    expect(html).toContain('type="password"');

    const failed = await submitLogin(hiddenFields(html), 'alice', 'not-her-password', loginCookie(page));
    expect(failed.status).toBe(200);
    const failedHtml = await failed.text();
    expect(failedHtml).toContain('Invalid username or password.');
    expect(failedHtml).toContain('value="alice"');

    const response = await submitLogin(hiddenFields(failedHtml), 'alice', 'alice', loginCookie(page));
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.search).toBe('');
    const params = responseParams(location.href, 'fragment');
    expect([...params.keys()]).toEqual(['state', 'session_state', 'iss', 'code']);
    expect(params.get('state')).toBe(attempt.state);
    expect(params.get('iss')).toBe(idp.issuer);

    const tokens = await exchange(params.get('code')!, attempt.verifier);
    expect(tokens.status).toBe(200);
    expect(tokens.headers.get('access-control-allow-origin')).toBe('http://localhost:8080');
    const body = (await tokens.json()) as Record<string, string>;
    expect(body['session_state']).toBe(params.get('session_state'));
    expect(body['scope']).toBe('openid profile email');

    const jwks = createRemoteJWKSet(new URL(idp.jwksUri));
    const idToken = await jwtVerify(body['id_token']!, jwks, {
      issuer: idp.issuer,
      audience: 'org-frontend',
      algorithms: ['RS256'],
    });
    expect(idToken.payload).toMatchObject({
      typ: 'ID',
      nonce: attempt.nonce,
      azp: 'org-frontend',
      preferred_username: 'alice',
    });
    const access = await jwtVerify(body['access_token']!, jwks, {
      issuer: idp.issuer,
      algorithms: ['RS256'],
    });
    expect(access.payload).toMatchObject({
      typ: 'Bearer',
      azp: 'org-frontend',
      realm_access: { roles: ['admin', 'class_admin'] },
    });
  });

  it('puts the code in the query with response_mode=query', async () => {
    const attempt = authorizationRequest({ response_mode: 'query' });
    const { location, params } = await logIn(attempt, 'query');
    expect(new URL(location).hash).toBe('');
    expect(params.get('state')).toBe(attempt.state);
    expect((await exchange(params.get('code')!, attempt.verifier)).status).toBe(200);
  });

  it('refuses a wrong code verifier', async () => {
    const attempt = authorizationRequest();
    const { params } = await logIn(attempt);
    const response = await exchange(params.get('code')!, randomBytes(48).toString('base64url'));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'PKCE verification failed: Code mismatch',
    });
  });

  it('refuses a code used twice', async () => {
    const attempt = authorizationRequest();
    const { params } = await logIn(attempt);
    expect((await exchange(params.get('code')!, attempt.verifier)).status).toBe(200);
    const again = await exchange(params.get('code')!, attempt.verifier);
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ error: 'invalid_grant', error_description: 'Code not valid' });
  });

  it('refuses a token request with another redirect_uri', async () => {
    const attempt = authorizationRequest();
    const { params } = await logIn(attempt);
    const response = await exchange(params.get('code')!, attempt.verifier, 'http://localhost:8080/other');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'Incorrect redirect_uri',
    });
  });

  it('logs in without the form while the SSO cookie is valid, and answers prompt=none without it', async () => {
    const { cookie } = await logIn(authorizationRequest());
    const again = authorizationRequest({ prompt: 'none' });
    const silent = await fetch(`${authUrl}?${again.params}`, {
      redirect: 'manual',
      headers: { Cookie: cookie },
    });
    expect(silent.status).toBe(302);
    const code = responseParams(silent.headers.get('location')!, 'fragment').get('code')!;
    const tokens = (await (await exchange(code, again.verifier)).json()) as Record<string, string>;
    expect(JSON.parse(Buffer.from(tokens['id_token']!.split('.')[1]!, 'base64url').toString())).toMatchObject(
      {
        nonce: again.nonce,
        acr: '0',
      },
    );

    const anonymous = authorizationRequest({ prompt: 'none' });
    const refused = await fetch(`${authUrl}?${anonymous.params}`, { redirect: 'manual' });
    expect(refused.status).toBe(302);
    const params = responseParams(refused.headers.get('location')!, 'fragment');
    expect(params.get('error')).toBe('login_required');
    expect(params.get('state')).toBe(anonymous.state);
  });

  it('refuses plain PKCE and a missing challenge with an error redirect', async () => {
    for (const [overrides, description] of [
      [
        { code_challenge_method: 'plain' },
        'Invalid parameter: code challenge method is not matching the configured one',
      ],
      [{ code_challenge: '' }, 'Invalid parameter: code_challenge'],
    ] as const) {
      const attempt = authorizationRequest(overrides);
      const response = await fetch(`${authUrl}?${attempt.params}`, { redirect: 'manual' });
      expect(response.status).toBe(302);
      const params = responseParams(response.headers.get('location')!, 'fragment');
      expect(params.get('error')).toBe('invalid_request');
      expect(params.get('error_description')).toBe(description);
      expect(params.get('state')).toBe(attempt.state);
    }
    const withoutPkce = authorizationRequest();
    withoutPkce.params.delete('code_challenge');
    withoutPkce.params.delete('code_challenge_method');
    const response = await fetch(`${authUrl}?${withoutPkce.params}`, { redirect: 'manual' });
    expect(responseParams(response.headers.get('location')!, 'fragment').get('error_description')).toBe(
      'Missing parameter: code_challenge_method',
    );
  });

  it('logs out through the browser: the session ends and the browser returns to the gateway', async () => {
    const attempt = authorizationRequest();
    const { params, cookie } = await logIn(attempt);
    const tokens = (await (await exchange(params.get('code')!, attempt.verifier)).json()) as Record<
      string,
      string
    >;

    const logout = new URLSearchParams({
      id_token_hint: tokens['id_token']!,
      post_logout_redirect_uri: 'http://localhost:8080/',
      state: 'after-logout',
    });
    const response = await fetch(`${idp.issuer}/protocol/openid-connect/logout?${logout}`, {
      redirect: 'manual',
      headers: { Cookie: cookie },
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('http://localhost:8080/?state=after-logout');
    expect(response.headers.get('set-cookie')).toMatch(/IDP_SSO=;/);

    const refresh = await fetch(tokenUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: 'org-frontend',
        refresh_token: tokens['refresh_token']!,
      }),
    });
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toEqual({ error: 'invalid_grant', error_description: 'Session not active' });

    const silent = authorizationRequest({ prompt: 'none' });
    const afterLogout = await fetch(`${authUrl}?${silent.params}`, {
      redirect: 'manual',
      headers: { Cookie: cookie },
    });
    expect(responseParams(afterLogout.headers.get('location')!, 'fragment').get('error')).toBe(
      'login_required',
    );
  });
});
