import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readDevUsers } from './fixture/dev-users.js';
import { startLegacyService } from './server.js';

/** `changed_since` answers from change times kept in the store: they survive a restart. */
describe('registration times', () => {
  let dir = '';
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('are kept with each write, so changed_since answers the same after a restart', async () => {
    dir = await mkdtemp(join(tmpdir(), 'legacy-registration-'));
    const [alice] = readDevUsers();
    const first = await startLegacyService({ dataDir: dir, fsync: false });
    // After the seed, which is registered when the folder is seeded.
    const changedSince = `/api/v1/employee?changed_since=${encodeURIComponent(new Date().toISOString())}`;
    const edit = await fetch(`${first.url}/service/details/edit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'employee',
        uuid: alice!.uuid,
        data: { validity: { from: '2026-02-02' }, nickname_givenname: 'Ali' },
      }),
    });
    expect(edit.status).toBe(200);
    const before = (await (await fetch(`${first.url}${changedSince}`)).json()) as { uuid: string }[];
    await first.close();

    const second = await startLegacyService({ dataDir: dir, fsync: false });
    try {
      const after = (await (await fetch(`${second.url}${changedSince}`)).json()) as { uuid: string }[];
      expect(new Set(after.map((person) => person.uuid))).toEqual(new Set([alice!.uuid]));
      expect(after).toEqual(before);
      // The seed's objects were registered when the folder was seeded, before the edit.
      const seeded = (await (
        await fetch(`${second.url}/api/v1/org_unit?changed_since=1930-01-01`)
      ).json()) as [];
      expect(seeded.length).toBeGreaterThan(0);
    } finally {
      await second.close();
    }
  });
});
