import { appendFile, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from './index.js';
import type { Store } from './index.js';
import { journalText, useScratchFolders } from './scratch-folders.js';

const scratch = useScratchFolders();

async function writePeople(store: Store, from: number, to: number): Promise<void> {
  for (let n = from; n <= to; n += 1) {
    await store.transaction(() => ({
      mutations: [{ collection: 'people', uuid: `p${n}`, value: { uuid: `p${n}`, n } }],
      result: null,
    }));
  }
}

async function folderWithPeople(count: number): Promise<string> {
  const dir = await scratch.folder();
  const store = await scratch.open({ dir });
  await writePeople(store, 1, count);
  await store.close();
  return dir;
}

describe('journal recovery', () => {
  it('ignores and cuts away a torn last line, then keeps appending after it', async () => {
    const dir = await folderWithPeople(3);
    const journalPath = join(dir, 'journal.ndjson');
    const intact = await journalText(dir);
    await appendFile(journalPath, '{"seq":4,"mutations":[{"collection":"people","uuid":"p4","val');

    const reopened = await scratch.open({ dir });

    expect(reopened.sequence).toBe(3);
    expect(reopened.get('people', 'p4')).toBeUndefined();
    expect(await journalText(dir)).toBe(intact);
    await writePeople(reopened, 4, 4);
    await reopened.close();
    const again = await scratch.open({ dir });
    expect(again.sequence).toBe(4);
    expect(again.get('people', 'p4')).toEqual({ uuid: 'p4', n: 4 });
  });

  it('ignores a last line that a crash left as zero bytes', async () => {
    const dir = await folderWithPeople(2);
    await appendFile(join(dir, 'journal.ndjson'), Buffer.alloc(40));

    const reopened = await scratch.open({ dir });

    expect(reopened.count('people')).toBe(2);
    expect((await stat(join(dir, 'journal.ndjson'))).size).toBe((await journalText(dir)).length);
  });

  it('refuses to open when a line before the last is corrupt, naming the file and line', async () => {
    const dir = await folderWithPeople(4);
    const lines = (await journalText(dir)).split('\n');
    lines[1] = '{"seq":2,"mutations":[{"collection":"people",';
    await writeFile(join(dir, 'journal.ndjson'), lines.join('\n'));

    const opening = openStore({ dir });

    await expect(opening).rejects.toMatchObject({ code: 'JOURNAL_CORRUPT' });
    await expect(opening).rejects.toThrow(`Journal ${join(dir, 'journal.ndjson')} is corrupt at line 2`);
    // The failed open released its lock: a second attempt reports the same corruption, not a lock.
    await expect(openStore({ dir })).rejects.toMatchObject({ code: 'JOURNAL_CORRUPT' });
  });

  it('refuses to open when transactions are missing from the journal', async () => {
    const dir = await folderWithPeople(3);
    const lines = (await journalText(dir)).split('\n');
    await writeFile(join(dir, 'journal.ndjson'), [lines[0], lines[2], ''].join('\n'));

    await expect(openStore({ dir })).rejects.toThrow(/line 2 holds transaction 3 but 2 was expected/);
  });
});

describe('large entities', () => {
  it('reads back entities larger than the read buffer, from journal and snapshot', async () => {
    const dir = await scratch.folder();
    const store = await scratch.open({ dir });
    const large = {
      uuid: 'big',
      text: 'é'.repeat(1_500_000),
      list: Array.from({ length: 50_000 }, (_, n) => n),
    };
    await store.transaction(() => ({
      mutations: [{ collection: 'docs', uuid: 'big', value: large }],
      result: null,
    }));
    await writePeople(store, 1, 2);
    await store.close();

    const fromJournal = await scratch.open({ dir });
    expect(fromJournal.get('docs', 'big')).toEqual(large);
    expect(fromJournal.count('people')).toBe(2);
    await fromJournal.compact();
    await fromJournal.close();

    const fromSnapshot = await scratch.open({ dir });
    expect(fromSnapshot.get('docs', 'big')).toEqual(large);
    expect(fromSnapshot.count('people')).toBe(2);
  });
});

describe('recovery from a crash during compaction', () => {
  it('discards a snapshot that was still being written', async () => {
    const dir = await folderWithPeople(3);
    await writeFile(join(dir, 'snapshot-3.ndjson.tmp'), '{"format":1,"seq":3,"entities":3}\n{"collec');

    const reopened = await scratch.open({ dir });

    expect(reopened.count('people')).toBe(3);
    expect(await readdir(dir)).not.toContain('snapshot-3.ndjson.tmp');
  });

  it('skips journal entries the snapshot already holds when the journal was not yet reset', async () => {
    const dir = await scratch.folder();
    const store = await scratch.open({ dir });
    await writePeople(store, 1, 4);
    await store.transaction(() => ({
      mutations: [{ collection: 'people', uuid: 'p2', value: null }],
      result: null,
    }));
    const journalBeforeReset = await journalText(dir);
    await store.compact();
    await store.close();
    // The state a crash leaves between renaming the snapshot and emptying the journal.
    await writeFile(join(dir, 'journal.ndjson'), journalBeforeReset);

    const reopened = await scratch.open({ dir });
    expect(reopened.sequence).toBe(5);
    expect(reopened.count('people')).toBe(3);
    await writePeople(reopened, 6, 6);
    await reopened.close();

    const again = await scratch.open({ dir });
    expect(again.sequence).toBe(6);
    expect(again.count('people')).toBe(4);
    expect(again.get('people', 'p2')).toBeUndefined();
  });

  it('refuses to open a corrupt snapshot, naming the file and line', async () => {
    const dir = await scratch.folder();
    const store = await scratch.open({ dir });
    await writePeople(store, 1, 3);
    await store.compact();
    await store.close();
    const snapshotPath = join(dir, 'snapshot.ndjson');
    const lines = (await readFile(snapshotPath, 'utf8')).split('\n');
    lines[2] = '{"collection":"people","value":{"n":2}}';
    await writeFile(snapshotPath, lines.join('\n'));

    await expect(openStore({ dir })).rejects.toThrow(`Snapshot ${snapshotPath} is corrupt at line 3`);
  });

  it('refuses to open a snapshot that lost entities', async () => {
    const dir = await scratch.folder();
    const store = await scratch.open({ dir });
    await writePeople(store, 1, 3);
    await store.compact();
    await store.close();
    const snapshotPath = join(dir, 'snapshot.ndjson');
    const lines = (await readFile(snapshotPath, 'utf8')).split('\n');
    await writeFile(snapshotPath, lines.slice(0, 3).join('\n') + '\n');

    await expect(openStore({ dir })).rejects.toThrow(/corrupt at line 4 \(expected 3 entities, found 2\)/);
  });
});
