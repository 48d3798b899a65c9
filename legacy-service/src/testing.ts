import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLegacyApp } from './app.js';
import type { LegacyAuthConfig } from './config.js';
import { buildOrganisation, defaultFixtureSize } from './fixture/organisation.js';
import { orgDataIndexes } from './org-data.js';
import { stampRegistration } from './registration.js';
import { openStore, type Store } from './store/index.js';

/** The date tests read "today" as, so results do not drift with the calendar. */
export const testToday = new Date('2026-06-01T12:00:00Z');

export interface TestLegacy {
  app: ReturnType<typeof createLegacyApp>;
  store: Store;
  dir: string;
  request(path: string, init?: RequestInit): Promise<Response>;
  post(path: string, body: unknown): Promise<Response>;
  cleanup(): Promise<void>;
}

export interface TestLegacyOptions {
  /** Default off: most tests are about the API, not the token check (see `auth.test.ts`). */
  auth?: LegacyAuthConfig;
}

/** A legacy app over the default fixture in a fresh temporary folder. */
export async function openTestLegacy(options: TestLegacyOptions = {}): Promise<TestLegacy> {
  const dir = await mkdtemp(join(tmpdir(), 'legacy-test-'));
  const store = await openStore({
    dir,
    // An API test never crashes the machine under the store: its writes need not wait for the disk
    // (`store/durability` and `store/crash` tests test the fsync'ed journal).
    fsync: false,
    indexes: orgDataIndexes,
    seed: () => stampRegistration(buildOrganisation(defaultFixtureSize), new Date()),
  });
  const app = createLegacyApp({ store, clock: () => testToday, auth: options.auth ?? { enabled: false } });
  const request = (path: string, init?: RequestInit) => Promise.resolve(app.request(path, init));
  return {
    app,
    store,
    dir,
    request,
    post: (path, body) =>
      request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    cleanup: async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
