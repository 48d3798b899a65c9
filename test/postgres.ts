import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, readFile, rename, rm, stat } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './processes.js';

const run = promisify(execFile);

/** Debian's PostgreSQL 15 (`apt-get install postgresql`, as `.ci/run` does); `PG_BIN` for another. */
const binaries = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** A real Postgres of a test's own: a fresh cluster in a temporary folder, on a port the OS chose. */
export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:{port}/postgres`: trust authentication on loopback only. */
  url: string;
  port: number;
  /** Stops the server (`SIGKILL` when asked, as a crash would) and leaves the data folder. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** Starts the server again on the same port and data folder, after `stop`. */
  restart(): Promise<void>;
  /** Stops the server and removes its data folder. */
  close(): Promise<void>;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Postgres refuses to run as root. As root the server runs as Debian's `postgres` user (`runuser`), which owns
 * the data folder; as anyone else it runs as that user.
 */
function asServerUser(command: string, args: string[]): [string, string[]] {
  return userInfo().uid === 0
    ? ['runuser', ['-u', 'postgres', '--', `${binaries}/${command}`, ...args]]
    : [`${binaries}/${command}`, args];
}

async function ownedByServerUser(path: string): Promise<void> {
  if (userInfo().uid !== 0) return;
  const { stdout } = await run('id', ['-u', 'postgres']);
  const { stdout: group } = await run('id', ['-g', 'postgres']);
  await chown(path, Number(stdout.trim()), Number(group.trim()));
}

/** Waits until `pg_isready` says the server accepts connections, or the server has exited. */
async function waitUntilReady(port: number, server: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`postgres exited (${server.exitCode}):\n${log()}`);
    try {
      await run(`${binaries}/pg_isready`, [
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
        '-U',
        'postgres',
        '-t',
        '1',
      ]);
      return;
    } catch {
      // not accepting connections yet: pg_isready itself waited up to a second
    }
  }
  throw new Error(`postgres did not accept connections within 30 s:\n${log()}`);
}

const initdbOptions = ['-U', 'postgres', '--auth=trust', '--no-sync', '--encoding=UTF8', '--locale=C'];

/**
 * A cluster as `initdb` leaves it, made once and copied for every test server: `initdb` costs about 0.9 CPU-s,
 * a copy about 0.3. It is kept in the temporary folder under a key of what decides its content (the binaries,
 * their build, the options) and moved into place whole, so a file running beside finds it complete or not at all.
 */
async function freshCluster(): Promise<string> {
  const initdbBinary = `${binaries}/initdb`;
  const key = createHash('sha256')
    .update(JSON.stringify([initdbBinary, (await stat(initdbBinary)).mtimeMs, initdbOptions, userInfo().uid]))
    .digest('hex')
    .slice(0, 16);
  const template = join(tmpdir(), `test-postgres-cluster-${key}`);
  if (existsSync(template)) return join(template, 'data');
  const building = await mkdtemp(`${template}-building-`);
  await ownedByServerUser(building);
  const [initdb, initArgs] = asServerUser('initdb', ['-D', join(building, 'data'), ...initdbOptions]);
  await run(initdb, initArgs);
  // Another file may have moved its own into place first: theirs is the same, and this one goes.
  await rename(building, template).catch(() => rm(building, { recursive: true, force: true }));
  return join(template, 'data');
}

/**
 * Starts Debian's Postgres on a fresh cluster: `initdb`'s output copied into a temporary folder, `postgres` on a loopback port
 * the OS chose, waited for with `pg_isready`. Durability is off (`fsync=off`): no test crashes the machine.
 *
 * @example
 * const postgres = await startTestPostgres();
 * const gateway = await startTestStack({ gatewayEnv: { DATABASE_URL: postgres.url } });
 * await postgres.close();
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  if (!existsSync(`${binaries}/postgres`)) {
    throw new Error(
      `no Postgres in ${binaries}: install Debian's postgresql (as .ci/run does) or set PG_BIN`,
    );
  }
  const folder = await mkdtemp(join(tmpdir(), 'test-postgres-'));
  const data = join(folder, 'data');
  await ownedByServerUser(folder);
  // `cp -a` keeps the server user as the owner (as root) and the folder's 0700 Postgres insists on.
  await run('cp', ['-a', '--reflink=auto', await freshCluster(), data]);
  const port = await freePort();
  let server: ChildProcess;
  let output = '';

  const start = async () => {
    output = '';
    const [postgres, args] = asServerUser('postgres', [
      '-D',
      data,
      '-p',
      String(port),
      '-h',
      '127.0.0.1',
      // The unix socket lives in the test's own folder, never in /var/run/postgresql.
      '-k',
      folder,
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
    ]);
    server = spawn(postgres, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitUntilReady(port, server, () => output);
  };
  const stop = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    // runuser passes the signal on to postgres; SIGKILL cannot be passed on, so it goes to postgres itself.
    if (signal === 'SIGKILL' && userInfo().uid === 0) {
      const { stdout } = await run('pgrep', ['-P', String(server.pid)]).catch(() => ({ stdout: '' }));
      for (const pid of stdout.split('\n').filter(Boolean)) process.kill(Number(pid), 'SIGKILL');
    }
    const postmaster = await readFile(join(data, 'postmaster.pid'), 'utf8').then(
      (text) => Number(text.split('\n')[0]),
      () => undefined,
    );
    server.kill(signal);
    await exited;
    // runuser may exit before the server has: wait for the postmaster itself, so a restart finds it gone.
    while (postmaster !== undefined && isAlive(postmaster))
      await new Promise((resolve) => setTimeout(resolve, 50));
  };

  try {
    await start();
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop,
    restart: start,
    close: async () => {
      await stop();
      await rm(folder, { recursive: true, force: true });
    },
  };
}
