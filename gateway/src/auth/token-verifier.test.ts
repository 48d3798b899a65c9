import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, jwtVerify, SignJWT, type CryptoKey } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTokenVerifier, TokenError } from './token-verifier.js';

// jose's signature check, counted: a cache hit must not check the signature again.
vi.mock('jose', async (importOriginal) => {
  const jose = await importOriginal<typeof import('jose')>();
  return { ...jose, jwtVerify: vi.fn(jose.jwtVerify) };
});
const signatureChecks = vi.mocked(jwtVerify);

/** A JWKS endpoint on loopback. */
let server: Server;
let jwksUrl: URL;
let privateKey: CryptoKey;
const issuer = 'http://idp.test/auth/realms/org';

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  privateKey = pair.privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  jwksUrl = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/certs`);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => vi.useRealTimers());

const sign = (expiresInSeconds: number) =>
  new SignJWT({ typ: 'Bearer', preferred_username: 'alice' })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1', typ: 'JWT' })
    .setIssuer(issuer)
    .setSubject('5b0b8c1e-1111-4c4c-8888-000000000001')
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
    .sign(privateKey);

describe('the verified-token cache', () => {
  it('checks a token’s signature once, then trusts it from the cache', async () => {
    const verifier = createTokenVerifier({ issuer, jwksUrl, clockToleranceSeconds: 0, cooldownMs: 0 });
    const token = await sign(300);
    signatureChecks.mockClear();
    expect((await verifier.verify(token)).username).toBe('alice');
    expect((await verifier.verify(token)).username).toBe('alice');
    expect((await verifier.verify(token)).username).toBe('alice');
    expect(signatureChecks).toHaveBeenCalledTimes(1);
  });

  it('checks every time when the cache is switched off', async () => {
    const verifier = createTokenVerifier({
      issuer,
      jwksUrl,
      clockToleranceSeconds: 0,
      cooldownMs: 0,
      verifiedCacheSize: 0,
    });
    const token = await sign(300);
    signatureChecks.mockClear();
    await verifier.verify(token);
    await verifier.verify(token);
    expect(signatureChecks).toHaveBeenCalledTimes(2);
  });

  it('never trusts an altered copy of a cached token', async () => {
    const verifier = createTokenVerifier({ issuer, jwksUrl, clockToleranceSeconds: 0, cooldownMs: 0 });
    const token = await sign(300);
    await verifier.verify(token);
    signatureChecks.mockClear();
    const [header, payload, signature] = token.split('.');
    const altered = `${header}.${payload}.${signature!.slice(0, -4)}AAAA`;
    await expect(verifier.verify(altered)).rejects.toBeInstanceOf(TokenError);
    expect(signatureChecks).toHaveBeenCalledTimes(1);
  });

  it('stops trusting a cached token once it expires', async () => {
    const verifier = createTokenVerifier({ issuer, jwksUrl, clockToleranceSeconds: 0, cooldownMs: 0 });
    // The clock stands still from the signing on (Date alone is faked): a token that expires in 5 s is
    // still valid at its first check however slowly the machine gets there.
    vi.useFakeTimers({ toFake: ['Date'] });
    const token = await sign(5);
    await verifier.verify(token);
    vi.setSystemTime(Date.now() + 10_000);
    await expect(verifier.verify(token)).rejects.toMatchObject({ failure: { kind: 'unauthenticated' } });
  });
});

describe('who the token is for, and its times', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const signed = (claims: Record<string, unknown>, iat = now(), exp = iat + 300) =>
    new SignJWT({ typ: 'Bearer', azp: 'org-frontend', aud: 'account', ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1', typ: 'JWT' })
      .setIssuer(issuer)
      .setSubject('5b0b8c1e-1111-4c4c-8888-000000000001')
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(privateKey);
  const verifier = (claims?: Parameters<typeof createTokenVerifier>[0]['claims']) =>
    createTokenVerifier({ issuer, jwksUrl, clockToleranceSeconds: 30, cooldownMs: 0, claims });
  const refused = async (token: Promise<string>, reason: RegExp, rules?: Parameters<typeof verifier>[0]) =>
    expect(verifier(rules).verify(await token)).rejects.toMatchObject({
      failure: { kind: 'unauthenticated', reason: expect.stringMatching(reason) },
    });
  const rules = {
    audiences: ['account'],
    allowedClients: ['org-frontend', 'integration'],
    maxLifetimeSeconds: 86_400,
  };

  it('accepts an allowed client and audience, aud as a list, and iat within the leeway', async () => {
    const check = verifier(rules);
    expect((await check.verify(await signed({}))).clientId).toBe('org-frontend');
    expect(
      (await check.verify(await signed({ aud: ['broker', 'account'], azp: 'integration' }))).clientId,
    ).toBe('integration');
    await check.verify(await signed({}, now() + 20));
  });

  it('refuses iat in the future beyond the leeway, and an absurd lifetime, even with no other rules', async () => {
    await refused(signed({}, now() + 120, now() + 420), /issued in the future/);
    await refused(signed({}, now(), now() + 2 * 86_400), /lifetime/);
  });

  it('refuses another client or audience, or none, when configured', async () => {
    await refused(signed({ azp: 'admin-cli' }), /client/, rules);
    await refused(signed({ azp: undefined }), /client/, rules);
    await refused(signed({ aud: 'payroll' }), /not meant for this service/, rules);
    await refused(signed({ aud: undefined }), /not meant for this service/, rules);
  });

  it('checks no client or audience when told any and none', async () => {
    const open = verifier({ audiences: [], allowedClients: 'any', maxLifetimeSeconds: 3_600 });
    await open.verify(await signed({ azp: 'admin-cli', aud: undefined }));
  });
});

describe('a withdrawn signing key', () => {
  it('stops being trusted within IDP_JWKS_MAX_AGE_MS plus the verified-token time (fake clock)', async () => {
    // A JWKS endpoint whose keys the test withdraws.
    const pair = await generateKeyPair('RS256');
    let keys = [{ ...(await exportJWK(pair.publicKey)), kid: 'k2', alg: 'RS256', use: 'sig' }];
    let fetches = 0;
    const jwks = createServer((_req, res) => {
      fetches += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    try {
      const verifier = createTokenVerifier({
        issuer,
        jwksUrl: new URL(`http://127.0.0.1:${(jwks.address() as AddressInfo).port}/certs`),
        clockToleranceSeconds: 0,
        cooldownMs: 30_000,
        maxAgeMs: 600_000,
        verifiedTtlMs: 60_000,
      });
      vi.useFakeTimers({ toFake: ['Date'] });
      const start = Date.now();
      const token = await new SignJWT({ typ: 'Bearer' })
        .setProtectedHeader({ alg: 'RS256', kid: 'k2' })
        .setIssuer(issuer)
        .setSubject('5b0b8c1e-1111-4c4c-8888-000000000002')
        .setIssuedAt()
        .setExpirationTime(Math.floor(start / 1000) + 3_600)
        .sign(pair.privateKey);
      await verifier.verify(token);
      keys = [];

      // Within the bound: the cached key (10 minutes old) and then the verified token (1 minute) still hold.
      vi.setSystemTime(start + 600_000);
      await verifier.verify(token);
      vi.setSystemTime(start + 660_000);
      await verifier.verify(token);
      expect(fetches).toBe(1);
      // Past it, the keys are refetched before use and the withdrawn key is gone.
      vi.setSystemTime(start + 660_001);
      await expect(verifier.verify(token)).rejects.toBeInstanceOf(TokenError);
      expect(fetches).toBe(2);
    } finally {
      await new Promise<void>((resolve) => jwks.close(() => resolve()));
    }
  });
});
