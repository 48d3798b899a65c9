import { describe, expect, it } from 'vitest';
import { s256Challenge } from './pkce.js';
import {
  claims,
  ISSUER,
  OIDC,
  openLoginForm,
  passwordTokens,
  testIdp,
  type TestIdp,
} from './test-support.js';

// What integrators using real OIDC clients (openid-client, oauth4webapi) met, answered as Keycloak 26 does.

const REDIRECT_URI = 'http://localhost:8080/graphql/v2';
const VERIFIER = 'a'.repeat(43);

function authorize(overrides: Record<string, string> = {}): string {
  return new URLSearchParams({
    client_id: 'org-frontend',
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    state: 'st',
    code_challenge: s256Challenge(VERIFIER),
    code_challenge_method: 'S256',
    ...overrides,
  }).toString();
}

/** Logs alice in through the posted login form and exchanges the code. */
async function codeFlowTokens(idp: TestIdp, scope?: string): Promise<Record<string, unknown>> {
  const { fields, cookie } = await openLoginForm(
    idp,
    new URLSearchParams(authorize(scope === undefined ? {} : { scope })),
  );
  fields.set('username', 'alice');
  fields.set('password', 'alice');
  const login = await idp.app.request(`${OIDC}/auth`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
    body: fields,
  });
  expect(login.status).toBe(302);
  const code = new URL(login.headers.get('location')!).searchParams.get('code')!;
  const response = await idp.token({
    grant_type: 'authorization_code',
    client_id: 'org-frontend',
    code,
    redirect_uri: REDIRECT_URI,
    code_verifier: VERIFIER,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

describe('userinfo needs the openid scope', () => {
  it('answers 403 insufficient_scope with a challenge to a token issued without openid', async () => {
    const idp = await testIdp();
    const tokens = await passwordTokens(idp, 'alice');
    expect(tokens['scope']).toBe('profile email');
    const response = await idp.app.request(`${OIDC}/userinfo`, {
      headers: { Authorization: `Bearer ${String(tokens['access_token'])}` },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer realm="org", error="insufficient_scope", error_description="Missing openid scope"',
    );
    expect(await response.json()).toEqual({
      error: 'insufficient_scope',
      error_description: 'Missing openid scope',
    });
  });

  it('answers a token issued with openid', async () => {
    const idp = await testIdp();
    const tokens = await passwordTokens(idp, 'alice', 'openid');
    const response = await idp.app.request(`${OIDC}/userinfo`, {
      headers: { Authorization: `Bearer ${String(tokens['access_token'])}` },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Record<string, unknown>)['preferred_username']).toBe('alice');
  });
});

describe('the code flow', () => {
  it('does not add openid when it was not asked for: no ID token', async () => {
    const idp = await testIdp();
    const tokens = await codeFlowTokens(idp);
    expect(tokens['scope']).toBe('profile email');
    expect(tokens).not.toHaveProperty('id_token');
    expect(claims(tokens['access_token'])['scope']).toBe('profile email');
  });

  it('issues an ID token when openid is asked for', async () => {
    const idp = await testIdp();
    const tokens = await codeFlowTokens(idp, 'openid');
    expect(tokens['scope']).toBe('openid profile email');
    expect(claims(tokens['id_token'])['typ']).toBe('ID');
  });
});

describe('authorization error redirects carry iss (RFC 9207)', () => {
  it('adds iss to an error redirect, after error, description and state', async () => {
    const idp = await testIdp();
    const response = await idp.app.request(`${OIDC}/auth?${authorize({ scope: 'openid admin' })}`);
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect([...location.searchParams.keys()]).toEqual(['error', 'error_description', 'state', 'iss']);
    expect(location.searchParams.get('error')).toBe('invalid_scope');
    expect(location.searchParams.get('iss')).toBe(ISSUER);
  });

  it('adds iss to login_required for prompt=none, in the fragment too', async () => {
    const idp = await testIdp();
    const response = await idp.app.request(
      `${OIDC}/auth?${authorize({ prompt: 'none', response_mode: 'fragment' })}`,
    );
    expect(response.status).toBe(302);
    const fragment = new URLSearchParams(new URL(response.headers.get('location')!).hash.slice(1));
    expect(fragment.get('error')).toBe('login_required');
    expect(fragment.get('iss')).toBe(ISSUER);
  });

  it('says so in discovery', async () => {
    const idp = await testIdp();
    const document = (await (
      await idp.app.request('/auth/realms/org/.well-known/openid-configuration')
    ).json()) as Record<string, unknown>;
    expect(document['authorization_response_iss_parameter_supported']).toBe(true);
  });
});

describe('tokens name the session in sid (Keycloak 25+)', () => {
  it('puts sid, never session_state, in access, ID and refresh tokens; the token response keeps session_state', async () => {
    const idp = await testIdp();
    const tokens = await passwordTokens(idp, 'alice', 'openid');
    const sessionState = tokens['session_state'];
    expect(sessionState).toEqual(expect.any(String));
    for (const name of ['access_token', 'id_token', 'refresh_token']) {
      const payload = claims(tokens[name]);
      expect(payload['sid']).toBe(sessionState);
      expect(payload).not.toHaveProperty('session_state');
    }
  });
});
