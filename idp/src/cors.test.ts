import { describe, expect, it } from 'vitest';
import { GATEWAY_ORIGIN, OIDC, testIdp } from './test-support.js';

describe('CORS for browser clients', () => {
  it('answers preflights of the token, userinfo and logout endpoints', async () => {
    const idp = await testIdp();
    for (const path of ['token', 'userinfo', 'logout']) {
      const response = await idp.app.request(`${OIDC}/${path}`, {
        method: 'OPTIONS',
        headers: {
          Origin: GATEWAY_ORIGIN,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type, authorization',
        },
      });
      expect(response.status, path).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe(GATEWAY_ORIGIN);
      expect(response.headers.get('access-control-allow-methods')).toContain('POST');
      expect(response.headers.get('access-control-allow-headers')).toMatch(/Content-Type.*Authorization/);
    }
  });

  it("lets the client's web origin read token responses, and no other origin", async () => {
    const idp = await testIdp();
    const request = (origin: string) =>
      idp.token(
        { grant_type: 'password', client_id: 'org-frontend', username: 'alice', password: 'alice' },
        { Origin: origin },
      );
    const allowed = await request(GATEWAY_ORIGIN);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(GATEWAY_ORIGIN);
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');

    const other = await request('http://evil.example');
    expect(other.status).toBe(200);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('follows GATEWAY_PUBLIC_URL for the web origin', async () => {
    const idp = await testIdp({ gatewayPublicUrl: 'https://org.example/gateway/' });
    const response = await idp.token(
      { grant_type: 'password', client_id: 'org-frontend', username: 'alice', password: 'alice' },
      { Origin: 'https://org.example' },
    );
    expect(response.headers.get('access-control-allow-origin')).toBe('https://org.example');
  });
});
