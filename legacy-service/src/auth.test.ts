import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdp, type RunningIdp } from '../../idp/src/server.js';
import { attackerKey, realmSigningKey, sign, type ForgingKey } from '../../test/forge.js';
import { accessToken } from '../../test/idp-tokens.js';
import type { LegacyAuthConfig } from './config.js';
import { readLegacyConfig } from './config.js';
import { openTestLegacy, type TestLegacy } from './testing.js';

let keysDir: string;
let idp: RunningIdp;
let legacy: TestLegacy;
let realmKey: ForgingKey;

const authFor = (issuer: string, jwksUrl: string): LegacyAuthConfig => ({
  enabled: true,
  issuer,
  jwksUrl: new URL(jwksUrl),
  clockToleranceSeconds: 5,
  jwksCooldownMs: 30_000,
});

const now = () => Math.floor(Date.now() / 1000);

const read = (token?: string) =>
  legacy.request('/service/o/', token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });

beforeAll(async () => {
  keysDir = await mkdtemp(join(tmpdir(), 'legacy-auth-keys-'));
  idp = await startIdp({ keysDir });
  legacy = await openTestLegacy({ auth: authFor(idp.issuer, idp.jwksUri) });
  realmKey = await realmSigningKey(keysDir);
});

afterAll(async () => {
  await legacy?.cleanup();
  await idp?.close();
  await rm(keysDir, { recursive: true, force: true });
});

describe('bearer tokens on /service', () => {
  it('refuses an anonymous call with OS2mo 401 body, a bare JSON string', async () => {
    const response = await read();
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(await response.json()).toBe('Not authenticated');
  });

  it('answers a development user with a token from the identity provider', async () => {
    const response = await read(await accessToken(idp.issuer, 'alice'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([expect.objectContaining({ user_key: 'northbay' })]);
  });

  it('keeps /health open', async () => {
    expect((await legacy.request('/health')).status).toBe(200);
  });

  // OS2mo 2.4.0 lists `/version/` among its endpoints without authentication (backend/tests/test_service_auth.py@2.4.0).
  it('keeps /version/ open, answering the release it stands in for', async () => {
    const response = await legacy.request('/version/');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ mo_version: '2.4.0', lora_version: null });
  });

  const refused: [string, () => Promise<string>, RegExp][] = [
    [
      'a token signed by a key the realm never published, under the realm kid',
      async () => sign({ iss: idp.issuer, exp: now() + 300 }, await attackerKey(realmKey.kid)),
      /signature/,
    ],
    [
      'an expired token',
      () => sign({ iss: idp.issuer, exp: now() - 60, iat: now() - 360 }, realmKey),
      /expired/,
    ],
    [
      'a token from another issuer',
      () => sign({ iss: 'http://localhost:1/auth/realms/other', exp: now() + 300 }, realmKey),
      /another identity provider/,
    ],
    [
      'a token without a kid',
      () => sign({ iss: idp.issuer, exp: now() + 300 }, { privateKey: realmKey.privateKey }),
      /kid/,
    ],
    ['a token without exp', () => sign({ iss: idp.issuer }, realmKey), /exp/],
    ['something that is no JWT', () => Promise.resolve('not-a-token'), /not a signed JWT/],
  ];
  it.each(refused)('refuses %s', async (_name, token, message) => {
    const response = await read(await token());
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ status: 'Unauthorized', msg: expect.stringMatching(message) });
  });

  it('refuses writes without a token before reading the body', async () => {
    const before = legacy.store.sequence;
    const response = await legacy.post('/service/ou/create', { name: 'Nope' });
    expect(response.status).toBe(401);
    expect(legacy.store.sequence).toBe(before);
  });
});

describe('the JWKS', () => {
  let server: Server;
  let fetches = 0;
  let key: ForgingKey;
  let jwksUrl: string;

  beforeAll(async () => {
    key = await attackerKey();
    server = createServer((_req, res) => {
      fetches += 1;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [{ ...key.publicJwk, kid: key.kid, alg: 'RS256', use: 'sig' }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/certs`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('is fetched once, and unknown kids cause at most one refetch per cooldown', async () => {
    const isolated = await openTestLegacy({ auth: authFor('https://idp.test/realm', jwksUrl) });
    try {
      const call = (token: string) =>
        isolated.request('/service/o/', { headers: { authorization: `Bearer ${token}` } });
      for (let index = 0; index < 3; index += 1) {
        const token = await sign({ iss: 'https://idp.test/realm', exp: now() + 300, n: index }, key);
        expect((await call(token)).status).toBe(200);
      }
      expect(fetches).toBe(1);
      for (const kid of ['unknown-1', 'unknown-2', 'unknown-3']) {
        const token = await sign({ iss: 'https://idp.test/realm', exp: now() + 300 }, { ...key, kid });
        expect((await call(token)).status).toBe(401);
      }
      expect(fetches).toBeLessThanOrEqual(2);
    } finally {
      await isolated.cleanup();
    }
  });

  it('answers OS2mo server-side 500 while the identity provider cannot be reached', async () => {
    const isolated = await openTestLegacy({
      auth: authFor('https://idp.test/realm', 'http://127.0.0.1:1/certs'),
    });
    try {
      const token = await sign({ iss: 'https://idp.test/realm', exp: now() + 300 }, key);
      const response = await isolated.request('/service/o/', {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ msg: 'A server side authentication error occurred' });
    } finally {
      await isolated.cleanup();
    }
  });
});

describe('configuration', () => {
  it('is on by default, with the issuer and JWKS built like the gateway builds them', () => {
    expect(readLegacyConfig({}).auth).toEqual({
      enabled: true,
      issuer: 'http://localhost:8081/auth/realms/org',
      jwksUrl: new URL('http://localhost:8081/auth/realms/org/protocol/openid-connect/certs'),
      clockToleranceSeconds: 5,
      jwksCooldownMs: 30_000,
    });
  });

  it('turns off with LEGACY_AUTH=off and names a bad value', () => {
    expect(readLegacyConfig({ LEGACY_AUTH: 'off' }).auth).toEqual({ enabled: false });
    expect(() => readLegacyConfig({ LEGACY_AUTH: 'maybe' })).toThrow(/LEGACY_AUTH/);
    expect(() => readLegacyConfig({ IDP_PORT: 'x' })).toThrow(/IDP_PORT/);
    expect(() => readLegacyConfig({ IDP_JWKS_URL: 'nope' })).toThrow(/IDP_JWKS_URL/);
  });
});
