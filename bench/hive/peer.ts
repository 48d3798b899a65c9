import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageBinPath, repositoryRoot, runNodeScript } from '../../gateway/src/org-graph/mesh-build.js';
import { startCliServer } from '../../test/mesh-server.js';
import { freePort } from '../../test/processes.js';

/**
 * The benchmark's second peer: GraphQL Mesh v1 (`mesh-compose` on `mesh.config.ts`, over the same OpenAPI
 * contract as `.meshrc.yaml`) served by Hive Gateway with request deduplication (`gateway.config.ts`).
 * The supergraph is composed at start into a temporary folder and removed at stop: nothing generated is
 * committed.
 */

const hiveDir = dirname(fileURLToPath(import.meta.url));

/** Composes the supergraph from `mesh.config.ts` into `file` (about 2 s, offline). */
export async function composeSupergraph(file: string, timeoutMs = 120_000): Promise<void> {
  await runNodeScript(
    'mesh-compose',
    [
      packageBinPath('@graphql-mesh/compose-cli', 'mesh-compose'),
      '--config-path',
      join(hiveDir, 'mesh.config.ts'),
      '--output',
      file,
    ],
    // Compose-cli loads `.env` files from the working folder; the contract path is absolute in the config.
    { cwd: repositoryRoot, timeoutMs },
  );
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
  const server = await startCliServer({
    name: 'Hive Gateway',
    args: [
      packageBinPath('@graphql-hive/gateway', 'hive-gateway'),
      'supergraph',
      supergraph,
      '--config-path',
      join(hiveDir, 'gateway.config.ts'),
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
    ],
    port,
    // One process, like the gateway it is compared with.
    env: { ...process.env, LEGACY_URL: legacyUrl, FORK: '1' },
    timeoutMs,
    afterStop: removeFolder,
  });
  return { ...server, path: '/graphql' };
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
