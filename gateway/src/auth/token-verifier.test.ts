import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTokenVerifier, TokenError } from './token-verifier.js';

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
  it('trusts a token it verified, but never an altered copy of it', async () => {
    const verifier = createTokenVerifier({ issuer, jwksUrl, clockToleranceSeconds: 0, cooldownMs: 0 });
    const token = await sign(300);
    expect((await verifier.verify(token)).username).toBe('alice');
    expect((await verifier.verify(token)).username).toBe('alice');
    const [header, payload, signature] = token.split('.');
    const altered = `${header}.${payload}.${signature!.slice(0, -4)}AAAA`;
    await expect(verifier.verify(altered)).rejects.toBeInstanceOf(TokenError);
  });

  it('stops trusting a cached token once it expires', async () => {
    const verifier = createTokenVerifier({ issuer, jwksUrl, clockToleranceSeconds: 0, cooldownMs: 0 });
    const token = await sign(5);
    await verifier.verify(token);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 10_000);
    await expect(verifier.verify(token)).rejects.toMatchObject({ failure: { kind: 'unauthenticated' } });
  });
});
