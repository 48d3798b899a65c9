import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureMeshBuild } from '../gateway/src/org-graph/mesh-build.js';
import { unitUuid } from '../legacy-service/src/fixture/organisation.js';
import { startLegacyService, type LegacyServer } from '../legacy-service/src/server.js';
import { startMeshServer } from './mesh-server.js';

/**
 * The detail types `.meshrc.yaml` links (addresses, associations, roles, leaves, KLE numbers, related units,
 * engagement associations) resolve on Mesh's own server too, with the same keys as the legacy listings.
 */
let dataDir: string;
let legacy: LegacyServer;
let mesh: Awaited<ReturnType<typeof startMeshServer>>;

beforeAll(async () => {
  await ensureMeshBuild();
  dataDir = await mkdtemp(join(tmpdir(), 'mesh-peer-details-'));
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
});
