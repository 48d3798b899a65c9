import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dataVersionHeader } from './app.js';
import { oscarOwnedUnitUuid } from './fixture/organisation.js';
import { openTestLegacy, type TestLegacy } from './testing.js';

let legacy: TestLegacy;
beforeEach(async () => {
  legacy = await openTestLegacy();
});
afterEach(() => legacy.cleanup());

const versionOf = async (path: string) => (await legacy.request(path)).headers.get(dataVersionHeader);

describe('the data version header', () => {
  it('stays the same between reads and changes with every write', async () => {
    const first = await versionOf('/service/o/');
    expect(first).toMatch(/^[0-9a-f]{8}\.\d+$/);
    expect(await versionOf(`/service/ou/${oscarOwnedUnitUuid}/`)).toBe(first);

    const write = await legacy.post('/service/details/edit', {
      type: 'org_unit',
      data: { uuid: oscarOwnedUnitUuid, name: 'Renamed', validity: { from: '2026-06-01' } },
    });
    expect(write.status).toBe(200);
    const after = await versionOf('/service/o/');
    expect(after).not.toBe(first);
    // The write's own answer names the version it started from, never one it may not have seen.
    expect(write.headers.get(dataVersionHeader)).toBe(first);
  });

  it('is sent on error answers too', async () => {
    expect(await versionOf('/service/ou/00000000-0000-4000-8000-000000000000/')).toMatch(
      /^[0-9a-f]{8}\.\d+$/,
    );
  });
});
