import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calculateJwkThumbprint } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateRsaJwk, KeyStore, KeysFileError } from './keys.js';
import { TestClock } from './test-support.js';

let dir: string;
let clock: TestClock;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'idp-keystore-'));
  clock = new TestClock();
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('key store', () => {
  it('creates an RSA key whose kid is its JWK thumbprint, publishing only public members', async () => {
    const store = await KeyStore.open({ now: clock.now, graceSeconds: 300 });
    const [jwk] = store.jwks().keys;
    expect(Object.keys(jwk!).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
    expect(jwk).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(jwk!.kid).toBe(await calculateJwkThumbprint({ kty: 'RSA', n: jwk!.n!, e: jwk!.e! }, 'sha256'));
    expect(Buffer.from(jwk!.n!, 'base64url').length * 8).toBe(2048);
  });

  it('makes its first key and each rotated-in key with the generator it is given', async () => {
    const made = [await generateRsaJwk(), await generateRsaJwk()];
    const handedOut = [...made];
    const kid = (jwk: (typeof made)[number]) =>
      calculateJwkThumbprint({ kty: 'RSA', n: jwk.n!, e: jwk.e! }, 'sha256');
    const store = await KeyStore.open({
      now: clock.now,
      graceSeconds: 300,
      generateKey: async () => handedOut.shift()!,
    });
    expect(store.active.kid).toBe(await kid(made[0]!));
    const rotation = await store.rotate();
    expect(rotation.kid).toBe(await kid(made[1]!));
    expect(handedOut).toEqual([]);
  });

  it('keeps its keys in the folder, readable only by the owner, and reads them back', async () => {
    const first = await KeyStore.open({ dir, now: clock.now, graceSeconds: 300 });
    const rotation = await first.rotate();
    const mode = (await stat(join(dir, 'keys.json'))).mode & 0o777;
    expect(mode).toBe(0o600);
    const second = await KeyStore.open({ dir, now: clock.now, graceSeconds: 300 });
    expect(second.active.kid).toBe(rotation.kid);
    expect(second.jwks().keys.map((key) => key.kid)).toEqual([rotation.kid, rotation.previousKid]);
  });

  it('drops a rotated-out key once its grace period is over, also across a restart', async () => {
    const store = await KeyStore.open({ dir, now: clock.now, graceSeconds: 300 });
    const rotation = await store.rotate();
    clock.advanceSeconds(301);
    const reopened = await KeyStore.open({ dir, now: clock.now, graceSeconds: 300 });
    expect(reopened.jwks().keys.map((key) => key.kid)).toEqual([rotation.kid]);
    const file = JSON.parse(await readFile(join(dir, 'keys.json'), 'utf8')) as { keys: unknown[] };
    expect(file.keys).toHaveLength(1);
  });

  it('serialises concurrent rotations', async () => {
    const store = await KeyStore.open({ now: clock.now, graceSeconds: 300 });
    const [a, b] = await Promise.all([store.rotate(), store.rotate()]);
    expect(b.previousKid).toBe(a.kid);
    expect(store.jwks().keys).toHaveLength(3);
  });

  it('publishes a rotated-in key at once but signs with it only after the activation delay', async () => {
    const store = await KeyStore.open({ dir, now: clock.now, graceSeconds: 300, activationDelaySeconds: 60 });
    const first = store.active.kid;
    const rotation = await store.rotate();
    expect(rotation.activeFrom).toBe(new Date(clock.ms + 60_000).toISOString());
    expect(rotation.previousPublishedUntil).toBe(new Date(clock.ms + 360_000).toISOString());
    expect(store.active.kid).toBe(first);
    expect(store.jwks().keys.map((key) => key.kid)).toEqual([first, rotation.kid]);

    // A restart keeps the schedule.
    const reopened = await KeyStore.open({
      dir,
      now: clock.now,
      graceSeconds: 300,
      activationDelaySeconds: 60,
    });
    expect(reopened.active.kid).toBe(first);
    clock.advanceSeconds(60);
    expect(reopened.active.kid).toBe(rotation.kid);
    expect(reopened.jwks().keys.map((key) => key.kid)).toEqual([rotation.kid, first]);
    clock.advanceSeconds(300);
    expect(reopened.jwks().keys.map((key) => key.kid)).toEqual([rotation.kid]);
  });

  it('lets the newer of two quick rotations sign, and retires the skipped key with the old one', async () => {
    const store = await KeyStore.open({ now: clock.now, graceSeconds: 300, activationDelaySeconds: 60 });
    const first = store.active.kid;
    const a = await store.rotate();
    clock.advanceSeconds(1);
    const b = await store.rotate();
    expect(b.previousKid).toBe(first);
    expect(b.previousPublishedUntil).toBe(new Date(clock.ms - 1000 + 360_000).toISOString());
    clock.advanceSeconds(60);
    expect(store.active.kid).toBe(b.kid);
    expect(store.jwks().keys.map((key) => key.kid)).toEqual([b.kid, a.kid, first]);
    clock.advanceSeconds(300);
    expect(store.jwks().keys.map((key) => key.kid)).toEqual([b.kid]);
  });

  it('reads a keys file written before delayed activation', async () => {
    const original = await KeyStore.open({ dir, now: clock.now, graceSeconds: 300 });
    const rotation = await original.rotate();
    const path = join(dir, 'keys.json');
    const file = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    delete file['activeFrom'];
    await writeFile(path, JSON.stringify(file));
    const reopened = await KeyStore.open({ dir, now: clock.now, graceSeconds: 300 });
    expect(reopened.active.kid).toBe(rotation.kid);
    expect(reopened.jwks().keys.map((key) => key.kid)).toEqual([rotation.kid, rotation.previousKid]);
  });

  it('refuses a damaged keys file with a message saying what to do', async () => {
    await writeFile(join(dir, 'keys.json'), '{"keys": [{"kty": "RSA"}], "active": "x"}');
    const opening = KeyStore.open({ dir, now: clock.now, graceSeconds: 300 });
    await expect(opening).rejects.toThrow(KeysFileError);
    await expect(KeyStore.open({ dir, now: clock.now, graceSeconds: 300 })).rejects.toThrow(
      /Delete the file to create new keys/,
    );
  });
});
