import { jwtVerify, type JWK } from 'jose';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createJwksCache } from '../gateway/src/auth/jwks-cache.js';
import { DEFAULT_KEY_ACTIVATION_DELAY_SECONDS } from '../idp/src/config.js';
import { generateRsaJwk, MAX_PUBLISHED_KEYS } from '../idp/src/keys.js';
import { startIdp, type RunningIdp } from '../idp/src/server.js';

/**
 * Key rotations against the gateway's own JWKS cache, which refetches at most once per cooldown (30 s).
 * Only `Date` is faked, so the identity provider, the cache and jose all see the same moved clock while
 * the requests run over a real socket.
 */

const COOLDOWN_MS = 30_000;
const START = Date.UTC(2030, 0, 1);
// Rotations (seconds from the start), among them two in a row, twice, and one right after a refetch.
const ROTATIONS = [1, 1, 30, 61, 62, 200, 201];
const LAST_SECOND = 330;

/**
 * The signing keys the providers below start with and rotate to, made once for the file: each provider hands
 * them out in order, so its keys differ from each other (at most 10 are published), and no test waits for an
 * RSA key to be made per rotation (0.1–0.3 CPU-s each, 29 of them).
 */
let keys: JWK[];
beforeAll(async () => {
  keys = await Promise.all(Array.from({ length: MAX_PUBLISHED_KEYS }, () => generateRsaJwk()));
});
const keysInTurn = () => {
  let next = 0;
  return async () => keys[next++ % keys.length]!;
};

async function tokenFor(idp: RunningIdp): Promise<string> {
  const response = await fetch(`${idp.issuer}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: 'org-frontend',
      username: 'alice',
      password: 'alice',
    }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Issues a token every second and verifies it as the gateway does; returns the seconds it was refused. */
async function refusedSeconds(keyActivationDelaySeconds: number): Promise<number[]> {
  vi.setSystemTime(START);
  const idp = await startIdp({ devEndpoints: true, keyActivationDelaySeconds, generateKey: keysInTurn() });
  try {
    const cache = createJwksCache({
      url: new URL(idp.jwksUri),
      cooldownMs: COOLDOWN_MS,
      maxAgeMs: 600_000,
      timeoutMs: 5_000,
    });
    const refused: number[] = [];
    for (let second = 0; second <= LAST_SECOND; second += 1) {
      vi.setSystemTime(START + second * 1000);
      for (const _ of ROTATIONS.filter((at) => at === second)) {
        const rotation = await fetch(`${idp.issuer}/dev/rotate-keys`, { method: 'POST' });
        expect(rotation.status).toBe(200);
      }
      try {
        await jwtVerify(await tokenFor(idp), cache.getKey, { issuer: idp.issuer, algorithms: ['RS256'] });
      } catch {
        refused.push(second);
      }
    }
    return refused;
  } finally {
    await idp.close();
  }
}

describe('key rotation and the gateway’s JWKS cooldown', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('never issues a token the gateway cannot verify, with rotations in a row (60 s activation delay)', async () => {
    expect(DEFAULT_KEY_ACTIVATION_DELAY_SECONDS * 1000).toBeGreaterThan(COOLDOWN_MS);
    expect(await refusedSeconds(DEFAULT_KEY_ACTIVATION_DELAY_SECONDS)).toEqual([]);
  });

  it('shows the failure it prevents: signing at once, two rotations in a row make new tokens fail', async () => {
    const refused = await refusedSeconds(0);
    expect(refused.length).toBeGreaterThan(0);
  });
});

describe('the rotation endpoint', () => {
  it('publishes the new key at once and signs with it only after the delay', async () => {
    const idp = await startIdp({
      devEndpoints: true,
      keyActivationDelaySeconds: 60,
      generateKey: keysInTurn(),
    });
    try {
      const before = await tokenFor(idp);
      const asked = Date.now();
      const response = await fetch(`${idp.issuer}/dev/rotate-keys`, { method: 'POST' });
      const rotation = (await response.json()) as Record<string, string>;
      const jwks = (await (await fetch(idp.jwksUri)).json()) as { keys: Array<{ kid: string }> };
      expect(jwks.keys.map((key) => key.kid)).toEqual([rotation['previousKid'], rotation['kid']]);
      const kid = (token: string) =>
        (JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as { kid: string }).kid;
      expect(kid(await tokenFor(idp))).toBe(kid(before));
      // The delay is counted from the rotation, which happened after it was asked for: not a speed, a bound.
      // `activeFrom` is written to the second, so the bound is the second the rotation was asked in.
      expect(Date.parse(rotation['activeFrom']!)).toBeGreaterThanOrEqual(
        Math.floor(asked / 1000) * 1000 + 60_000,
      );
    } finally {
      await idp.close();
    }
  });

  it('does not exist unless development endpoints are turned on', async () => {
    const idp = await startIdp({ generateKey: keysInTurn() });
    try {
      const response = await fetch(`${idp.issuer}/dev/rotate-keys`, { method: 'POST' });
      expect(response.status).toBe(404);
    } finally {
      await idp.close();
    }
  });

  it('refuses to grow the JWKS past 10 keys (429)', async () => {
    const idp = await startIdp({
      devEndpoints: true,
      keyActivationDelaySeconds: 60,
      generateKey: keysInTurn(),
    });
    try {
      const statuses: number[] = [];
      for (let index = 0; index < 10; index += 1) {
        statuses.push((await fetch(`${idp.issuer}/dev/rotate-keys`, { method: 'POST' })).status);
      }
      expect(statuses).toEqual([...Array(9).fill(200), 429]);
      const jwks = (await (await fetch(idp.jwksUri)).json()) as { keys: unknown[] };
      expect(jwks.keys).toHaveLength(10);
    } finally {
      await idp.close();
    }
  });
});
