import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureMeshBuild } from '../gateway/src/org-graph/mesh-build.js';
import {
  buildOrganisation,
  defaultFixtureSize,
  unitUuid,
} from '../legacy-service/src/fixture/organisation.js';
import { collections } from '../legacy-service/src/model.js';
import { startLegacyService, type LegacyServer } from '../legacy-service/src/server.js';
import { startMeshServer } from './mesh-server.js';

/**
 * What `.meshrc.yaml` links beyond the reference query resolves on Mesh's own server too (the benchmark
 * peer), on one server for both: the detail types (addresses, associations, roles, leaves, KLE numbers,
 * related units, engagement associations) with the same keys as the legacy listings, a unit's `inherit`
 * argument, and the tree, class-hierarchy and version fields with the legacy listings' records.
 */
let dataDir: string;
let legacy: LegacyServer;
let mesh: Awaited<ReturnType<typeof startMeshServer>>;

beforeAll(async () => {
  await ensureMeshBuild();
  dataDir = await mkdtemp(join(tmpdir(), 'mesh-peer-graph-'));
  legacy = await startLegacyService({ dataDir, port: 0 });
  mesh = await startMeshServer(legacy.url);
}, 120_000);

afterAll(async () => {
  await mesh?.stop();
  await legacy?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

type Json = Record<string, any>;
const uuidOf = (value: unknown) => (value as { uuid: string } | null | undefined)?.uuid ?? null;

describe("Mesh's own server on the detail types", () => {
  it('reads every detail type of units with the keys and links of the legacy records', async () => {
    const units = Array.from({ length: 6 }, (_, index) => unitUuid(index));
    const response = await fetch(`${mesh.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        query: `query All($uuids: [UUID!]) { org_units(filter: { uuids: $uuids }) { objects {
          uuid
          addresses { uuid org_unit_uuid org_unit { uuid } }
          associations { uuid employee_uuid org_unit_uuid }
          roles { uuid employee_uuid employee { uuid } }
          kles { uuid kle_aspects { uuid } org_unit_uuid }
          related_units { uuid org_unit_uuids }
          engagement_associations { uuid engagement_uuid org_unit_uuid }
          leaves { uuid }
        } } }`,
        variables: { uuids: units },
      }),
    });
    const body = (await response.json()) as { data: Json; errors?: unknown };
    expect(body.errors).toBeUndefined();
    for (const unit of body.data.org_units.objects as Json[]) {
      const read = async (type: string): Promise<Json[]> =>
        (await fetch(`${legacy.url}/service/ou/${unit.uuid}/details/${type}`)).json() as Promise<Json[]>;
      const byUuid = (a: Json, b: Json) => String(a.uuid).localeCompare(String(b.uuid));
      expect([...unit.addresses].sort(byUuid)).toEqual(
        (await read('address'))
          .map((r) => ({
            uuid: r.uuid,
            org_unit_uuid: uuidOf(r.org_unit),
            org_unit: { uuid: uuidOf(r.org_unit) },
          }))
          .sort(byUuid),
      );
      expect([...unit.associations].sort(byUuid)).toEqual(
        (await read('association'))
          .map((r) => ({ uuid: r.uuid, employee_uuid: uuidOf(r.person), org_unit_uuid: uuidOf(r.org_unit) }))
          .sort(byUuid),
      );
      expect([...unit.roles].sort(byUuid)).toEqual(
        (await read('role'))
          .map((r) => ({
            uuid: r.uuid,
            employee_uuid: uuidOf(r.person),
            employee: { uuid: uuidOf(r.person) },
          }))
          .sort(byUuid),
      );
      expect([...unit.kles].sort(byUuid)).toEqual(
        (await read('kle'))
          .map((r) => ({
            uuid: r.uuid,
            kle_aspects: (r.kle_aspect as Json[]).map((a) => ({ uuid: a.uuid })),
            org_unit_uuid: uuidOf(r.org_unit),
          }))
          .sort(byUuid),
      );
      expect([...unit.related_units].sort(byUuid)).toEqual(
        (await read('related_unit'))
          .map((r) => ({ uuid: r.uuid, org_unit_uuids: (r.org_unit as Json[]).map(uuidOf) }))
          .sort(byUuid),
      );
      expect([...unit.engagement_associations].sort(byUuid)).toEqual(
        (await read('engagement_association'))
          .map((r) => ({
            uuid: r.uuid,
            engagement_uuid: uuidOf(r.engagement),
            org_unit_uuid: uuidOf(r.org_unit),
          }))
          .sort(byUuid),
      );
    }
    const all = body.data.org_units.objects as Json[];
    expect(all.flatMap((unit) => unit.addresses as Json[]).length).toBeGreaterThan(0);
  });

  it("passes a unit's `inherit` argument on as the listing's flag (`inherit_manager`, `inherit_owner`)", async () => {
    const units = Array.from({ length: 40 }, (_, index) => unitUuid(index));
    const response = await fetch(`${mesh.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        query: `query Inherit($uuids: [UUID!]) { org_units(filter: { uuids: $uuids }) { objects {
          uuid
          managers { uuid }
          inherited_managers: managers(inherit: true) { uuid }
          owners { uuid }
          inherited_owners: owners(inherit: true) { uuid }
        } } }`,
        variables: { uuids: units },
      }),
    });
    const body = (await response.json()) as { data: Json; errors?: unknown };
    expect(body.errors).toBeUndefined();
    const uuids = async (path: string) => ((await read(path)) as Json[]).map(uuidOf);
    let inheritedOnly = 0;
    for (const unit of body.data.org_units.objects as Json[]) {
      const details = `/service/ou/${unit.uuid}/details`;
      expect(unit.managers.map(uuidOf)).toEqual(await uuids(`${details}/manager`));
      expect(unit.inherited_managers.map(uuidOf)).toEqual(
        await uuids(`${details}/manager?inherit_manager=1`),
      );
      expect(unit.owners.map(uuidOf)).toEqual(await uuids(`${details}/owner`));
      expect(unit.inherited_owners.map(uuidOf)).toEqual(await uuids(`${details}/owner?inherit_owner=1`));
      if (unit.owners.length === 0 && unit.inherited_owners.length > 0) inheritedOnly += 1;
    }
    // Some of these units have no owner of their own but an ancestor's, so the flag changes the answer.
    expect(inheritedOnly).toBeGreaterThan(0);
  });
});

const read = async (path: string): Promise<any> => (await fetch(`${legacy.url}${path}`)).json();

describe("Mesh's own server on trees, class hierarchies and versions", () => {
  it('answers ancestors, child counts, versions and class children as the legacy reads do', async () => {
    const [uuid] = buildOrganisation(defaultFixtureSize)
      .filter((mutation) => mutation.collection === collections.orgUnit)
      .filter((mutation) => (mutation.value as unknown as { versions: unknown[] }).versions.length === 3)
      .map((mutation) => mutation.uuid);
    const response = await fetch(`${mesh.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        query: `query Tree($uuids: [UUID!]) { org_units(filter: { uuids: $uuids }) { objects {
          uuid child_count ancestors { uuid }
          past: validities(validity: PAST) { name validity { from to } }
          future: validities(validity: FUTURE) { name validity { from to } }
          org_unit_type { uuid child_count facet { top_level_classes { uuid name user_key child_count } } }
        } } }`,
        variables: { uuids: [uuid] },
      }),
    });
    const body = (await response.json()) as { data: Json; errors?: unknown };
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    const [unit] = body.data.org_units.objects as Json[];
    const record = await read(`/service/ou/${uuid}/`);
    const chain: string[] = [];
    for (let parent = record.parent; parent; parent = parent.parent) chain.push(parent.uuid);
    expect(unit!.ancestors.map((ancestor: Json) => ancestor.uuid)).toEqual(chain);
    expect(unit!.child_count).toBe((await read(`/service/ou/${uuid}/children`)).length);
    for (const scope of ['past', 'future']) {
      const versions = (await read(`/service/ou/${uuid}/details/org_unit?validity=${scope}`)) as Json[];
      expect(versions).toHaveLength(1);
      expect(unit![scope]).toEqual(versions.map(({ name, validity }) => ({ name, validity })));
    }
    expect(unit!.org_unit_type.child_count).toBe(0);
    expect(unit!.org_unit_type.facet.top_level_classes).toEqual(
      await read('/service/f/org_unit_type/children'),
    );
  }, 60_000);

  it('answers a class’s children', async () => {
    const kles = (await read('/service/f/kle_number/children')) as Json[];
    const group = kles.find((record) => record.child_count > 0)!;
    // Mesh's graph reaches classes through units: a KLE number of a unit, here the group's children.
    const holder = buildOrganisation(defaultFixtureSize).find(
      (mutation) =>
        mutation.collection === collections.kle &&
        (mutation.value as unknown as { versions: { kle_number: string }[] }).versions[0]!.kle_number ===
          group.uuid,
    );
    expect(holder).toBeDefined();
    const unitUuid = (holder!.value as unknown as { versions: { org_unit: string }[] }).versions[0]!.org_unit;
    const response = await fetch(`${mesh.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        query: `query Kle($uuids: [UUID!]) { org_units(filter: { uuids: $uuids }) { objects {
          kles { kle_number { uuid child_count children { uuid name user_key child_count } } }
        } } }`,
        variables: { uuids: [unitUuid] },
      }),
    });
    const body = (await response.json()) as { data: Json; errors?: unknown };
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    const numbers = (body.data.org_units.objects[0].kles as Json[]).map((kle) => kle.kle_number);
    const number = numbers.find((value) => value.uuid === group.uuid)!;
    expect(number.child_count).toBe(group.child_count);
    expect(number.children).toEqual(await read(`/service/c/${group.uuid}/children`));
  }, 60_000);
});
