import { rmSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLegacyApp } from './app.js';
import type { LegacyAuthConfig } from './config.js';
import { buildOrganisation, defaultFixtureSize } from './fixture/organisation.js';
import { orgDataIndexes } from './org-data.js';
import { stampRegistration } from './registration.js';
import { openStore, type Store } from './store/index.js';
import { snapshotFile } from './store/snapshot.js';

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

const defaultSeed = () => stampRegistration(buildOrganisation(defaultFixtureSize), new Date());

let seededSnapshot: Promise<string> | undefined;

/**
 * The default fixture's snapshot file, seeded once per process: building, seeding and flushing it took
 * about two thirds of opening a test legacy, and the contract test opens one for each of its ~270 writing
 * cases. Every test legacy starts from a copy of it, so each still has a folder and a store of its own.
 * (Its objects are registered when the first test legacy of the process opened, not when each one did.)
 */
function defaultSnapshot(): Promise<string> {
  seededSnapshot ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'legacy-test-seed-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const store = await openStore({ dir, fsync: false, indexes: [], seed: defaultSeed });
    await store.close();
    return join(dir, snapshotFile);
  })();
  return seededSnapshot;
}

/**
 * Seeds an empty data folder with the default fixture, as the legacy service would on its first start, from the
 * process's one seeded snapshot: for tests that start a whole legacy service over the default fixture.
 */
export async function seedDefaultFixture(dir: string): Promise<void> {
  await copyFile(await defaultSnapshot(), join(dir, snapshotFile));
}

/** A legacy app over the default fixture in a fresh temporary folder. */
export async function openTestLegacy(options: TestLegacyOptions = {}): Promise<TestLegacy> {
  const dir = await mkdtemp(join(tmpdir(), 'legacy-test-'));
  await seedDefaultFixture(dir);
  const store = await openStore({
    dir,
    // An API test never crashes the machine under the store: its writes need not wait for the disk
    // (`store/durability` and `store/crash` tests test the fsync'ed journal).
    fsync: false,
    indexes: orgDataIndexes,
    seed: defaultSeed,
  });
  // `/service/exports/` serves this folder; a test puts files in it (or removes it) through `dir`.
  const exportDir = join(dir, 'exports');
  await mkdir(exportDir);
  const app = createLegacyApp({
    store,
    clock: () => testToday,
    auth: options.auth ?? { enabled: false },
    exportDir,
  });
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
