import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, jwtVerify, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createJwksCache, JwksUnavailableError } from './jwks-cache.js';

/** A JWKS endpoint on a loopback port whose answer each test sets, counting what it serves. */
let answer: (req: IncomingMessage, res: ServerResponse) => void;
let served: string[];
let baseUrl: string;
const server = createServer((req, res) => {
  served.push(req.url ?? '/');
  answer(req, res);
});

interface Key {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

async function newKey(kid: string): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

const publish = (keys: Key[]) => {
  answer = (_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: keys.map((key) => key.jwk) }));
  };
};

const tokenFrom = (key: Key) =>
  new SignJWT({ sub: 'someone' })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid })
    .setExpirationTime('5m')
    .sign(key.privateKey);

let first: Key;
let second: Key;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  [first, second] = await Promise.all([newKey('first'), newKey('second')]);
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
afterEach(() => {
  vi.useRealTimers();
});

const cacheFor = (options: { cooldownMs?: number; maxAgeMs?: number } = {}) => {
  served = [];
  return createJwksCache({
    url: new URL('/certs', baseUrl),
    cooldownMs: options.cooldownMs ?? 30_000,
    maxAgeMs: options.maxAgeMs ?? 600_000,
    timeoutMs: 2_000,
  });
};

describe('createJwksCache', () => {
  it('does not refetch at once when the first fetch already lacks the kid', async () => {
    publish([first]);
    const cache = cacheFor();
    await expect(jwtVerify(await tokenFrom(second), cache.getKey)).rejects.toThrow(/no applicable key/i);
    expect(served).toHaveLength(1);
  });

  it('refetches keys past their age before using them, once, so a withdrawn key stops verifying at that age', async () => {
    publish([first]);
    const cache = cacheFor({ maxAgeMs: 60_000, cooldownMs: 10_000 });
    const token = await tokenFrom(first);
    vi.useFakeTimers({ toFake: ['Date'] });
    const fetched = Date.now();
    await jwtVerify(token, cache.getKey);
    expect(served).toHaveLength(1);

    publish([second]);
    // At exactly the age the cached key still verifies, with no fetch…
    vi.setSystemTime(fetched + 60_000);
    await jwtVerify(token, cache.getKey);
    expect(served).toHaveLength(1);
    // …one millisecond later both requests wait for one refetch, and the withdrawn key is gone for both.
    vi.setSystemTime(fetched + 60_001);
    const answers = await Promise.allSettled([
      jwtVerify(token, cache.getKey),
      jwtVerify(token, cache.getKey),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(['rejected', 'rejected']);
    expect(served).toHaveLength(2);
    await jwtVerify(await tokenFrom(second), cache.getKey);
    expect(served).toHaveLength(2);
  });

  it('keeps the cached keys when a refresh fails', async () => {
    publish([first]);
    const cache = cacheFor({ maxAgeMs: 60_000, cooldownMs: 10_000 });
    const token = await tokenFrom(first);
    await jwtVerify(token, cache.getKey);

    answer = (_req, res) => {
      res.statusCode = 500;
      res.end('down');
    };
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 61_000);
    // The refetch fails: the identity provider is down, and the cached key keeps verifying.
    await jwtVerify(token, cache.getKey);
    expect(served).toHaveLength(2);
    // Within the cooldown no further refetch is tried.
    await jwtVerify(token, cache.getKey);
    expect(served).toHaveLength(2);
    expect(cache.hasKeys()).toBe(true);
  });

  it.each([
    ['an error status', (_req: IncomingMessage, res: ServerResponse) => res.writeHead(503).end()],
    ['a body that is not JSON', (_req: IncomingMessage, res: ServerResponse) => res.end('<html>')],
    ['JSON that is not a key set', (_req: IncomingMessage, res: ServerResponse) => res.end('{"keys": 1}')],
    [
      'a redirect (never followed)',
      (_req: IncomingMessage, res: ServerResponse) =>
        res.writeHead(302, { location: `${baseUrl}/elsewhere` }).end(),
    ],
  ])(
    'reports the identity provider unavailable on %s, and tries again on the next token',
    async (_name, bad) => {
      answer = bad;
      const cache = cacheFor();
      const token = await tokenFrom(first);
      await expect(jwtVerify(token, cache.getKey)).rejects.toBeInstanceOf(JwksUnavailableError);
      expect(cache.hasKeys()).toBe(false);
      expect(served).toEqual(['/certs']);

      publish([first]);
      await jwtVerify(token, cache.getKey);
      expect(served).toEqual(['/certs', '/certs']);
    },
  );
});
