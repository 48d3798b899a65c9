import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from './postgres.js';
import { startTestStack, type TestStack } from './stack.js';

/**
 * The shell examples of the docs (every ```sh block of `docs/*.md`), run as printed with bash against a stack
 * started here on ports the OS chose: the examples find it through `GATEWAY_PORT`, `IDP_PORT` and
 * `LEGACY_PORT`, as they find `npm start`'s. An example that cannot run here is listed with the reason; the
 * test fails on a block in neither list, and on a listed block that is gone.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const docs = readdirSync(new URL('../docs/', import.meta.url)).filter((name) => name.endsWith('.md'));

/** Every shell block, named `docs/FILE #N` in the order of the file (indented blocks in lists included). */
const blocks = new Map<string, string>(
  docs.flatMap((name) =>
    [
      ...readFileSync(new URL(`../docs/${name}`, import.meta.url), 'utf8').matchAll(
        /^( *)```sh\n([\s\S]*?)^\1```/gm,
      ),
    ].map(
      ([, indent, body], index) =>
        [`docs/${name} #${index + 1}`, body!.replace(new RegExp(`^${indent}`, 'gm'), '')] as const,
    ),
  ),
);

/** What an example that runs prints (stdout and stderr together), and its exit status. */
const runHere: Record<string, { output: RegExp; exit?: number }> = {
  'docs/deployment.md #4': { output: /"itsystems":\{"objects":\[\{"current":\{"name":/ },
  'docs/events.md #1': {
    output: /"event_fetch":\{"subject":"[0-9a-f-]{36}","token":"[^"]+"\}[\s\S]*"event_acknowledge":true/,
  },
  // Exit 1: the report's verdict is that /service is still in use (the two integrations just called it).
  'docs/retiring-service.md #1': { output: /Verdict: \/service is still in use/, exit: 1 },
  'docs/service-passthrough.md #1': {
    output: /^\[\{"uuid":"f41291dc-2a78-5663-957a-efb8d5ed9a0e"[\s\S]*\}\]\[\]$/,
  },
};

/** Why the others do not run here. */
const notRunHere: Record<string, string> = {
  'docs/deployment.md #1':
    'a backend of your own on another machine (LEGACY_URL), and npm start runs until stopped',
  'docs/deployment.md #2':
    'a production start against a Keycloak and a backend on other machines (login.example.org, legacy.internal…)',
  'docs/deployment.md #3': 'Docker Compose, which the test machine does not have',
  'docs/migration-tools.md #1':
    'a template (<uuid>, a gateway at gateway.example.org); test/tools-after-switch-off.test.ts runs --coverage and --units',
  'docs/operations.md #1':
    'root (sudo -u postgres) and a system Postgres on port 5432, and npm start runs until stopped',
  'docs/events.md #2':
    'root (sudo -u postgres) and a system Postgres on port 5432, and npm start runs until stopped',
  'docs/os2mo-ui.md #1':
    "OS2mo's UI cloned from GitHub (network) and built; the trial script has its own tests",
  'docs/os2mo-ui.md #2': "OS2mo's UI cloned from GitHub (network) and built, then kept running until stopped",
  'docs/retiring-service.md #2':
    'npm start in the foreground until stopped; test/tools-after-switch-off.test.ts runs its --coverage and --units',
  'docs/stand-in.md #1': 'run as printed by test/start-command.test.ts, against npm start on other ports',
  'docs/stand-in.md #2': "a CSV file of your own, copied into the stand-in's data folder",
  'docs/stand-in.md #3':
    "continues #1's session ($LEGACY, $TOKEN); legacy-service/src/routes/login-helpers.test.ts sends the same requests",
  'docs/stand-in.md #4':
    "continues #1's session ($LEGACY, $TOKEN, $ORG); the stand-in's address-autocomplete tests send the same request",
  'docs/stand-in.md #5': 'generates 10,000 units and 100,000 people (minutes), then serves until stopped',
  'docs/testing.md #1': 'runs the test suite itself',
};

/** The variables a stack on other ports is found by; the rest that could point elsewhere are left out. */
function exampleEnv(stack: TestStack): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(GATEWAY_|IDP_|LEGACY_|DATABASE_|EMBEDDED_POSTGRES_)/.test(name)) delete env[name];
  }
  return {
    ...env,
    GATEWAY_PORT: new URL(stack.gatewayUrl).port,
    IDP_PORT: new URL(stack.idpUrl).port,
    LEGACY_PORT: new URL(stack.legacyUrl).port,
  };
}

function runBash(script: string, env: NodeJS.ProcessEnv): Promise<{ exit: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (exit) => resolve({ exit, output }));
  });
}

describe('the shell examples of the docs', () => {
  it('are each run here or listed with the reason they cannot be, and every listed one exists', () => {
    const listed = [...Object.keys(runHere), ...Object.keys(notRunHere)];
    expect([...blocks.keys()].sort()).toEqual(listed.sort());
  });

  describe('run as printed against a stack on other ports', () => {
    let postgres: TestPostgres;
    let stack: TestStack;
    beforeAll(async () => {
      // The events example needs the gateway's database.
      postgres = await startTestPostgres();
      stack = await startTestStack({ gatewayEnv: { DATABASE_URL: postgres.url } });
    });
    afterAll(async () => {
      await stack?.close();
      await postgres?.close();
    });

    /** Each spawns npm (the token command, the CLI) a few times: seconds alone, a minute or more under load. */
    const exampleRunMs = 240_000;
    it.each(Object.entries(runHere))(
      '%s',
      async (where, expected) => {
        const script = blocks.get(where);
        expect(script, `${where} is a shell block`).toBeDefined();
        const { exit, output } = await runBash(script!, exampleEnv(stack));
        expect(output).toMatch(expected.output);
        expect(exit, output).toBe(expected.exit ?? 0);
      },
      exampleRunMs,
    );
  });
});
