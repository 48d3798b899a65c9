import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { header, passwordTokens, testIdp, verifyWithJwks } from './test-support.js';

const ROTATE = '/auth/realms/org/dev/rotate-keys';

describe('key rotation while running', () => {
  it('signs new tokens with the new key and keeps the old key published for the grace period', async () => {
    const idp = await testIdp({ devEndpoints: true });
    const before = String((await passwordTokens(idp))['access_token']);
    const oldKid = header(before)['kid'];

    const response = await idp.app.request(ROTATE, { method: 'POST' });
    expect(response.status).toBe(200);
    const rotation = (await response.json()) as Record<string, string>;
    expect(rotation['previousKid']).toBe(oldKid);
    expect(rotation['previousPublishedUntil']).toBe(new Date(idp.clock.ms + 300_000).toISOString());

    const after = String((await passwordTokens(idp))['access_token']);
    expect(header(after)['kid']).toBe(rotation['kid']);
    expect(rotation['kid']).not.toBe(oldKid);

    idp.clock.advanceSeconds(299);
    const jwks = await idp.certs();
    expect(jwks.keys.map((key) => key.kid)).toEqual([rotation['kid'], oldKid]);
    await expect(verifyWithJwks(before, jwks, idp.clock.ms)).resolves.toBeDefined();
    await expect(verifyWithJwks(after, jwks, idp.clock.ms)).resolves.toBeDefined();

    idp.clock.advanceSeconds(2);
    const later = await idp.certs();
    expect(later.keys.map((key) => key.kid)).toEqual([rotation['kid']]);
    await expect(verifyWithJwks(before, later, idp.clock.ms - 10_000)).rejects.toThrow();
  });

  it('rotates through the handle as well, and honours a longer grace period', async () => {
    const idp = await testIdp({ keyGraceSeconds: 900 });
    const first = idp.jwks().keys[0]!.kid;
    const rotation = await idp.rotateKeys();
    idp.clock.advanceSeconds(600);
    expect(idp.jwks().keys.map((key) => key.kid)).toEqual([rotation.kid, first]);
    idp.clock.advanceSeconds(301);
    expect(idp.jwks().keys.map((key) => key.kid)).toEqual([rotation.kid]);
  });

  it('has no rotation endpoint unless development endpoints are on', async () => {
    const idp = await testIdp();
    const response = await idp.app.request(ROTATE, { method: 'POST' });
    expect(response.status).toBe(404);
  });
});

describe('persisted keys', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('keep tokens verifying after a restart, including a rotated-out key still in its grace period', async () => {
    dir = await mkdtemp(join(tmpdir(), 'idp-keys-'));
    const first = await testIdp({ keysDir: dir });
    const token = String((await passwordTokens(first))['access_token']);
    await first.rotateKeys();

    const restarted = await testIdp({ keysDir: dir });
    const jwks = await restarted.certs();
    expect(jwks.keys).toHaveLength(2);
    await expect(verifyWithJwks(token, jwks, first.clock.ms)).resolves.toBeDefined();
    expect(header((await passwordTokens(restarted))['access_token'])['kid']).toBe(jwks.keys[0]!.kid);
  });
});
