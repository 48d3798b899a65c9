import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED_DIR } from '../idp/src/config.js';
import { createdEmbeddedPostgresDir } from './embedded-postgres-dir.js';
import { freePort, isFree, startEnv } from './processes.js';

/**
 * `npm start` stopped as a container runtime or systemd stops it: SIGTERM to the `npm` process alone, not to
 * its process group. The signal has to travel npm → the script's shell → tsx → scripts/start.ts → each
 * service, and every service's port must be free once `npm` has exited.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));

let stack: ChildProcess;
let output = '';
let dataDir: string;
let ports: { legacy: number; idp: number; gateway: number; postgres: number };

beforeAll(async () => {
  ports = {
    legacy: await freePort(),
    idp: await freePort(),
    gateway: await freePort(),
    postgres: await freePort(),
  };
  dataDir = await mkdtemp(join(tmpdir(), 'start-sigterm-'));
  // Not a first start: the embedded database is there already (start-command.test.ts sees one created).
  await createdEmbeddedPostgresDir(join(dataDir, 'gateway-postgres'));
  stack = spawn('npm', ['start'], {
    cwd: ROOT,
    env: startEnv({
      LEGACY_PORT: String(ports.legacy),
      IDP_PORT: String(ports.idp),
      GATEWAY_PORT: String(ports.gateway),
      LEGACY_DATA_DIR: dataDir,
      EMBEDDED_POSTGRES_PORT: String(ports.postgres),
      EMBEDDED_POSTGRES_DIR: join(dataDir, 'gateway-postgres'),
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own group, so that nothing but the test's one signal reaches it, and the cleanup can reach all.
    detached: true,
  });
  stack.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    stack.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Press Ctrl+C to stop.')) resolve();
    });
    stack.once('exit', (code) => reject(new Error(`npm start exited (${code}): ${output}`)));
  });
}, 120_000);

afterAll(async () => {
  // Whatever the test found, nothing it started is left running.
  try {
    process.kill(-stack.pid!, 'SIGKILL');
  } catch {
    // the group is gone already
  }
  await rm(dataDir, { recursive: true, force: true });
  await rm(join(GENERATED_DIR, `idp-${ports.idp}`), { recursive: true, force: true });
});

describe('SIGTERM to npm start', () => {
  it('reaches every service, each drains and exits, and their ports are free once npm has exited', async () => {
    const exited = new Promise<number | null>((resolve) => stack.once('exit', resolve));
    const outputRead = new Promise<void>((resolve) => stack.once('close', () => resolve()));
    process.kill(stack.pid!, 'SIGTERM');
    await exited;
    expect(await isFree(ports.gateway)).toBe(true);
    expect(await isFree(ports.idp)).toBe(true);
    expect(await isFree(ports.legacy)).toBe(true);
    expect(await isFree(ports.postgres)).toBe(true);
    // npm's exit can come before the last lines it passed on are read from the pipe (a loaded machine).
    await outputRead;
    expect(output).toContain('gateway: SIGTERM, finishing in-flight requests');
    expect(output).toContain('embedded-postgres: SIGTERM, closing the database');
  }, 60_000);
});
