import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TokenError, type TokenVerifier } from '../auth/token-verifier.js';
import { createLegacyClient, type LegacyClient } from '../legacy/legacy-client.js';
import { json, startStubBackend, type StubBackend } from '../legacy/stub-backend.test-helpers.js';
import { createRbacPolicy } from '../rbac/rbac-policy.js';
import { serviceRoutes } from './service-routes.js';

/** Accepts the token `good` only. */
const verifier: TokenVerifier = {
  verify: async (token) => {
    if (token !== 'good') throw new TokenError({ kind: 'unauthenticated', reason: 'The token has expired.' });
    return {
      subject: 'alice',
      username: 'alice',
      clientId: 'test',
      roles: ['admin'],
      employeeUuid: undefined,
    };
  },
  hasKeys: () => true,
};

let backend: StubBackend;
let legacy: LegacyClient;
const unexpected: unknown[] = [];
const app = () =>
  serviceRoutes({
    legacy,
    verifier,
    realm: 'org',
    publicUrl: 'https://gateway.example',
    maxBodyBytes: 100,
    bodyTimeoutMs: 5_000,
    rbac: createRbacPolicy({ enabled: false }),
    shadow: async (_c, next) => next(),
    logUnexpected: (_c, error) => unexpected.push(error),
  });

beforeAll(async () => {
  backend = await startStubBackend();
  backend.answer((_request, response) => json(response, 200, [{ uuid: 'org' }]));
  legacy = createLegacyClient({
    url: new URL(backend.url),
    connectTimeoutMs: 30_000,
    responseTimeoutMs: 30_000,
    auth: { mode: 'none' },
  });
});
afterAll(async () => {
  await legacy.close();
  await backend.close();
});
beforeEach(() => {
  backend.received.length = 0;
  unexpected.length = 0;
});

describe('serviceRoutes', () => {
  it('passes an authenticated read through to the legacy service', async () => {
    const response = await app().request('/service/o/', { headers: { authorization: 'Bearer good' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([{ uuid: 'org' }]);
    expect(backend.received.map((request) => request.url)).toEqual(['/service/o/']);
  });

  it('refuses a missing or bad token in the legacy body with a challenge, before any legacy call', async () => {
    const missing = await app().request('/service/o/');
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="org"');
    expect(await missing.json()).toEqual({
      error: true,
      status: 401,
      error_key: 'E_UNAUTHORIZED',
      description: 'A bearer token is required: send "Authorization: Bearer <access token>".',
    });
    const expired = await app().request('/service/o/', { headers: { authorization: 'Bearer old' } });
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    expect(await expired.json()).toMatchObject({
      error_key: 'E_UNAUTHORIZED',
      description: 'The token has expired.',
    });
    expect(backend.received).toEqual([]);
  });

  it('refuses a body over the limit with 413 and the limit, after the token and before any legacy call', async () => {
    const body = JSON.stringify({ padding: 'x'.repeat(200) });
    const anonymous = await app().request('/service/details/create', { method: 'POST', body });
    expect(anonymous.status).toBe(401);
    const response = await app().request('/service/details/create', {
      method: 'POST',
      headers: { authorization: 'Bearer good', 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
    expect(await response.json()).toEqual({
      error: true,
      status: 413,
      error_key: 'E_PAYLOAD_TOO_LARGE',
      description: 'The request body exceeds 100 bytes.',
      limit: 100,
    });
    expect(backend.received).toEqual([]);
  });

  it('answers an unexpected failure 500 E_UNKNOWN, and logs it', async () => {
    const failing = serviceRoutes({
      legacy,
      verifier,
      realm: 'org',
      publicUrl: 'https://gateway.example',
      maxBodyBytes: 100,
      bodyTimeoutMs: 5_000,
      rbac: createRbacPolicy({ enabled: false }),
      shadow: async () => {
        throw new Error('the shadow queue is broken at 10.0.0.9');
      },
      logUnexpected: (_c, error) => unexpected.push(error),
    });
    const response = await failing.request('/service/o/', { headers: { authorization: 'Bearer good' } });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      error: true,
      status: 500,
      error_key: 'E_UNKNOWN',
      description: 'An unexpected error occurred.',
    });
    expect(text).not.toContain('10.0.0.9');
    expect(unexpected).toHaveLength(1);
  });
});
