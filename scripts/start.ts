import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { referenceQueryOneLine } from '../gateway/src/graphql/reference-query.js';
import { referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';

/**
 * `npm start`: the whole development stack in one terminal — the legacy service with its seeded data, the
 * development identity provider with the development realm (RBAC on), and the gateway in front. Ports and the data folder come
 * from the same variables each part reads on its own.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const env: NodeJS.ProcessEnv = { IDP_RBAC_ENABLED: 'true', ...process.env };
const legacyPort = env.LEGACY_PORT || '8082';
const idpPort = env.IDP_PORT || '8081';
const gatewayPort = env.GATEWAY_PORT || '8080';
const idpUrl = env.IDP_PUBLIC_URL || `http://localhost:${idpPort}`;
const gatewayUrl = env.GATEWAY_PUBLIC_URL || `http://localhost:${gatewayPort}`;
// The gateway reaches the other two at the addresses they listen on; the IdP's redirect URIs name the gateway.
env.LEGACY_URL ||= `http://127.0.0.1:${legacyPort}`;
env.GATEWAY_PUBLIC_URL ||= gatewayUrl;
// The gateway does not send tokens to the backend yet, so the legacy token check is off unless asked for.
env.LEGACY_AUTH ||= 'off';

interface Part {
  name: string;
  entry: string;
  health: string;
}

const parts: Part[] = [
  { name: 'legacy', entry: 'legacy-service/src/main.ts', health: `http://127.0.0.1:${legacyPort}/health` },
  { name: 'idp', entry: 'idp/src/main.ts', health: `http://127.0.0.1:${idpPort}/health` },
  { name: 'gateway', entry: 'gateway/src/main.ts', health: `http://127.0.0.1:${gatewayPort}/health/live` },
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
  const body = JSON.stringify({
    query: referenceQueryOneLine,
    variables: { uuids: referenceUnitUuids },
  }).replace(/'/g, "'\\''");
  console.log(`
Development stack is up (RBAC ${env.IDP_RBAC_ENABLED === 'true' ? 'on' : 'off'}):
  GraphiQL (log in)     ${gatewayUrl}/graphql
  Voyager               ${gatewayUrl}/voyager
  GraphQL endpoints     ${gatewayUrl}/graphql/v1  ${gatewayUrl}/graphql/v2  (SDL: .../schema.graphql)
  legacy passthrough    ${gatewayUrl}/service/o/
  identity provider     ${idpUrl}/auth/realms/org/.well-known/openid-configuration
  legacy (internal)     http://127.0.0.1:${legacyPort}/service/

Users (password = username): alice (admin), oscar (owner of one unit), nora (no role)

Get a token and run the specification's query (managers, manager types, job functions of three units):
  TOKEN=$(npm run --silent token -- alice)
  curl -s ${gatewayUrl}/graphql/v2 -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\
    -d '${body}'

Press Ctrl+C to stop.`);
} catch (error) {
  console.error(`[start] ${error instanceof Error ? error.message : String(error)}`);
  stopAll(1);
}
