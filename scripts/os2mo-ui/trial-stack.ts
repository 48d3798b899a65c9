import type { ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { referenceUnitUuids } from '../../legacy-service/src/fixture/organisation.js';
import { spawnService } from '../stack-processes.js';
import { startSameOriginProxy, type SameOriginProxy } from './same-origin-proxy.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The gateway's paths on the one origin; everything else is the UI's. */
const gatewayPrefixes = ['/graphql', '/service', '/health', '/voyager', '/browser'];

export interface TrialStack {
  /** `http://localhost:{OS2MO_UI_PORT}`: the UI and the gateway. */
  origin: string;
  /** The identity provider as the browser reaches it. */
  idpUrl: string;
  /** The gateway directly (for the document check and the upstream trace). */
  gatewayUrl: string;
  /** Where the stack's and the UI's output go. */
  logFile: string;
  close(): Promise<void>;
}

/** A port from the variable, or one the OS has free now. */
async function portFrom(env: NodeJS.ProcessEnv, name: string): Promise<number> {
  const given = env[name];
  if (given !== undefined && given !== '') {
    const port = Number(given);
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      throw new Error(`${name} must be a port number, got ${JSON.stringify(given)}.`);
    return port;
  }
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, name: string, stopped: () => string | undefined, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const exit = stopped();
    if (exit !== undefined) throw new Error(`${name} stopped (${exit}) before it answered ${url}.`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${name} did not answer ${url} within ${timeoutMs / 1000} s.`);
}

/**
 * The development stack (as `scripts/start.ts` runs it: seeded legacy service, identity provider with RBAC,
 * gateway) over a fresh data folder, os2mo-naldo's server (`node build` in `web`), and the same-origin proxy in
 * front of both. Ports come from `OS2MO_UI_PORT`, `OS2MO_UI_APP_PORT`, `GATEWAY_PORT`, `IDP_PORT` and
 * `LEGACY_PORT`, or are chosen free.
 */
export async function startTrialStack(
  web: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<TrialStack> {
  const [originPort, appPort, gatewayPort, idpPort, legacyPort] = [
    await portFrom(env, 'OS2MO_UI_PORT'),
    await portFrom(env, 'OS2MO_UI_APP_PORT'),
    await portFrom(env, 'GATEWAY_PORT'),
    await portFrom(env, 'IDP_PORT'),
    await portFrom(env, 'LEGACY_PORT'),
  ];
  const origin = `http://localhost:${originPort}`;
  const idpUrl = `http://localhost:${idpPort}`;
  const work = await mkdtemp(join(tmpdir(), 'os2mo-ui-stack-'));
  const logFile = join(work, 'stack.log');
  const log = createWriteStream(logFile);
  const children: ChildProcess[] = [];
  const exits = new Map<ChildProcess, string>();
  // Each child stops by itself once the trial is gone, however it went (spawnService).
  const launch = (name: string, entry: string, cwd: string, childEnv: NodeJS.ProcessEnv) => {
    const child = spawnService({ entry, cwd, env: childEnv });
    child.stdout?.on('data', (chunk: Buffer) => log.write(`[${name}] ${chunk.toString()}`));
    child.stderr?.on('data', (chunk: Buffer) => log.write(`[${name}] ${chunk.toString()}`));
    child.once('exit', (code, signal) => exits.set(child, String(code ?? signal)));
    children.push(child);
    return child;
  };

  let proxy: SameOriginProxy | undefined;
  const close = async () => {
    await proxy?.close();
    await Promise.all(
      children.map(
        (child) =>
          new Promise((resolve) => {
            if (exits.has(child)) return resolve(null);
            child.once('exit', resolve);
            child.kill('SIGTERM');
          }),
      ),
    );
    log.end();
    await rm(join(work, 'data'), { recursive: true, force: true });
  };

  try {
    // The development stack's parts as `npm start` runs them, each waited for here: on a loaded machine the
    // gateway can take longer to start than `npm start`'s own 30 s.
    const stackEnv: NodeJS.ProcessEnv = {
      ...env,
      IDP_RBAC_ENABLED: 'true',
      LEGACY_PORT: String(legacyPort),
      LEGACY_URL: `http://127.0.0.1:${legacyPort}`,
      LEGACY_DATA_DIR: join(work, 'data'),
      IDP_PORT: String(idpPort),
      IDP_PUBLIC_URL: idpUrl,
      IDP_KEYS_DIR: join(work, 'keys'),
      GATEWAY_PORT: String(gatewayPort),
      // The realm's redirect URIs and the gateway's CORS name the one origin the browser uses.
      GATEWAY_PUBLIC_URL: origin,
      GATEWAY_REFERENCE_UNITS: referenceUnitUuids.join(','),
      LOG_LEVEL: env['LOG_LEVEL'] ?? 'warn',
    };
    const parts = [
      ['legacy', 'legacy-service/src/main.ts', `http://127.0.0.1:${legacyPort}/health`],
      ['idp', 'idp/src/main.ts', `http://127.0.0.1:${idpPort}/health`],
      ['gateway', 'gateway/src/main.ts', `http://127.0.0.1:${gatewayPort}/health/live`],
    ] as const;
    const started = parts.map(([name, entry]) => launch(name, entry, root, stackEnv));
    await Promise.all(
      parts.map(([name, , health], index) =>
        waitFor(health, name, () => exits.get(started[index]!), 180_000),
      ),
    );
    const ui = launch('ui', 'build', web, {
      ...env,
      PORT: String(appPort),
      HOST: '127.0.0.1',
      ORIGIN: origin,
      PUBLIC_BASE_URL: origin,
      PUBLIC_KEYCLOAK_URL: `${idpUrl}/auth`,
      PUBLIC_KEYCLOAK_REALM: 'org',
      PUBLIC_KEYCLOAK_CLIENT_ID: 'org-frontend',
      // The Service API backs KLE numbers: the unit page shows that tab too.
      PUBLIC_SHOW_KLE: 'true',
    });
    await waitFor(`http://127.0.0.1:${appPort}/`, "os2mo-naldo's server", () => exits.get(ui), 120_000);
    proxy = await startSameOriginProxy({
      port: originPort,
      gatewayPrefixes,
      targets: () => ({ gateway: `http://127.0.0.1:${gatewayPort}`, ui: `http://127.0.0.1:${appPort}` }),
    });
  } catch (error) {
    await close();
    throw new Error(`${(error as Error).message} See ${logFile}.`);
  }
  return { origin, idpUrl, gatewayUrl: `http://127.0.0.1:${gatewayPort}`, logFile, close };
}
