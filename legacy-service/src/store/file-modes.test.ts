import { chmod, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScratchFolders } from './scratch-folders.js';

// Issue 20, item 9: the journal and snapshots hold every CPR number and were created world-readable.

const scratch = useScratchFolders();
const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe.skipIf(process.platform === 'win32')('the data folder’s permissions', () => {
  it('creates the folder 0700 and the journal, snapshot and lock 0600', async () => {
    const dir = join(await scratch.folder(), 'data', 'store');
    const store = await scratch.open({ dir });
    await store.transaction(() => ({
      mutations: [{ collection: 'people', uuid: 'p1', value: { uuid: 'p1', cpr: '0101001234' } }],
      result: undefined,
    }));
    await store.compact();

    expect(await modeOf(dir)).toBe(0o700);
    expect(await modeOf(join(dir, '..'))).toBe(0o700);
    expect((await readdir(dir)).sort()).toEqual(['LOCK', 'journal.ndjson', 'snapshot.ndjson']);
    for (const file of ['LOCK', 'journal.ndjson', 'snapshot.ndjson']) {
      expect(await modeOf(join(dir, file)), file).toBe(0o600);
    }
    await store.close();
  });

  it('makes a journal an older version left readable private when it opens it', async () => {
    const dir = await scratch.folder();
    await writeFile(join(dir, 'journal.ndjson'), '');
    await chmod(join(dir, 'journal.ndjson'), 0o644);
    const store = await scratch.open({ dir });
    expect(await modeOf(join(dir, 'journal.ndjson'))).toBe(0o600);
    await store.close();
  });
});
