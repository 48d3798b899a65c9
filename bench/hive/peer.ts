import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitForHealth } from '../../test/processes.js';

/**
 * The benchmark's second peer: GraphQL Mesh v1 (`mesh-compose` on `mesh.config.ts`, over the same OpenAPI
 * contract as `.meshrc.yaml`) served by Hive Gateway with request deduplication (`gateway.config.ts`).
 * The supergraph is composed at start into a temporary folder and removed at stop: nothing generated is
 * committed.
 */

const hiveDir = dirname(fileURLToPath(import.meta.url));
const repositoryRoot = join(hiveDir, '..', '..');

/** A package's command script, to run with this Node (`npx` would add a process and npm's notices). */
function binPath(packageName: string, command: string): string {
  const require = createRequire(import.meta.url);
  const packageJsonPath = require.resolve(`${packageName}/package.json`);
  const { bin } = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as { bin: Record<string, string> };
  const script = bin[command];
  if (!script) throw new Error(`${packageJsonPath} names no \`${command}\` command.`);
  return join(dirname(packageJsonPath), script);
}

/** Runs a command to its end; rejects with its output when it fails. */
function run(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: repositoryRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${args.join(' ')} failed (${code ?? signal}):\n${output}`)),
    );
  });
}

/** Composes the supergraph from `mesh.config.ts` into `file` (about 2 s, offline). */
export async function composeSupergraph(file: string, timeoutMs = 120_000): Promise<void> {
  await run(
    [
      binPath('@graphql-mesh/compose-cli', 'mesh-compose'),
      '--config-path',
      join(hiveDir, 'mesh.config.ts'),
      '--output',
      file,
    ],
    // Compose-cli loads `.env` files from the working folder; the contract path is absolute in the config.
    { ...process.env },
    timeoutMs,
  );
}

/** Hive Gateway's CLI cannot listen on port 0 (it takes 4000): ask the OS for a free port first. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface HivePeer {
  url: string;
  /** The GraphQL endpoint's path. */
  path: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export interface HivePeerOptions {
  /** A supergraph `composeSupergraph` wrote already (a second peer in one run needs no second composition). */
  supergraph?: string;
  timeoutMs?: number;
}

/**
 * Starts Hive Gateway on the supergraph (composed now unless given), calling the legacy service at
 * `legacyUrl` with each caller's `Authorization`; resolves once it answers `/readiness`.
 */
export async function startHivePeer(legacyUrl: string, options: HivePeerOptions = {}): Promise<HivePeer> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const folder = options.supergraph ? undefined : await mkdtemp(join(tmpdir(), 'hive-peer-'));
  const supergraph = options.supergraph ?? join(folder!, 'supergraph.graphql');
  const removeFolder = async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  };
  if (folder) {
    try {
      await composeSupergraph(supergraph, timeoutMs);
    } catch (error) {
      await removeFolder();
      throw error;
    }
  }
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      binPath('@graphql-hive/gateway', 'hive-gateway'),
      'supergraph',
      supergraph,
      '--config-path',
      join(hiveDir, 'gateway.config.ts'),
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
    ],
    {
      cwd: repositoryRoot,
      // One process, like the gateway it is compared with.
      env: { ...process.env, LEGACY_URL: legacyUrl, FORK: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    await removeFolder();
  };
  try {
    await Promise.race([
      waitForHealth(`${url}/readiness`, timeoutMs),
      exited.then(() => Promise.reject(new Error('hive-gateway exited'))),
    ]);
  } catch (error) {
    await stop();
    throw new Error(`Hive Gateway did not become ready: ${String(error)}\n${output}`);
  }
  return { url, path: '/graphql', child, stop };
}

/**
 * The specification's reference query in the composed graph's own words: the generated API reads one unit
 * per root field (`getOrgUnit`), so the three units are three aliases; below them it asks exactly what the
 * reference query asks (managers' type and person, the person's engagements' job function).
 */
export function hiveReferenceQuery(unitCount: number): string {
  const aliases = Array.from({ length: unitCount }, (_, index) => index);
  const variables = aliases.map((index) => `$u${index}: UUID!`).join(', ');
  const units = aliases
    .map(
      (index) =>
        `u${index}: getOrgUnit(uuid: $u${index}) { name managers { manager_type { user_key } ` +
        'employee { name engagements { job_function { user_key } } } } }',
    )
    .join(' ');
  return `query Reference(${variables}) { ${units} }`;
}

/** The request body of the reference query for these units. */
export function hiveReferenceBody(uuids: readonly string[]): string {
  return JSON.stringify({
    query: hiveReferenceQuery(uuids.length),
    variables: Object.fromEntries(uuids.map((uuid, index) => [`u${index}`, uuid])),
  });
}

/** A reference answer in the reference query's shape (`org_units.objects`), for comparison. */
export function asReferenceShape(data: Record<string, unknown>, unitCount: number) {
  return {
    org_units: { objects: Array.from({ length: unitCount }, (_, index) => data[`u${index}`]) },
  };
}
