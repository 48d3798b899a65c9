import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED_DIR } from '../idp/src/config.js';
import { createdEmbeddedPostgresDir } from './embedded-postgres-dir.js';
import { freePort, isFree, repoRoot, startEnv, waitForHealth } from './processes.js';

/**
 * `npm start`'s processes (scripts/stack-processes.ts): a gateway that dies is started again while the
 * identity provider and the stand-in keep serving; a stdout without a reader (`npm start | head`) does not
 * stop the script; and a script that dies without a word (SIGKILL) leaves no service running.
 */

/** Polls `condition` every 100 ms until it holds; fails after `timeoutMs`, a bound far above what it takes. */
async function eventually(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs / 1000} s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Whether a process runs (a zombie waiting for its new parent to reap it has exited). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The script's children by what they run (Linux's /proc). */
function services(pid: number): Record<'legacy' | 'idp' | 'gateway', number | undefined> {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/);
  const find = (entry: string) =>
    children.map(Number).find((child) => readFileSync(`/proc/${child}/cmdline`, 'utf8').includes(entry));
  return {
    legacy: find('legacy-service/src/main.ts'),
    idp: find('idp/src/main.ts'),
    gateway: find('gateway/src/main.ts'),
  };
}

let stack: ChildProcess;
let errors = '';
let dataDir: string;
let ports: { legacy: number; idp: number; gateway: number; postgres: number };
const health = () => ({
  legacy: `http://127.0.0.1:${ports.legacy}/health`,
  idp: `http://127.0.0.1:${ports.idp}/health`,
  gateway: `http://127.0.0.1:${ports.gateway}/health/live`,
});

beforeAll(async () => {
  ports = {
    legacy: await freePort(),
    idp: await freePort(),
    gateway: await freePort(),
    postgres: await freePort(),
  };
  dataDir = await mkdtemp(join(tmpdir(), 'start-supervision-'));
  // Not a first start: the embedded database is there already (start-command.test.ts sees one created).
  await createdEmbeddedPostgresDir(join(dataDir, 'gateway-postgres'));
  stack = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: repoRoot,
    env: startEnv({
      LEGACY_PORT: String(ports.legacy),
      IDP_PORT: String(ports.idp),
      GATEWAY_PORT: String(ports.gateway),
      LEGACY_DATA_DIR: dataDir,
      EMBEDDED_POSTGRES_PORT: String(ports.postgres),
      EMBEDDED_POSTGRES_DIR: join(dataDir, 'gateway-postgres'),
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so that the cleanup reaches whatever is left, and nothing else does.
    detached: true,
  });
  stack.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  let banner = '';
  await new Promise<void>((resolve, reject) => {
    stack.stdout!.on('data', (chunk: Buffer) => {
      banner += chunk.toString();
      if (banner.includes('Press Ctrl+C to stop.')) resolve();
    });
    stack.once('exit', (code) => reject(new Error(`npm start exited (${code}): ${errors}`)));
  });
}, 180_000);

afterAll(async () => {
  try {
    process.kill(-stack.pid!, 'SIGKILL');
  } catch {
    // the group is gone already
  }
  await rm(dataDir, { recursive: true, force: true });
  await rm(join(GENERATED_DIR, `idp-${ports.idp}`), { recursive: true, force: true });
});

// One stack's life, in order: the last test kills the script (the others need it running).
describe('npm start keeps its services', { shuffle: false }, () => {
  it('starts a killed gateway again; the identity provider and the stand-in serve throughout', async () => {
    const before = services(stack.pid!);
    process.kill(before.gateway!, 'SIGKILL');
    await eventually('the gateway is back', () => /\[start\] gateway is back/.test(errors));
    expect(errors).toContain('[start] gateway stopped (SIGKILL); starting it again');
    await waitForHealth(health().gateway);
    const after = services(stack.pid!);
    expect(after.gateway).not.toBe(before.gateway);
    expect(after.legacy).toBe(before.legacy);
    expect(after.idp).toBe(before.idp);
    await waitForHealth(health().idp, 1_000);
    await waitForHealth(health().legacy, 1_000);
  }, 120_000);

  it('keeps serving once its stdout has no reader (npm start | head)', async () => {
    // What `head` does once it has its lines: the reading end of the pipe goes away.
    stack.stdout!.destroy();
    const before = services(stack.pid!);
    errors = '';
    // The restarted gateway's "listening on" line is written to the pipe without a reader.
    process.kill(before.gateway!, 'SIGKILL');
    await eventually('the gateway is back', () => /\[start\] gateway is back/.test(errors));
    await waitForHealth(health().gateway);
    expect(stack.exitCode).toBeNull();
    expect(alive(stack.pid!)).toBe(true);
  }, 120_000);

  it('leaves no service running when the script itself is killed', async () => {
    const pids = Object.values(services(stack.pid!)) as number[];
    expect(pids.every((pid) => pid !== undefined && alive(pid))).toBe(true);
    // SIGKILL to the script alone: it has no chance to stop anything; each service notices by itself.
    process.kill(stack.pid!, 'SIGKILL');
    await eventually('every service has exited', () => pids.every((pid) => !alive(pid)));
    expect(await isFree(ports.gateway)).toBe(true);
    expect(await isFree(ports.idp)).toBe(true);
    expect(await isFree(ports.legacy)).toBe(true);
  }, 120_000);
});
