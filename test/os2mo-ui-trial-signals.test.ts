import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED_DIR } from '../idp/src/config.js';
import { contentHash } from '../scripts/os2mo-ui/naldo-build.js';
import { freePort, isFree, repoRoot } from './processes.js';

/**
 * SIGTERM to `npm run os2mo-ui:trial` (a CI job cancelled, a container stopped) stops the stack it started:
 * it left the legacy service, the identity provider, the gateway and the UI's server running. The UI here is
 * a stand-in build (a checkout whose `web/build/index.js` is a small HTTP server), reused as a finished build is.
 */

let work: string;
let trial: ChildProcess;
let output = '';
let ports: Record<string, number>;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'os2mo-ui-trial-signals-'));
  // A checkout: web/package.json and sources; its finished build where the trial looks for one.
  const source = join(work, 'naldo');
  mkdirSync(join(source, 'web', 'src'), { recursive: true });
  writeFileSync(join(source, 'web', 'package.json'), '{"name": "os2mo-naldo-stand-in", "private": true}\n');
  const web = join(work, 'builds', contentHash(join(source, 'web')).slice(0, 16), 'web');
  mkdirSync(join(web, 'build'), { recursive: true });
  mkdirSync(join(web, 'src'), { recursive: true });
  writeFileSync(
    join(web, 'build', 'index.js'),
    "require('node:http').createServer((_, response) => response.end('UI')).listen(Number(process.env.PORT), process.env.HOST);\n",
  );
  ports = {
    OS2MO_UI_PORT: await freePort(),
    OS2MO_UI_APP_PORT: await freePort(),
    GATEWAY_PORT: await freePort(),
    IDP_PORT: await freePort(),
    LEGACY_PORT: await freePort(),
  };
  trial = spawn(process.execPath, ['--import', 'tsx', 'scripts/os2mo-ui-trial.ts', source], {
    cwd: repoRoot,
    env: {
      ...process.env,
      ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
      OS2MO_UI_BUILD_DIR: join(work, 'builds'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own group, so that the cleanup reaches whatever is left, and nothing else does.
    detached: true,
  });
  trial.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    trial.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('The UI and the gateway on')) resolve();
    });
    trial.once('exit', (code) =>
      reject(new Error(`the trial exited (${code}) before its stack was up:\n${output}`)),
    );
  });
}, 240_000);

afterAll(async () => {
  try {
    process.kill(-trial.pid!, 'SIGKILL');
  } catch {
    // the group is gone already
  }
  await rm(work, { recursive: true, force: true });
  await rm(join(GENERATED_DIR, `idp-${ports.IDP_PORT}`), { recursive: true, force: true });
});

describe('SIGTERM to npm run os2mo-ui:trial', () => {
  it('stops its stack and the UI, then exits', async () => {
    const exited = new Promise<number | null>((resolve) => trial.once('exit', resolve));
    process.kill(trial.pid!, 'SIGTERM');
    const code = await exited;
    expect(code, `${trial.signalCode} ${output.slice(-1500)}`).toBe(143);
    for (const [name, port] of Object.entries(ports)) expect(await isFree(port), name).toBe(true);
  }, 120_000);
});
