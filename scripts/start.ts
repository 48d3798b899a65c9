import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { os2moReferenceQueryOneLine } from '../gateway/src/graphql/reference-query.js';
import { dropOutputWhenClosed, superviseStack, type StackPart } from './stack-processes.js';

/**
 * `npm start`: the whole development stack in one terminal — the legacy service with its seeded data, the
 * development identity provider with the development realm (RBAC on), and the gateway in front. Ports and the data folder come
 * from the same variables each part reads on its own.
 *
 * `LEGACY_URL=… npm start` runs only the identity provider and the gateway, in front of that backend: the
 * stand-in is neither started nor imported, and the banner's sample units come from the backend.
 *
 * The gateway's own state (OS2mo's event system, the record of the backend) lives in an embedded Postgres
 * started here as one more process (`scripts/embedded-postgres.ts`, data in `EMBEDDED_POSTGRES_DIR`);
 * `DATABASE_URL=… npm start` uses that database instead and starts none.
 */

const usage = `Usage: npm start [-- --help]

Starts the development stack in one terminal: the stand-in legacy service with its seeded data, the development
identity provider (realm org, RBAC on), an embedded Postgres for the gateway's own state and the gateway,
then prints the addresses, the users, and a query to try.
A service that stops after it served is started again; Ctrl+C (or SIGTERM) stops them all.

It takes no options: it reads the variables each part reads (docs/configuration.md), among them
  GATEWAY_PORT      the gateway's port (default 8080)
  IDP_PORT          the identity provider's port (default 8081)
  LEGACY_PORT       the stand-in's port on 127.0.0.1 (default 8082)
  LEGACY_DATA_DIR   the stand-in's data folder (default data/legacy; an empty folder is seeded)
  LEGACY_URL        a backend of your own instead of the stand-in (then no stand-in is started)
  DATABASE_URL      a Postgres of your own for the gateway's state (default: an embedded one, started here)
  EMBEDDED_POSTGRES_PORT  the embedded Postgres's port on 127.0.0.1 (default 8083)
  IDP_RBAC_ENABLED  true (default) or false
  METRICS_TOKEN     the bearer token /metrics wants (default: one made up for this run)
  USAGE_TOOL_CLIENTS  clients whose tool header is believed (default dev-tools: the comparison CLI's)
  BACKEND_SWEEP_CLIENT_ID  the client the sweep of the backend reads as (default integration)
A second stack beside a first: other ports and another data folder (README.md, "A second stack").
`;
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(usage);
  process.exit(0);
}
if (args.length > 0) {
  process.stderr.write(`npm start takes no options (got ${args.join(' ')}): it reads variables.\n\n${usage}`);
  process.exit(2);
}

const root = fileURLToPath(new URL('..', import.meta.url));
const env: NodeJS.ProcessEnv = { IDP_RBAC_ENABLED: 'true', ...process.env };
const legacyPort = env.LEGACY_PORT || '8082';
const idpPort = env.IDP_PORT || '8081';
const gatewayPort = env.GATEWAY_PORT || '8080';
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
// The stand-in's reference units are the ones docs/migration-tools.md names: the tools and the banner show those.
if (givenBackend === undefined && !env.GATEWAY_REFERENCE_UNITS) {
  const { referenceUnitUuids } = await import('../legacy-service/src/fixture/organisation.js');
  env.GATEWAY_REFERENCE_UNITS = referenceUnitUuids.join(',');
}
// The comparison CLI reads as the realm's dev-tools client when given no token (compare-command.ts's
// developmentToolClient): its tool header is believed, so its reads are no one's usage and pass a switch-off,
// while an integration's reads (integration, payroll) still count.
if (env.USAGE_TOOL_CLIENTS === undefined) env.USAGE_TOOL_CLIENTS = 'dev-tools';
// The sweep of the backend (what changes around the gateway becomes OS2mo's events) has no caller whose token it
// could relay: under npm start it reads as the realm's integration client, unless another credential is given.
if (env.BACKEND_SWEEP_CLIENT_ID === undefined && (env.LEGACY_CREDENTIALS ?? 'relay') === 'relay') {
  env.BACKEND_SWEEP_CLIENT_ID = 'integration';
  env.BACKEND_SWEEP_CLIENT_SECRET ||= env.IDP_INTEGRATION_CLIENT_SECRET || 'integration-dev-secret';
}
// The development stack serves /metrics: with a token of its own, made up per start unless one is given.
const metricsTokenGiven = Boolean(env.METRICS_TOKEN);
env.METRICS_TOKEN ||= `dev-metrics-${randomBytes(18).toString('base64url')}`;

const embeddedPostgresPort = env.EMBEDDED_POSTGRES_PORT || '8083';
// A database given by DATABASE_URL replaces the embedded one; the embedded one is PGlite: one backend, so a pool of one.
const givenDatabase = env.DATABASE_URL || undefined;
if (givenDatabase === undefined) {
  env.DATABASE_URL = `postgres://postgres@127.0.0.1:${embeddedPostgresPort}/postgres`;
  env.DATABASE_POOL_SIZE = '1';
}

const parts: StackPart[] = [
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

// `npm start | head`: once the reader is gone the stack keeps serving, silently, until Ctrl+C or SIGTERM.
dropOutputWhenClosed(process.stdout);
dropOutputWhenClosed(process.stderr);
let stopping = false;
const stack = superviseStack(parts, {
  cwd: root,
  env,
  print: (line, stream) => process[stream].write(`${line}\n`),
  onGiveUp: (code) => stopAll(code),
});

function stopAll(code: number): void {
  if (stopping) return;
  stopping = true;
  void stack.stop().then(() => process.exit(code));
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
  await stack.start();
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
Integrations (client credentials): integration, payroll; the comparison tools: dev-tools (USAGE_TOOL_CLIENTS)
  TOKEN=$(npm run --silent token -- --client payroll --idp ${idpUrl})

Get a token and run the specification's query (managers, manager types, job functions of three units):
  TOKEN=$(npm run --silent token -- alice --idp ${idpUrl})
  curl -s ${gatewayUrl}/graphql/v30 -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\
    -d '${body}'${unitsNote}

Prometheus metrics (METRICS_TOKEN${metricsTokenGiven ? ' as given' : ', made up for this run'}):
  curl -s ${gatewayUrl}/metrics -H "Authorization: Bearer ${metricsTokenGiven ? '$METRICS_TOKEN' : env.METRICS_TOKEN}"

A service that stops is started again; the others keep serving. Press Ctrl+C to stop.`);
} catch (error) {
  console.error(`[start] ${error instanceof Error ? error.message : String(error)}`);
  stopAll(1);
}
