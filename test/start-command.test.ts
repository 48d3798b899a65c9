import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCompareCommand } from '../gateway/src/comparison/cli/compare-command.js';
import type { UsageReport } from '../gateway/src/comparison/retirement/usage-report.js';
import { GENERATED_DIR } from '../idp/src/config.js';
import { referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { accessToken } from './idp-tokens.js';
import { freePort, startEnv } from './processes.js';

/**
 * `npm start` on ports other than the defaults, used as a newcomer would: copy the printed token command
 * and the printed /metrics command, and run them.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));

let stack: ChildProcess;
let banner = '';
let errors = '';
let dataDir: string;
let ports: { legacy: number; idp: number; gateway: number; postgres: number };

beforeAll(async () => {
  ports = {
    legacy: await freePort(),
    idp: await freePort(),
    gateway: await freePort(),
    postgres: await freePort(),
  };
  dataDir = await mkdtemp(join(tmpdir(), 'start-command-'));
  stack = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
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
    // Its own process group, so the last test can press Ctrl+C: the terminal signals the whole group.
    detached: true,
  });
  stack.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    stack.stdout!.on('data', (chunk: Buffer) => {
      banner += chunk.toString();
      if (banner.includes('Press Ctrl+C to stop.')) resolve();
    });
    stack.once('exit', (code) => reject(new Error(`npm start exited (${code}): ${errors}`)));
  });
}, 120_000);

afterAll(async () => {
  if (stack && stack.exitCode === null) {
    const exited = new Promise((resolve) => stack.once('exit', resolve));
    stack.kill('SIGTERM');
    await exited;
  }
  await rm(dataDir, { recursive: true, force: true });
  await rm(join(GENERATED_DIR, `idp-${ports.idp}`), { recursive: true, force: true });
});

function printedLine(pattern: RegExp): string {
  const line = banner.split('\n').find((candidate) => pattern.test(candidate.trim()));
  if (!line) throw new Error(`no line matching ${pattern} in:\n${banner}`);
  return line.trim();
}

function shell(
  command: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-ec', command], {
      cwd: ROOT,
      env: startEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

// One stack's life, in order: the last test stops it as a terminal's Ctrl+C does (the others need it running).
describe('npm start', { shuffle: false }, () => {
  describe('npm start on other ports', () => {
    it('prints a token command that reaches its own identity provider, and the token works at its gateway', async () => {
      const command = printedLine(/^TOKEN=\$\(npm run --silent token -- alice/);
      expect(command).toContain(`--idp http://localhost:${ports.idp}`);
      const run = await shell(`${command} && printf '%s' "$TOKEN"`);
      expect(run.code).toBe(0);
      const token = run.stdout.trim();
      expect(decodeJwt(token)['iss']).toBe(`http://localhost:${ports.idp}/auth/realms/org`);
      const response = await fetch(`http://127.0.0.1:${ports.gateway}/service/o/`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(200);
    });

    it('serves /metrics with a development token and prints how to scrape it', async () => {
      const command = printedLine(/^curl -s \S+\/metrics /);
      const match = /^curl -s (\S+) -H "Authorization: Bearer ([^"]+)"$/.exec(command);
      expect(match).not.toBeNull();
      const [, url, token] = match!;
      expect(url).toBe(`http://localhost:${ports.gateway}/metrics`);
      const response = await fetch(url!.replace('localhost', '127.0.0.1'), {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('# HELP');
      expect((await fetch(`http://127.0.0.1:${ports.gateway}/metrics`)).status).not.toBe(200);
    });

    it('reports the gateway ready and prints a reference query that works over the stand-in', async () => {
      expect(banner).toContain('gateway ready');
      expect(banner).toContain(`legacy (internal)     http://127.0.0.1:${ports.legacy}/service/`);
      // alice's token as the printed token command gets it (the first test runs that command itself).
      const token = await accessToken(`http://127.0.0.1:${ports.idp}/auth/realms/org`, 'alice');
      const printed = JSON.parse(printedLine(/^-d '/).slice(4, -1)) as {
        query: string;
        variables: { uuids: string[] };
      };
      // One source: the stand-in's reference units, which the docs name too and the tools open with.
      expect(printed.variables.uuids).toEqual(referenceUnitUuids);
      const tools = await readFile(join(ROOT, 'docs', 'migration-tools.md'), 'utf8');
      expect(/npm run compare -- --units ([0-9a-f,-]+)/.exec(tools)?.[1]?.split(',')).toEqual(
        referenceUnitUuids,
      );
      // The printed curl runs the query on the newest version, OS2mo's v30, at the gateway's address.
      const url = /^curl -s (\S+) /.exec(printedLine(/^curl -s \S+\/graphql\//))?.[1];
      expect(url).toBe(`http://localhost:${ports.gateway}/graphql/v30`);
      const response = await fetch(url!.replace('localhost', '127.0.0.1'), {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(printed),
      });
      const answer = (await response.json()) as { data?: any; errors?: unknown };
      expect(answer.errors).toBeUndefined();
      expect(answer.data.org_units.objects).toHaveLength(3);
      expect(answer.data.org_units.objects[0].current.managers[0].person[0].name).toEqual(expect.any(String));
      const browserTools = await fetch(`http://127.0.0.1:${ports.gateway}/browser/reference-units`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(((await browserTools.json()) as { units: string[] }).units).toEqual(referenceUnitUuids);
    });
  });

  /** The first shell block after `marker` in a documentation file, as a reader would copy it. */
  async function shellBlock(file: string, marker: string): Promise<string> {
    const text = await readFile(join(ROOT, file), 'utf8');
    const block = /```sh\n([\s\S]*?)```/.exec(text.slice(text.indexOf(marker)))?.[1];
    if (text.indexOf(marker) < 0 || block === undefined)
      throw new Error(`no sh block after "${marker}" in ${file}`);
    return block;
  }

  describe('the copy-paste blocks of the README and the docs, on the ports npm start was given', () => {
    const portVariables = () => ({
      GATEWAY_PORT: String(ports.gateway),
      IDP_PORT: String(ports.idp),
      LEGACY_PORT: String(ports.legacy),
    });

    it("runs the README's first queries as printed", async () => {
      const run = await shell(await shellBlock('README.md', '## First queries'), portVariables());
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('"itsystems"');
      expect(run.stdout).toContain('"managers_response"');
      expect(run.stdout).toContain('"unit_count"');
      expect(run.stdout).not.toContain('"errors"');
    });

    it("runs the stand-in's Try it block as printed", async () => {
      const run = await shell(await shellBlock('docs/stand-in.md', 'Try it:'), portVariables());
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('"manager_type"');
      expect(run.stdout).toMatch(/HTTP\/1\.1 401 /);
    });
  });

  describe('the comparison CLI on npm start, given no token option', () => {
    it("reads as the development tool client: its reads are no one's use of /service", async () => {
      let stderr = '';
      const code = await runCompareCommand(
        ['--units', referenceUnitUuids[0]!, '--json'],
        { GATEWAY_PORT: String(ports.gateway), IDP_PORT: String(ports.idp) },
        { stdout: () => undefined, stderr: (text) => (stderr += text) },
      );
      expect(code, stderr).toBe(0);
      expect(stderr).toContain('reading as the development tool client "dev-tools"');
      const token = await accessToken(`http://127.0.0.1:${ports.idp}/auth/realms/org`, 'alice');
      const usage = (await (
        await fetch(`http://127.0.0.1:${ports.gateway}/migration/usage`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).json()) as UsageReport;
      const managers = usage.endpoints.find(
        (entry) => entry.endpoint === 'GET /service/ou/{uuid}/details/manager',
      );
      expect(managers?.clients ?? []).toEqual([]);
    }, 120_000);
  });

  describe("the gateway's own state", () => {
    it('runs the gateway on the embedded Postgres, with its data in the folder it was given', async () => {
      const ready = await fetch(`http://127.0.0.1:${ports.gateway}/health/ready`);
      // Ready only once the migrations are applied: the database answers and holds the gateway's tables.
      expect(((await ready.json()) as { checks: object }).checks).toMatchObject({
        database: { status: 'ok' },
      });
      expect(printedLine(/^database \(embedded\)/)).toContain(`127.0.0.1:${ports.postgres}`);
      expect((await readFile(join(dataDir, 'gateway-postgres', 'PG_VERSION'), 'utf8')).trim()).toMatch(
        /^\d+$/,
      );
    });

    it('sweeps the stand-in as the integration client, so changes made around the gateway become events', async () => {
      const command = printedLine(/^curl -s \S+\/metrics /);
      const token = /Bearer ([^"]+)"$/.exec(command)![1];
      const sweepRounds = async () => {
        const text = await (
          await fetch(`http://127.0.0.1:${ports.gateway}/metrics`, {
            headers: { Authorization: `Bearer ${token}` },
          })
        ).text();
        return /^gateway_backend_sweep_rounds_total\{[^}]*outcome="done"[^}]*\} ([0-9.e+]+)$/m.exec(
          text,
        )?.[1];
      };
      // A round every 30 s: the first one runs at start.
      await expect.poll(sweepRounds, { timeout: 90_000, interval: 1_000 }).toMatch(/^[1-9]/);
    }, 120_000);
  });

  describe('Ctrl+C on npm start', () => {
    it('stops all four quietly: every process gets SIGINT from the terminal, and none prints an error', async () => {
      // Once every process has exited and the pipes are read to their end: what checks for errors reads all.
      const exited = new Promise<number | null>((resolve) => stack.once('close', resolve));
      let output = '';
      stack.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const errorsBefore = errors.length;
      // What a terminal does on Ctrl+C: SIGINT to every process of the foreground group.
      process.kill(-stack.pid!, 'SIGINT');
      expect(await exited).toBe(0);
      const printed = errors.slice(errorsBefore) + output;
      expect(printed).not.toMatch(/ERR_SERVER_NOT_RUNNING|error while stopping|at .*\.ts:\d+/);
    }, 60_000);
  });
});
