import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asReferenceShape, hiveReferenceBody, startHivePeer, type HivePeer } from '../bench/hive/peer.js';
import { organisationUuid, referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { startLegacyService, type LegacyServer } from '../legacy-service/src/server.js';
import { planOf, sortPlan, startCountingProxy } from './counting-proxy.js';

/**
 * The benchmark's second peer (issue 16): GraphQL Mesh v1 composed from the same OpenAPI contract
 * (`bench/hive/mesh.config.ts`) and served by Hive Gateway with request deduplication. It must answer the
 * specification's reference data, relay the caller's token, and this test counts the legacy calls and
 * dependent rounds that costs (the counting proxy holds calls in waves, see `counting-proxy.ts`).
 */

const callerAuthorization = 'Bearer hive-peer-test-token';

let dataDir: string;
let legacy: LegacyServer;
let proxy: Awaited<ReturnType<typeof startCountingProxy>>;
let hive: HivePeer;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'hive-peer-'));
  legacy = await startLegacyService({ dataDir, port: 0 });
  proxy = await startCountingProxy(legacy.url);
  hive = await startHivePeer(proxy.url, { timeoutMs: 90_000 });
}, 120_000);

afterAll(async () => {
  await hive?.stop();
  await proxy?.close();
  await legacy?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** A legacy read made directly, not through the counting proxy. */
async function legacyJson(path: string): Promise<any> {
  const response = await fetch(`${legacy.url}${path}`);
  expect(response.status).toBe(200);
  return response.json();
}

/** Posts a body to Hive Gateway and returns its answer with the legacy calls it caused. */
async function hiveCounted(body: string) {
  const first = proxy.calls.length;
  const response = await fetch(`${hive.url}${hive.path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: callerAuthorization,
    },
    body,
  });
  expect(response.status).toBe(200);
  return { body: (await response.json()) as any, calls: proxy.calls.slice(first) };
}

describe('Hive Gateway on the Mesh v1 composition of the contract', () => {
  it('answers the reference data in 12 legacy requests over 4 dependent rounds, relaying the token', async () => {
    const { body, calls } = await hiveCounted(hiveReferenceBody(referenceUnitUuids));

    const managersByUnit = await Promise.all(
      referenceUnitUuids.map((uuid) => legacyJson(`/service/ou/${uuid}/details/manager`)),
    );
    const expectedUnits = await Promise.all(
      referenceUnitUuids.map(async (uuid, index) => ({
        name: (await legacyJson(`/service/ou/${uuid}/`)).name,
        managers: await Promise.all(
          managersByUnit[index].map(async (manager: any) => ({
            manager_type: { user_key: manager.manager_type.user_key },
            employee: {
              name: (await legacyJson(`/service/e/${manager.person.uuid}/`)).name,
              engagements: (await legacyJson(`/service/e/${manager.person.uuid}/details/engagement`)).map(
                (engagement: any) => ({ job_function: { user_key: engagement.job_function.user_key } }),
              ),
            },
          })),
        ),
      })),
    );
    expect(body.errors).toBeUndefined();
    expect(asReferenceShape(body.data, referenceUnitUuids.length)).toEqual({
      org_units: { objects: expectedUnits },
    });

    // Like Mesh v0: each unit, then its managers, then each manager's person, then their engagements,
    // one legacy call per object and link, each round after the last.
    const managerUuids = managersByUnit.flat().map((manager: any) => manager.person.uuid as string);
    expect(managerUuids).toHaveLength(3);
    const expectedPlan = [
      ...referenceUnitUuids.map((uuid) => ({ path: `/service/ou/${uuid}/`, round: 1 })),
      ...referenceUnitUuids.map((uuid) => ({ path: `/service/ou/${uuid}/details/manager`, round: 2 })),
      ...managerUuids.map((uuid) => ({ path: `/service/e/${uuid}/`, round: 3 })),
      ...managerUuids.map((uuid) => ({ path: `/service/e/${uuid}/details/engagement`, round: 4 })),
    ];
    expect(planOf(calls)).toEqual(sortPlan(expectedPlan));
    expect(calls.every((call) => call.method === 'GET')).toBe(true);
    expect(calls.map((call) => call.authorization)).toEqual(calls.map(() => callerAuthorization));
  });

  it('reads a unit asked twice in one request once (request deduplication is on)', async () => {
    const [unit] = referenceUnitUuids;
    const { body, calls } = await hiveCounted(
      JSON.stringify({
        query: 'query Twice($u: UUID!) { a: getOrgUnit(uuid: $u) { name } b: getOrgUnit(uuid: $u) { name } }',
        variables: { u: unit },
      }),
    );
    const { name } = await legacyJson(`/service/ou/${unit}/`);
    expect(body).toEqual({ data: { a: { name }, b: { name } } });
    expect(calls.map((call) => call.path)).toEqual([`/service/ou/${unit}/`]);
  });

  it('lists the IT systems', async () => {
    const { body } = await hiveCounted(
      JSON.stringify({
        query: 'query Systems($org: UUID!) { listItSystems(org: $org) { name } }',
        variables: { org: organisationUuid },
      }),
    );
    const systems = await legacyJson(`/service/o/${organisationUuid}/it/`);
    expect(systems.length).toBeGreaterThan(0);
    expect(body).toEqual({
      data: { listItSystems: systems.map((system: { name: string }) => ({ name: system.name })) },
    });
  });
});
