import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceQuery } from '../gateway/src/graphql/reference-query.js';
import { ensureMeshBuild } from '../gateway/src/org-graph/mesh-build.js';
import {
  classUuid,
  organisationUuid,
  referenceUnitUuids,
  unitUuid,
} from '../legacy-service/src/fixture/organisation.js';
import { startLegacyService, type LegacyServer } from '../legacy-service/src/server.js';
import { planOf, sortPlan, startCountingProxy } from './counting-proxy.js';
import { startMeshServer } from './mesh-server.js';

/**
 * Mesh's own server on the same `.meshrc.yaml`, the peer of the benchmark (issue 6): it must answer the
 * specification's reference query with the legacy data, and this test counts the legacy requests that
 * costs and their dependent rounds (the counting proxy holds calls in waves, see `counting-proxy.ts`).
 */

/** The caller's credential: Mesh's server must send it on to the legacy service on every call. */
const callerAuthorization = 'Bearer mesh-peer-test-token';

let dataDir: string;
let legacy: LegacyServer;
let proxy: Awaited<ReturnType<typeof startCountingProxy>>;
let mesh: Awaited<ReturnType<typeof startMeshServer>>;

beforeAll(async () => {
  await ensureMeshBuild();
  dataDir = await mkdtemp(join(tmpdir(), 'mesh-peer-'));
  legacy = await startLegacyService({ dataDir, port: 0 });
  proxy = await startCountingProxy(legacy.url);
  mesh = await startMeshServer(proxy.url);
}, 120_000);

afterAll(async () => {
  await mesh?.stop();
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

async function meshQuery(query: string, variables: Record<string, unknown> = {}): Promise<any> {
  const response = await fetch(`${mesh.url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: callerAuthorization,
    },
    body: JSON.stringify({ query, variables }),
  });
  expect(response.status).toBe(200);
  return response.json();
}

/** Runs a query and returns its answer with the legacy calls it caused. */
async function meshQueryCounted(query: string, variables: Record<string, unknown> = {}) {
  const first = proxy.calls.length;
  const body = await meshQuery(query, variables);
  return { body, calls: proxy.calls.slice(first) };
}

describe("Mesh's own server on .meshrc.yaml", () => {
  it('answers the reference query with the legacy data, in 12 legacy requests over 4 dependent rounds', async () => {
    const { body, calls } = await meshQueryCounted(referenceQuery, { uuids: referenceUnitUuids });

    const managersByUnit = await Promise.all(
      referenceUnitUuids.map((uuid) => legacyJson(`/service/ou/${uuid}/details/manager`)),
    );
    const expectedUnits = await Promise.all(
      referenceUnitUuids.map(async (uuid, index) => ({
        name: (await legacyJson(`/service/ou/${uuid}/`)).name,
        managers: await Promise.all(
          managersByUnit[index].map(async (manager: any) => ({
            manager_type: { user_key: manager.manager_type.user_key },
            employee:
              manager.person === null
                ? null
                : {
                    name: (await legacyJson(`/service/e/${manager.person.uuid}/`)).name,
                    engagements: (
                      await legacyJson(`/service/e/${manager.person.uuid}/details/engagement`)
                    ).map((engagement: any) => ({
                      job_function: { user_key: engagement.job_function.user_key },
                    })),
                  },
          })),
        ),
      })),
    );
    expect(body).toEqual({ data: { org_units: { objects: expectedUnits } } });

    // Mesh reads each unit, then its managers, then each manager's employee, then their engagements:
    // one legacy call per object and link, none deduplicated or batched, each round after the last.
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
    // Backend authentication: `.meshrc.yaml` relays the caller's token on every legacy call.
    expect(calls.map((call) => call.authorization)).toEqual(calls.map(() => callerAuthorization));
  });

  it('serves a vacant manager position with a null employee', async () => {
    const unit = unitUuid(5);
    const created = await fetch(`${legacy.url}/service/details/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'manager',
        person: null,
        org_unit: { uuid: unit },
        manager_type: { uuid: classUuid('manager_type', 'head_of_department') },
        manager_level: { uuid: classUuid('manager_level', 'level_2') },
        validity: { from: '2020-01-01' },
      }),
    });
    expect(created.status).toBe(201);
    const vacancy = (await created.json()) as string;

    const body = await meshQuery(
      /* GraphQL */ `
        query Vacancies($uuids: [UUID!]) {
          org_units(filter: { uuids: $uuids }) {
            objects {
              managers {
                uuid
                person {
                  name
                }
                employee {
                  name
                }
              }
            }
          }
        }
      `,
      { uuids: [unit] },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.org_units.objects[0].managers).toContainEqual({
      uuid: vacancy,
      person: null,
      employee: null,
    });
  });

  it('answers the organisation with its counts, and the detail types of a unit', async () => {
    const body = await meshQuery(
      'query Org($uuids: [UUID!]) { org { objects { uuid unit_count } } org_units(filter: { uuids: $uuids }) { objects { detail_types { address manager } } } }',
      { uuids: [referenceUnitUuids[0]] },
    );
    const summary = await legacyJson(`/service/o/${organisationUuid}/`);
    const types = await legacyJson(`/service/ou/${referenceUnitUuids[0]}/details/`);
    expect(body).toEqual({
      data: {
        org: { objects: [{ uuid: organisationUuid, unit_count: summary.unit_count }] },
        org_units: { objects: [{ detail_types: { address: types.address, manager: types.manager } }] },
      },
    });
  });

  it('lists the IT systems', async () => {
    const body = await meshQuery('{ itsystems { objects { name } } }');
    const systems = await legacyJson(`/service/o/${organisationUuid}/it/`);
    expect(systems.length).toBeGreaterThan(0);
    expect(body).toEqual({
      data: { itsystems: { objects: systems.map((system: { name: string }) => ({ name: system.name })) } },
    });
  });
});
