import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureMeshBuild } from '../gateway/src/org-graph/mesh-build.js';
import { buildOrganisation, defaultFixtureSize } from '../legacy-service/src/fixture/organisation.js';
import { collections } from '../legacy-service/src/model.js';
import { startLegacyService, type LegacyServer } from '../legacy-service/src/server.js';
import { startMeshServer } from './mesh-server.js';

/**
 * The tree, class-hierarchy and version fields `.meshrc.yaml` declares resolve on Mesh's own server too
 * (the benchmark peer), with the legacy listings' records.
 */
let dataDir: string;
let legacy: LegacyServer;
let mesh: Awaited<ReturnType<typeof startMeshServer>>;

beforeAll(async () => {
  await ensureMeshBuild();
  dataDir = await mkdtemp(join(tmpdir(), 'mesh-peer-hierarchy-'));
  legacy = await startLegacyService({ dataDir, port: 0 });
  mesh = await startMeshServer(legacy.url);
}, 120_000);

afterAll(async () => {
  await mesh?.stop();
  await legacy?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

type Json = Record<string, any>;
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
