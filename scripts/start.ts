import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { os2moReferenceQueryOneLine } from '../gateway/src/graphql/reference-query.js';

/**
 * `npm start`: the whole development stack in one terminal — the legacy service with its seeded data, the
 * development identity provider with the development realm (RBAC on), and the gateway in front. Ports and the data folder come
 * from the same variables each part reads on its own.
 *
 * `LEGACY_URL=… npm start` runs only the identity provider and the gateway, in front of that backend: the
 * stand-in is neither started nor imported, and the banner's sample units come from the backend.
 *
 * The gateway's own state (OS2mo's event system) lives in an embedded Postgres started here as one more process
 * (`scripts/embedded-postgres.ts`, data in `EMBEDDED_POSTGRES_DIR`); `DATABASE_URL=… npm start` uses that
 * database instead and starts none.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const env: NodeJS.ProcessEnv = { IDP_RBAC_ENABLED: 'true', ...process.env };
const legacyPort = env.LEGACY_PORT || '8082';
const idpPort = env.IDP_PORT || '8081';
const gatewayPort = env.GATEWAY_PORT || '8080';
const embeddedPostgresPort = env.EMBEDDED_POSTGRES_PORT || '8083';
const idpUrl = env.IDP_PUBLIC_URL || `http://localhost:${idpPort}`;
const gatewayUrl = env.GATEWAY_PUBLIC_URL || `http://localhost:${gatewayPort}`;
// A backend given by LEGACY_URL replaces the stand-in; otherwise the gateway reaches the stand-in where it listens.
const givenBackend = env.LEGACY_URL || undefined;
/** The given backend as the banner shows it: without any user or password written into the URL. */
function shownBackend(address: string): string {
  if (!URL.canParse(address)) return address;
  const shown = new URL(address);
  shown.username = '';
  shown.password = '';
  return shown.href.replace(/\/$/, '');
}
// The gateway reaches the others at the addresses they listen on; the IdP's redirect URIs name the gateway.
env.LEGACY_URL ||= `http://127.0.0.1:${legacyPort}`;
env.GATEWAY_PUBLIC_URL ||= gatewayUrl;
// A database given by DATABASE_URL replaces the embedded one; the embedded one is PGlite: one backend, so a pool of one.
const givenDatabase = env.DATABASE_URL || undefined;
if (givenDatabase === undefined) {
  env.DATABASE_URL = `postgres://postgres@127.0.0.1:${embeddedPostgresPort}/postgres`;
  env.DATABASE_POOL_SIZE = '1';
}
// The stand-in's reference units are the ones docs/migration-tools.md names: the tools and the banner show those.
if (givenBackend === undefined && !env.GATEWAY_REFERENCE_UNITS) {
  const { referenceUnitUuids } = await import('../legacy-service/src/fixture/organisation.js');
  env.GATEWAY_REFERENCE_UNITS = referenceUnitUuids.join(',');
}
// The development stack serves /metrics: with a token of its own, made up per start unless one is given.
const metricsTokenGiven = Boolean(env.METRICS_TOKEN);
env.METRICS_TOKEN ||= `dev-metrics-${randomBytes(18).toString('base64url')}`;

interface Part {
  name: string;
  entry: string;
  /** An HTTP URL that answers 2xx once the part serves, or a `tcp://` address that accepts connections. */
  health: string;
  /** Node flags of this part alone. */
  nodeArgs?: string[];
  /** How long it may take to become healthy; default 60 s. */
  startupMs?: number;
}

const parts: Part[] = [
  ...(givenDatabase === undefined
    ? [
        {
          name: 'postgres',
          entry: 'scripts/embedded-postgres.ts',
          health: `tcp://127.0.0.1:${embeddedPostgresPort}`,
          // PGlite's WebAssembly on V8's baseline compiler: about 35 MB less resident memory.
          nodeArgs: ['--no-wasm-tier-up', '--liftoff-only'],
          // The first start creates the database (PGlite's initdb): 20-30 s on two busy cores.
          startupMs: 120_000,
        },
      ]
    : []),
  ...(givenBackend === undefined
    ? [
        {
          name: 'legacy',
          entry: 'legacy-service/src/main.ts',
          health: `http://127.0.0.1:${legacyPort}/health`,
        },
      ]
    : []),
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
  const child = spawn(process.execPath, [...(part.nodeArgs ?? []), '--import', 'tsx', part.entry], {
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

/** Whether a TCP server accepts a connection at `address` (closed at once). */
function accepts(address: URL): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(Number(address.port), address.hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitForHealth(part: Part, timeoutMs = part.startupMs ?? 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !stopping) {
    try {
      if (
        part.health.startsWith('tcp://') ? await accepts(new URL(part.health)) : (await fetch(part.health)).ok
      )
        return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${part.name} did not become healthy at ${part.health} within ${timeoutMs / 1000} s`);
}

/** The sample units for the banner's query, as GraphiQL finds them: asked at the gateway with alice's token. */
async function sampleUnits(): Promise<{ units: string[]; problem?: string }> {
  try {
    const tokenResponse = await fetch(
      `http://127.0.0.1:${idpPort}/auth/realms/org/protocol/openid-connect/token`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'password',
          client_id: 'org-frontend',
          username: 'alice',
          password: 'alice',
        }),
      },
    );
    const { access_token: token } = (await tokenResponse.json()) as { access_token?: string };
    if (!token)
      return { units: [], problem: `the identity provider gave no token (${tokenResponse.status})` };
    const response = await fetch(`http://127.0.0.1:${gatewayPort}/browser/reference-units`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!response.ok) return { units: [], problem: `the gateway answered ${response.status}` };
    const { units } = (await response.json()) as { units: string[] };
    return units.length > 0 ? { units } : { units, problem: 'the backend has no unit with a manager today' };
  } catch (error) {
    return { units: [], problem: error instanceof Error ? error.message : String(error) };
  }
}

/** The gateway's readiness, in one line for the banner. */
async function readiness(): Promise<string> {
  try {
    const response = await fetch(`http://127.0.0.1:${gatewayPort}/health/ready`);
    const report = (await response.json()) as {
      status: string;
      checks: Record<string, { status: string; reason?: string }>;
    };
    if (report.status === 'ready') return 'ready';
    const failed = Object.entries(report.checks)
      .filter(([, check]) => check.status !== 'ok')
      .map(([name, check]) => `${name}: ${check.reason}`);
    return `NOT READY (${failed.join('; ')}) — see ${gatewayUrl}/health/ready`;
  } catch (error) {
    return `NOT READY (${error instanceof Error ? error.message : String(error)})`;
  }
}

// SIGTERM reaches this script alone (npm runs it with `exec`, so no shell sits between); Ctrl+C's SIGINT reaches
// the services too. Either way each service gets SIGTERM, drains as its own shutdown does, and this waits for all.
process.once('SIGINT', () => stopAll(0));
process.once('SIGTERM', () => stopAll(0));

try {
  for (const part of parts) run(part);
  await Promise.all(parts.map((part) => waitForHealth(part)));
  const [ready, sample] = await Promise.all([readiness(), sampleUnits()]);
  let uuids = sample.units;
  if (uuids.length === 0 && givenBackend === undefined) {
    // The stand-in's own reference units; imported only when the stand-in runs.
    ({ referenceUnitUuids: uuids } = await import('../legacy-service/src/fixture/organisation.js'));
  }
  const body = JSON.stringify({
    query: os2moReferenceQueryOneLine,
    variables: { uuids: uuids.length > 0 ? uuids : ['<unit uuid>'] },
  }).replace(/'/g, "'\\''");
  const unitsNote =
    uuids.length === 0
      ? `\n  (no sample units from the backend: ${sample.problem}; put unit UUIDs into "uuids")`
      : '';
  console.log(`
Development stack is up (RBAC ${env.IDP_RBAC_ENABLED === 'true' ? 'on' : 'off'}; gateway ${ready}):
  GraphiQL (log in)     ${gatewayUrl}/graphql
  Voyager               ${gatewayUrl}/voyager
  GraphQL (OS2mo's)     ${gatewayUrl}/graphql/v30 (newest; v21 … v29 too)  (SDL: .../schema.graphql)
  GraphQL (deprecated)  ${gatewayUrl}/graphql/v1  ${gatewayUrl}/graphql/v2  (this gateway's first versions)
  legacy passthrough    ${gatewayUrl}/service/o/
  identity provider     ${idpUrl}/auth/realms/org/.well-known/openid-configuration
  ${givenDatabase === undefined ? `database (embedded)   postgres://postgres@127.0.0.1:${embeddedPostgresPort}/postgres (PGlite; one connection)` : 'database              DATABASE_URL as given'}
  ${givenBackend === undefined ? `legacy (internal)     http://127.0.0.1:${legacyPort}/service/` : `legacy backend        ${shownBackend(givenBackend)}/service/ (LEGACY_URL; no stand-in started)`}

Users (password = username): alice (admin), oscar (owner of one unit), nora (no role)
Integrations (client credentials): integration, payroll
  TOKEN=$(npm run --silent token -- --client payroll --idp ${idpUrl})

Get a token and run the specification's query (managers, manager types, job functions of three units):
  TOKEN=$(npm run --silent token -- alice --idp ${idpUrl})
  curl -s ${gatewayUrl}/graphql/v30 -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\
    -d '${body}'${unitsNote}

Prometheus metrics (METRICS_TOKEN${metricsTokenGiven ? ' as given' : ', made up for this run'}):
  curl -s ${gatewayUrl}/metrics -H "Authorization: Bearer ${metricsTokenGiven ? '$METRICS_TOKEN' : env.METRICS_TOKEN}"

Press Ctrl+C to stop.`);
} catch (error) {
  console.error(`[start] ${error instanceof Error ? error.message : String(error)}`);
  stopAll(1);
}
