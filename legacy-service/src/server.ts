import { serve, type ServerType } from '@hono/node-server';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createLegacyApp, type LegacyAppOptions } from './app.js';
import { buildOrganisation, defaultFixtureSize, type FixtureSize } from './fixture/organisation.js';
import { orgDataIndexes } from './org-data.js';
import { stampRegistration } from './registration.js';
import { openStore, type Store } from './store/index.js';

export interface LegacyServerOptions extends Omit<LegacyAppOptions, 'store'> {
  dataDir: string;
  host?: string;
  /** 0 lets the OS choose, as tests do. */
  port?: number;
  /** Size of the organisation seeded into an empty data folder. */
  fixture?: FixtureSize;
  /**
   * Whether each transaction waits for the disk (default true). Only a test whose machine does not crash may
   * turn it off; the durability tests keep it.
   */
  fsync?: boolean;
}

export interface LegacyServer {
  url: string;
  port: number;
  store: Store;
  /** The folder `/service/exports/` serves (OS2mo's `QUERY_EXPORT_DIR`). */
  exportDir: string;
  /** Stops serving and closes the store; calling it again waits for the same close. */
  close(): Promise<void>;
}

/** Opens the store (seeding an empty folder) and serves the legacy API until `close()`. */
export async function startLegacyService(options: LegacyServerOptions): Promise<LegacyServer> {
  const {
    dataDir,
    host = '127.0.0.1',
    port = 0,
    fixture = defaultFixtureSize,
    fsync,
    exportDir = join(dataDir, 'exports'),
    ...appOptions
  } = options;
  // The export folder is made when it is the data folder's own; a configured one must exist (else 500, as OS2mo).
  if (options.exportDir === undefined) await mkdir(exportDir, { recursive: true });
  const store = await openStore({
    dir: dataDir,
    fsync,
    indexes: orgDataIndexes,
    seed: () => stampRegistration(buildOrganisation(fixture), new Date()),
  });
  const app = createLegacyApp({ ...appOptions, exportDir, store });
  const server: ServerType = await new Promise((resolve) => {
    const started = serve({ fetch: app.fetch, hostname: host, port }, () => resolve(started));
  });
  const address = server.address() as AddressInfo;
  // Once: a second call (Ctrl+C's SIGINT, then the SIGTERM of `npm start`) waits for the first.
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      if ('closeAllConnections' in server) server.closeAllConnections();
    }).then(() => store.close()));
  return { url: `http://${host}:${address.port}`, port: address.port, store, exportDir, close };
}
