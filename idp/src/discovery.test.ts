import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdp, type RunningIdp } from './server.js';

let idp: RunningIdp;

beforeAll(async () => {
  idp = await startIdp({ rbacEnabled: true });
});

afterAll(async () => {
  await idp.close();
});

async function discovery(): Promise<Record<string, unknown>> {
  const response = await fetch(`${idp.issuer}/.well-known/openid-configuration`);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

describe('discovery', () => {
  it("lists Keycloak's endpoints under the realm's issuer", async () => {
    const document = await discovery();
    const oidc = `${idp.url}/auth/realms/org/protocol/openid-connect`;
    expect(document).toMatchObject({
      issuer: `${idp.url}/auth/realms/org`,
      authorization_endpoint: `${oidc}/auth`,
      token_endpoint: `${oidc}/token`,
      userinfo_endpoint: `${oidc}/userinfo`,
      end_session_endpoint: `${oidc}/logout`,
      jwks_uri: `${oidc}/certs`,
      grant_types_supported: ['authorization_code', 'refresh_token', 'password', 'client_credentials'],
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      id_token_signing_alg_values_supported: ['RS256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    });
    expect(document['claims_supported']).toContain('uuid');
  });

  it('every endpoint it lists answers', async () => {
    const document = await discovery();
    const endpoints = Object.entries(document).filter(
      ([name, value]) => (name.endsWith('_endpoint') || name === 'jwks_uri') && typeof value === 'string',
    );
    expect(endpoints.map(([name]) => name).sort()).toEqual([
      'authorization_endpoint',
      'end_session_endpoint',
      'introspection_endpoint',
      'jwks_uri',
      'revocation_endpoint',
      'token_endpoint',
      'userinfo_endpoint',
    ]);
    for (const [name, url] of endpoints) {
      const response = await fetch(String(url), { redirect: 'manual' });
      expect(response.status, name).not.toBe(404);
      expect(response.status, name).toBeLessThan(500);
    }
  });

  it('publishes a JWKS that verifies a password-grant token with RS256 and the issuer', async () => {
    const document = await discovery();
    const response = await fetch(String(document['token_endpoint']), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'password',
        client_id: 'org-frontend',
        username: 'oscar',
        password: 'oscar',
      }),
    });
    const tokens = (await response.json()) as Record<string, string>;
    const jwks = createRemoteJWKSet(new URL(String(document['jwks_uri'])));
    const { payload, protectedHeader } = await jwtVerify(tokens['access_token']!, jwks, {
      issuer: String(document['issuer']),
      algorithms: ['RS256'],
    });
    expect(protectedHeader.typ).toBe('JWT');
    expect(payload).toMatchObject({
      preferred_username: 'oscar',
      uuid: '0dbddb2e-6dd2-4081-bf5a-484b7018914f',
    });
  });

  it("answers Keycloak's realm summary, usable as a health check, and /health", async () => {
    const realm = await fetch(`${idp.url}/auth/realms/org`);
    expect(realm.status).toBe(200);
    const body = (await realm.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual([
      'realm',
      'public_key',
      'token-service',
      'account-service',
      'tokens-not-before',
    ]);
    expect(body['token-service']).toBe(`${idp.issuer}/protocol/openid-connect`);
    expect(String(body['public_key'])).toMatch(/^MII[A-Za-z0-9+/=]+$/);
    expect(await (await fetch(`${idp.url}/health`)).json()).toEqual({ status: 'UP' });
  });

  it('lets any origin read the discovery document and the JWKS', async () => {
    const response = await fetch(`${idp.issuer}/protocol/openid-connect/certs`, {
      headers: { Origin: 'http://elsewhere.example' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBe('http://elsewhere.example');
  });

  it('answers keycloak-js\'s third-party cookie check with "unsupported"', async () => {
    const response = await fetch(`${idp.issuer}/protocol/openid-connect/3p-cookies/step1.html`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('postMessage("unsupported", "*")');
    expect(response.headers.get('content-security-policy')).toMatch(/script-src 'sha256-/);
  });
});
