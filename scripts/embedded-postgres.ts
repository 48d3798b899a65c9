import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * The embedded Postgres of `npm start`: PGlite (Postgres compiled to WebAssembly) behind its Postgres
 * wire-protocol socket, so the gateway speaks to it exactly as to a real server (`DATABASE_URL`). Its data
 * lives in `EMBEDDED_POSTGRES_DIR` (default `data/gateway-postgres` in the checkout) and outlives restarts.
 *
 * PGlite is one backend: the socket serves one connection at a time (`maxConnections: 1`), since its
 * multiplexer could interleave two clients' extended-protocol messages; `npm start` gives the gateway a pool of
 * one (`DATABASE_POOL_SIZE=1`). Production points `DATABASE_URL` at a real Postgres instead.
 *
 * Memory: start.ts runs it with `--no-wasm-tier-up --liftoff-only` (PGlite's WebAssembly stays on V8's baseline
 * compiler) and 8 MB of shared buffers: about 125 MB resident against 316 MB with Node's and Postgres's
 * defaults (docs/operations.md, "The embedded database", says how it was measured).
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const dataDir = process.env.EMBEDDED_POSTGRES_DIR || `${root}data/gateway-postgres`;
const port = Number(process.env.EMBEDDED_POSTGRES_PORT || '8083');
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`embedded-postgres: EMBEDDED_POSTGRES_PORT must be a port number, got "${port}"`);
  process.exit(1);
}

// Postgres's default 128 MB of shared buffers is most of PGlite's memory; the gateway's tables are small.
const settings = { postgresqlconf: ['shared_buffers=8MB', 'wal_buffers=256kB'] };

if (process.argv.includes('--create')) {
  // The child below: creates the database and exits.
  await (await PGlite.create({ dataDir, ...settings })).close();
  process.exit(0);
}
if (!existsSync(`${dataDir}/PG_VERSION`)) {
  // PGlite's initdb leaves 500 MB resident in the process that ran it: a child of its own runs it and exits.
  await mkdir(dataDir, { recursive: true });
  console.log(`embedded-postgres: creating the database in ${dataDir}`);
  const created = spawnSync(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), '--create'],
    {
      stdio: 'inherit',
    },
  );
  if (created.status !== 0) {
    console.error(`embedded-postgres: could not create the database in ${dataDir}`);
    process.exit(1);
  }
}
const db = await PGlite.create({ dataDir, ...settings });
const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: 1 });
await server.start();
// start.ts and the tests wait for this line.
console.log(`embedded-postgres: listening on ${server.getServerConn()} (data in ${dataDir})`);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`embedded-postgres: ${signal}, closing the database`);
  await server.stop();
  // Closing writes what PGlite holds in memory to the data folder.
  await db.close();
  process.exit(0);
}
process.once('SIGTERM', () => void stop('SIGTERM'));
process.once('SIGINT', () => void stop('SIGINT'));
