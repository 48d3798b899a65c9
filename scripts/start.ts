import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * `npm start`: the whole development stack in one terminal — the legacy service with its seeded data and
 * the development identity provider with the development realm (RBAC on). Ports and the data folder come
 * from the same variables each part reads on its own.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const env: NodeJS.ProcessEnv = { IDP_RBAC_ENABLED: 'true', ...process.env };
const legacyPort = env.LEGACY_PORT || '8082';
const idpPort = env.IDP_PORT || '8081';
const idpUrl = env.IDP_PUBLIC_URL || `http://localhost:${idpPort}`;

interface Part {
  name: string;
  entry: string;
  health: string;
}

const parts: Part[] = [
  { name: 'legacy', entry: 'legacy-service/src/main.ts', health: `http://127.0.0.1:${legacyPort}/health` },
  { name: 'idp', entry: 'idp/src/main.ts', health: `http://127.0.0.1:${idpPort}/health` },
];

const children: ChildProcess[] = [];
let stopping = false;

function stopAll(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null))),
    ),
  ).then(() => process.exit(code));
}

function run(part: Part): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', part.entry], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = (chunk: Buffer) =>
    chunk
      .toString()
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => `[${part.name}] ${line}\n`)
      .join('');
  child.stdout?.on('data', (chunk: Buffer) => process.stdout.write(prefix(chunk)));
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(prefix(chunk)));
  child.once('exit', (code, signal) => {
    if (stopping) return;
    console.error(`[start] ${part.name} stopped (${code ?? signal}); stopping the rest.`);
    stopAll(1);
  });
  children.push(child);
  return child;
}

async function waitForHealth(part: Part, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !stopping) {
    try {
      if ((await fetch(part.health)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${part.name} did not become healthy at ${part.health} within ${timeoutMs / 1000} s`);
}

process.once('SIGINT', () => stopAll(0));
process.once('SIGTERM', () => stopAll(0));

try {
  for (const part of parts) run(part);
  await Promise.all(parts.map((part) => waitForHealth(part)));
  console.log(`
Development stack is up (RBAC ${env.IDP_RBAC_ENABLED === 'true' ? 'on' : 'off'}):
  legacy /service API   http://127.0.0.1:${legacyPort}/service/o/   (internal; the gateway will front it)
  identity provider     ${idpUrl}/auth/realms/org/.well-known/openid-configuration

Users (password = username): alice (admin), oscar (owner of one unit), nora (no role)

Get a token:
  TOKEN=$(npm run --silent token -- alice) && echo "$TOKEN" | cut -d. -f2 | base64 -d 2>/dev/null; echo

Read the legacy API:
  curl -s http://127.0.0.1:${legacyPort}/service/o/

Press Ctrl+C to stop.`);
} catch (error) {
  console.error(`[start] ${error instanceof Error ? error.message : String(error)}`);
  stopAll(1);
}
