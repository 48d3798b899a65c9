import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../auth/token-verifier.js';
import type { LegacyLoaders } from '../legacy/legacy-loaders.js';
import { useRbac } from './graphql-rbac.js';
import { createRbacPolicy } from './rbac-policy.js';
import type { OrganisationReads } from './unit-ownership.js';

const owner = '00000000-0000-4000-8000-000000000011';
const parent = '00000000-0000-4000-8000-000000000002';
const elsewhere = '00000000-0000-4000-8000-000000000005';
const principal: Principal = {
  subject: 's',
  username: 'olga',
  clientId: 'org-frontend',
  roles: ['owner'],
  employeeUuid: owner,
};

/** `parent` is a top unit the owner owns; every other unit is a top unit no one owns. */
const reads = {
  orgUnit: async (uuid: string) => ({ uuid, parent: null }),
  unitDetails: async (type: string, uuid: string) =>
    type === 'owner' && uuid === parent ? [{ uuid: 'o', owner: { uuid: owner }, org_unit: { uuid } }] : [],
  orgUnitVersions: async () => [],
  unitExists: async () => false,
} as unknown as OrganisationReads;

/** The plugin's guarded `post`, as a mutation resolver calls it, and what reached the legacy write. */
function guardedPost() {
  const posted: unknown[] = [];
  const legacy = {
    post: async (_path: string, body: unknown) => {
      posted.push(body);
      return 'written';
    },
    freshOwnershipReads: () => reads,
  } as unknown as LegacyLoaders;
  let guarded: LegacyLoaders | undefined;
  const plugin = useRbac({ policy: createRbacPolicy({ enabled: true }) });
  plugin.onContextBuilding!({
    context: { legacy, principal, today: '2026-06-01' },
    extendContext: (extension: { legacy: LegacyLoaders }) => {
      guarded = extension.legacy;
    },
  } as never);
  return { post: guarded!.post, judge: guarded!.judge, posted };
}

// Issue 35, item 8: a mutation is decided by the body it posts, so records nested in it are judged too.
describe('useRbac', () => {
  const create = (details: unknown[]) => ({
    name: 'Carrier',
    parent: { uuid: parent },
    org_unit_type: { uuid: parent },
    validity: { from: '2026-01-01' },
    details,
  });

  it('judges the records a unit create carries, as /service does', async () => {
    const { post, posted } = guardedPost();
    const ownerRecord = (unit: string) => ({
      type: 'owner',
      org_unit: { uuid: unit },
      owner: { uuid: '00000000-0000-4000-8000-000000000099' },
      validity: { from: '2026-01-01' },
    });
    const refused = post('/service/ou/create', create([ownerRecord(elsewhere)]));
    await expect(refused).rejects.toThrow(GraphQLError);
    await expect(refused).rejects.toMatchObject({ extensions: { code: 'FORBIDDEN' } });
    await expect(refused).rejects.toThrow(elsewhere);
    expect(posted).toEqual([]);
    await expect(post('/service/ou/create', create([ownerRecord(parent)]))).resolves.toBe('written');
    expect(posted).toHaveLength(1);
  });

  it('judges a write without sending it, as `post` would (a mutation that reads first asks it)', async () => {
    const { judge, posted } = guardedPost();
    const edit = (unit: string) => ({
      type: 'org_unit',
      uuid: unit,
      data: { uuid: unit, name: 'Renamed', validity: { from: '2026-01-01' } },
    });
    const refused = judge('/service/details/edit', edit(elsewhere));
    await expect(refused).rejects.toMatchObject({ extensions: { code: 'FORBIDDEN' } });
    await expect(judge('/service/details/edit', edit(parent))).resolves.toBeUndefined();
    expect(posted).toEqual([]);
  });
});
