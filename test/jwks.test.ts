import { decodeProtectedHeader } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { attackerKey, randomKid, sign, type ForgingKey } from './forge.js';
import type { LoopbackProxy } from './loopback-proxy.js';
import { startTestStack, type TestStack } from './stack.js';

/**
 * How the gateway uses the identity provider's JWKS, counted where the identity provider receives it: a
 * proxy in front of its certs endpoint (the gateway's IDP_JWKS_URL) that tests can also take down.
 */

const certs = /\/protocol\/openid-connect\/certs$/;

async function serviceCall(stack: TestStack, token: string) {
  const response = await fetch(`${stack.gateway.url}/service/o/`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

async function graphqlCall(stack: TestStack, token: string) {
  const response = await fetch(`${stack.gateway.url}/graphql/v2`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ org_units(limit: 1) { objects { uuid } } }' }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

/** Tokens signed by an attacker key under kids nobody published. */
async function unknownKidTokens(stack: TestStack, key: ForgingKey, count: number): Promise<string[]> {
  const claims = {
    iss: stack.idp.issuer,
    sub: randomKid(),
    typ: 'Bearer',
    iat: Math.floor(Date.now() / 1000),
  };
  return Promise.all(
    Array.from({ length: count }, () =>
      sign({ ...claims, exp: claims.iat + 300 }, { ...key, kid: randomKid() }),
    ),
  );
}

// One gateway's key cache through its life, in order: its first fetch, a rotation, then an outage it rides out
// on the keys it has cached (the suite shuffles the rest).
describe('with the identity provider up', { shuffle: false }, () => {
  let stack: TestStack;
  let jwks: LoopbackProxy;
  let firstToken: string;
  beforeAll(async () => {
    stack = await startTestStack({ jwksProxy: true, legacyProxy: true });
    jwks = stack.jwksProxy!;
    firstToken = await stack.token('alice');
  });
  afterAll(() => stack?.close());

  it('fetches the JWKS once for many requests, concurrent and sequential, on both interfaces', async () => {
    expect(jwks.count(certs)).toBe(0);
    const concurrent = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        index % 2 === 0 ? serviceCall(stack, firstToken) : graphqlCall(stack, firstToken),
      ),
    );
    expect(concurrent.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    for (let index = 0; index < 10; index += 1) {
      expect((await serviceCall(stack, await stack.token('nora'))).status).toBe(200);
    }
    expect(jwks.count(certs)).toBe(1);
  });

  it('after a key rotation, refetches exactly once for the new kid, then accepts new and old tokens', async () => {
    const before = jwks.count(certs);
    const rotation = await stack.idp.rotateKeys();
    const rotated = await stack.token('alice');
    expect(decodeProtectedHeader(rotated).kid).toBe(rotation.kid);
    expect(decodeProtectedHeader(firstToken).kid).toBe(rotation.previousKid);

    expect((await graphqlCall(stack, rotated)).status).toBe(200);
    expect(jwks.count(certs)).toBe(before + 1);
    for (const token of [rotated, firstToken, rotated, firstToken]) {
      expect((await serviceCall(stack, token)).status).toBe(200);
      expect((await graphqlCall(stack, token)).status).toBe(200);
    }
    expect(jwks.count(certs)).toBe(before + 1);
  });

  it('keeps accepting tokens with cached keys while the identity provider is down', async () => {
    const token = await stack.token('alice');
    const before = jwks.count(certs);
    jwks.setDown(true);
    try {
      for (let index = 0; index < 5; index += 1) {
        expect((await serviceCall(stack, token)).status).toBe(200);
        expect((await graphqlCall(stack, token)).status).toBe(200);
      }
      // A kid the cache does not know is simply unknown (401), not "identity provider unavailable".
      const [unknown] = await unknownKidTokens(stack, await attackerKey(), 1);
      const refused = await serviceCall(stack, unknown!);
      expect(refused.status).toBe(401);
      expect(refused.body.error_key).toBe('E_UNAUTHORIZED');
    } finally {
      jwks.setDown(false);
    }
    expect(jwks.count(certs)).toBe(before);
  });
});

describe('a flood of unknown kids', () => {
  const cooldownMs = 30_000;
  let stack: TestStack;
  let jwks: LoopbackProxy;
  let evil: ForgingKey;
  beforeAll(async () => {
    stack = await startTestStack({
      jwksProxy: true,
      legacyProxy: true,
      gatewayEnv: { IDP_JWKS_COOLDOWN_MS: String(cooldownMs) },
    });
    jwks = stack.jwksProxy!;
    evil = await attackerKey();
  });
  afterAll(() => stack?.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  async function flood(): Promise<void> {
    const tokens = await unknownKidTokens(stack, evil, 100);
    const concurrent = await Promise.all(tokens.slice(0, 50).map((token) => graphqlCall(stack, token)));
    const sequential = [];
    for (const token of tokens.slice(50)) sequential.push(await serviceCall(stack, token));
    for (const answer of [...concurrent, ...sequential]) {
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer realm="org", error="invalid_token"/);
    }
  }

  it('causes at most one JWKS fetch per cooldown, and nothing reaches the legacy service', async () => {
    expect((await serviceCall(stack, await stack.token('alice'))).status).toBe(200);
    expect(jwks.count(certs)).toBe(1);
    const legacyBefore = stack.legacyProxy!.count();

    await flood();
    expect(jwks.count(certs)).toBe(2);
    await flood();
    expect(jwks.count(certs)).toBe(2);

    // Only the gateway's clock moves past the cooldown (Date alone is faked; servers keep real timers).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + cooldownMs + 1_000);
    await flood();
    expect(jwks.count(certs)).toBe(3);
    await flood();
    expect(jwks.count(certs)).toBe(3);
    expect(stack.legacyProxy!.count()).toBe(legacyBefore);
  });
});

describe('with the identity provider down when the gateway starts', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ jwksProxy: { down: true }, legacyProxy: true });
  });
  afterAll(() => stack?.close());

  it('answers 503 until the identity provider is up, then accepts tokens without a restart', async () => {
    // Tokens come straight from the identity provider; only the gateway's way to its keys is cut.
    const token = await stack.token('alice');
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const service = await serviceCall(stack, token);
      expect(service.status).toBe(503);
      expect(service.headers.get('retry-after')).toBe('5');
      expect(service.body).toEqual({
        error: true,
        status: 503,
        error_key: 'E_AUTH_UNAVAILABLE',
        description: expect.any(String),
      });
      const graphql = await graphqlCall(stack, token);
      expect(graphql.status).toBe(503);
      expect(graphql.body).toEqual({
        errors: [{ message: expect.any(String), extensions: { code: 'AUTH_UNAVAILABLE' } }],
      });
      expect(JSON.stringify([service.body, graphql.body])).not.toContain(stack.jwksProxy!.url);
    }
    expect(stack.legacyProxy!.count()).toBe(0);

    stack.jwksProxy!.setDown(false);
    // No cooldown after a failed first fetch: the very next request recovers.
    expect((await serviceCall(stack, token)).status).toBe(200);
    expect((await graphqlCall(stack, token)).status).toBe(200);
    expect(stack.jwksProxy!.count(certs)).toBe(1);
    expect(stack.legacyProxy!.count()).toBeGreaterThan(0);
  });
});
