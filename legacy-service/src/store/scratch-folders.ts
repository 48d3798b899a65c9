import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { openStore } from './index.js';
import type { Store, StoreOptions } from './index.js';

/** Test support: temporary data folders and the stores opened on them, closed and removed after each test. */
export function useScratchFolders() {
  const folders: string[] = [];
  const stores: Store[] = [];
  afterEach(async () => {
    await Promise.allSettled(stores.splice(0).map((store) => store.close()));
    await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
  });
  return {
    async folder(): Promise<string> {
      const folder = await mkdtemp(join(tmpdir(), 'legacy-store-'));
      folders.push(folder);
      return folder;
    },
    async open(options: StoreOptions): Promise<Store> {
      const store = await openStore(options);
      stores.push(store);
      return store;
    },
  };
}

export async function journalText(dir: string): Promise<string> {
  return readFile(join(dir, 'journal.ndjson'), 'utf8');
}
