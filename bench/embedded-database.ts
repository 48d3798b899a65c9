import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBackendRecord } from '../gateway/src/backend-record/backend-record.js';
import { createDatabase } from '../gateway/src/database/database.js';
import { createEventStore, moNamespace } from '../gateway/src/events/event-store.js';
import { freePort, startTsProcess } from '../test/processes.js';
import { residentMb } from './proc.js';

/**
 * Issue 36's row for the embedded database of `npm start`: `scripts/embedded-postgres.ts` (PGlite behind its
 * wire-protocol socket) run as `npm start` runs it (`scripts/start.ts`: the same entry, the same node flags), a
 * process apart from the gateway, measured from /proc after its first start, after the gateway's migrations,
 * and after `writes` objects put on record and as many events sent, one statement each, over one connection
 * as the gateway's pool of one does.
 */

export interface EmbeddedDatabaseFigures {
  writes: number;
  /** VmRSS once it listens (a fresh data folder: the database was created by a child that has exited). */
  started_rss_mb: number | null;
  migrated_rss_mb: number | null;
  written_rss_mb: number | null;
  /** VmHWM at the end: the most it held at any point. */
  peak_rss_mb: number | null;
  /** The time the writes took (noisy on a shared machine). */
  writes_seconds: number;
}

/** `scripts/start.ts`'s flags for the embedded database (PGlite's WebAssembly on V8's baseline compiler). */
const embeddedNodeArgs = ['--no-wasm-tier-up', '--liftoff-only'];

export async function measureEmbeddedDatabase(writes = 1_000): Promise<EmbeddedDatabaseFigures> {
  const folder = await mkdtemp(join(tmpdir(), 'bench-embedded-postgres-'));
  const port = await freePort();
  const embedded = await startTsProcess(
    'scripts/embedded-postgres.ts',
    { EMBEDDED_POSTGRES_DIR: join(folder, 'data'), EMBEDDED_POSTGRES_PORT: String(port) },
    /embedded-postgres: listening on (\S+)/,
    300_000,
    embeddedNodeArgs,
  );
  const pid = embedded.child.pid;
  const database = createDatabase({ url: `postgres://postgres@127.0.0.1:${port}/postgres`, poolSize: 1 });
  try {
    const started = await residentMb(pid);
    await database.ready();
    const migrated = await residentMb(pid);
    const record = createBackendRecord({ database });
    const events = createEventStore(database, { retryMinSeconds: 180 });
    const owner = randomUUID();
    await events.declareListener(owner, {
      namespace: moNamespace,
      user_key: 'bench',
      routing_key: 'address',
    });
    const unit = randomUUID();
    const begun = performance.now();
    for (let n = 0; n < writes; n += 1) {
      const uuid = randomUUID();
      await record.note(
        [
          {
            type: 'address',
            uuid,
            owner: { unit },
            validFrom: '2024-01-01',
            validTo: null,
            contentHash: uuid,
            nextBoundary: null,
          },
        ],
        'write',
        { quiet: true },
      );
      await events.add(moNamespace, 'address', [uuid]);
    }
    const writesSeconds = Math.round((performance.now() - begun) / 100) / 10;
    const written = await residentMb(pid);
    return {
      writes,
      started_rss_mb: started?.rss ?? null,
      migrated_rss_mb: migrated?.rss ?? null,
      written_rss_mb: written?.rss ?? null,
      peak_rss_mb: written?.peak ?? null,
      writes_seconds: writesSeconds,
    };
  } finally {
    await database.close();
    await embedded.stop();
    await rm(folder, { recursive: true, force: true });
  }
}
