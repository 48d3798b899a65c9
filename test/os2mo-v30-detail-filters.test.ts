import { beforeAll, describe, expect, it } from 'vitest';
import { postGraphQL, signIn, sharedReadOnlyStack, type GraphQLSession, type TestStack } from './stack.js';

/**
 * OS2mo's detail filters by what a record links to (its address type, visibility, IT system, association
 * type, owner), over the seeded stand-in through the whole stack. Each expectation is worked out from the
 * unfiltered listing's own links, so a filter is held to the records as the Service API tells them. The
 * cases follow OS2mo's `tests/graphapi/test_addresses.py`, `test_itusers.py`, `test_associations.py` and
 * `test_owners.py` at HEAD; the members 2.x never holds a value for follow `mora/graphapi/resolvers.py`@HEAD.
 */
let stack: TestStack;
let nora: GraphQLSession;
beforeAll(async () => {
  stack = await sharedReadOnlyStack();
  nora = await signIn(stack, 'nora');
});

interface Ref {
  uuid: string;
  user_key: string;
}
type Linked = { uuid: string } & Record<string, Ref | null | string>;

/** The UUIDs of a root collection's objects under a filter, sorted; `fields` picks the links to read. */
async function listed(root: string, filterType: string, filter: Record<string, unknown>, fields = '') {
  const body = await nora.ask(
    'v30',
    `query List($filter: ${filterType}!) { ${root}(filter: $filter) { objects { current { uuid ${fields} } } } }`,
    { filter },
  );
  expect(body.errors).toBeUndefined();
  return (body.data![root].objects as { current: Linked }[]).map((response) => response.current);
}
const uuids = (records: readonly { uuid: string }[]) => records.map((record) => record.uuid).sort();
const linkedTo = (records: readonly Linked[], field: string, uuid: string) =>
  uuids(records.filter((record) => (record[field] as Ref | null)?.uuid === uuid));

/** A link value held by some but not all records, when the seed has one (else any held value). */
function telling(records: readonly Linked[], field: string): Ref {
  const held = records.map((record) => record[field] as Ref | null).filter((ref): ref is Ref => ref !== null);
  const partial = held.find((ref) => held.some((other) => other.uuid !== ref.uuid));
  expect(held.length).toBeGreaterThan(0);
  return partial ?? held[0]!;
}

describe('v30: AddressFilter by address type and visibility', () => {
  it('`address_type` (by UUID or user key) and its deprecated lists keep the addresses of that type', async () => {
    const all = await listed('addresses', 'AddressFilter', {}, 'address_type { uuid user_key }');
    const type = telling(all, 'address_type');
    const expected = linkedTo(all, 'address_type', type.uuid);
    expect(expected.length).toBeLessThan(all.length);
    const by = async (filter: Record<string, unknown>) =>
      uuids(await listed('addresses', 'AddressFilter', filter));
    expect(await by({ address_type: { uuids: [type.uuid] } })).toEqual(expected);
    expect(await by({ address_type: { user_keys: [type.user_key] } })).toEqual(expected);
    expect(await by({ address_types: [type.uuid] })).toEqual(expected);
    expect(await by({ address_type_user_keys: [type.user_key] })).toEqual(expected);
    expect(await by({ address_type: { uuids: [] } })).toEqual([]);
    expect(await by({ address_type: null })).toEqual(uuids(all));
  });

  it('`visibility` keeps the addresses with that visibility', async () => {
    const all = await listed('addresses', 'AddressFilter', {}, 'visibility { uuid user_key }');
    const visibility = telling(all, 'visibility');
    const found = uuids(
      await listed('addresses', 'AddressFilter', { visibility: { uuids: [visibility.uuid] } }),
    );
    expect(found).toEqual(linkedTo(all, 'visibility', visibility.uuid));
  });

  it('`ituser` keeps none: a 2.x address never names an IT account', async () => {
    expect(await listed('addresses', 'AddressFilter', { ituser: {} })).toEqual([]);
  });
});

describe('v30: ITUserFilter by IT system', () => {
  it('`itsystem` (by UUID or user key) and `itsystem_uuids` keep the accounts in that system', async () => {
    const all = await listed('itusers', 'ITUserFilter', {}, 'itsystem { uuid user_key }');
    const system = telling(all, 'itsystem');
    const expected = linkedTo(all, 'itsystem', system.uuid);
    const by = async (filter: Record<string, unknown>) =>
      uuids(await listed('itusers', 'ITUserFilter', filter));
    expect(await by({ itsystem: { uuids: [system.uuid] } })).toEqual(expected);
    expect(await by({ itsystem: { user_keys: [system.user_key] } })).toEqual(expected);
    expect(await by({ itsystem_uuids: [system.uuid] })).toEqual(expected);
  });

  it('2.x accounts have no external id, binding type or engagement: a list keeps none, v30 `external_ids: null` all', async () => {
    const all = uuids(await listed('itusers', 'ITUserFilter', {}));
    expect(all.length).toBeGreaterThan(0);
    const by = async (filter: Record<string, unknown>) =>
      uuids(await listed('itusers', 'ITUserFilter', filter));
    expect(await by({ external_ids: null })).toEqual(all);
    expect(await by({ external_ids: ['an-external-id'] })).toEqual([]);
    expect(await by({ binding_types: ['dummy'] })).toEqual([]);
    expect(await by({ engagement: {} })).toEqual([]);
  });

  // OS2mo's UI asks a unit's IT users through its engagements (os2mo-naldo
  // web/src/lib/components/tables/OrgITUserTable.svelte): what no 2.x account can match reads nothing.
  it('answers a filter no 2.x account can match without a legacy call', async () => {
    const { body } = await postGraphQL(
      stack,
      'v30',
      {
        query:
          'query { itusers(filter: { engagement: { org_unit: { uuids: [] } }, external_ids: null }) { objects { uuid } } }',
      },
      { authorization: `Bearer ${nora.token}`, trace: true },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.itusers.objects).toEqual([]);
    expect(body.extensions.upstream.requests).toBe(0);
  });
});

describe('v30: AssociationFilter by association type', () => {
  it('`association_type` and its deprecated lists keep the associations of that type', async () => {
    const all = await listed('associations', 'AssociationFilter', {}, 'association_type { uuid user_key }');
    const type = telling(all, 'association_type');
    const expected = linkedTo(all, 'association_type', type.uuid);
    const by = async (filter: Record<string, unknown>) =>
      uuids(await listed('associations', 'AssociationFilter', filter));
    expect(await by({ association_type: { uuids: [type.uuid] } })).toEqual(expected);
    expect(await by({ association_types: [type.uuid] })).toEqual(expected);
    expect(await by({ association_type_user_keys: [type.user_key] })).toEqual(expected);
  });

  it('`it_association`: a 2.x association is never one, so `true` keeps none and `false` all', async () => {
    const all = uuids(await listed('associations', 'AssociationFilter', {}));
    expect(all.length).toBeGreaterThan(0);
    expect(await listed('associations', 'AssociationFilter', { it_association: true })).toEqual([]);
    expect(uuids(await listed('associations', 'AssociationFilter', { it_association: false }))).toEqual(all);
  });
});

describe('v30: OwnerFilter by owner, ClassFilter by IT system', () => {
  it('`owner` keeps the ownerships held by those people', async () => {
    const all = await listed('owners', 'OwnerFilter', {}, 'owner_response { uuid }');
    const owner = telling(all, 'owner_response');
    const found = uuids(await listed('owners', 'OwnerFilter', { owner: { uuids: [owner.uuid] } }));
    expect(found).toEqual(linkedTo(all, 'owner_response', owner.uuid));
  });

  it('`it_system` keeps no class: a 2.x class names no IT system', async () => {
    expect((await listed('classes', 'ClassFilter', {})).length).toBeGreaterThan(0);
    expect(await listed('classes', 'ClassFilter', { it_system: {} })).toEqual([]);
  });
});

describe('v30: root listings without a unit or person filter', () => {
  it("`addresses` and `itusers` list people's records as well as units'", async () => {
    const body = await nora.ask(
      'v30',
      '{ employees(limit: 10) { objects { current { addresses { uuid } itusers { uuid } } } } }',
    );
    expect(body.errors).toBeUndefined();
    const people = body.data!.employees.objects.map(
      (response: { current: Record<string, { uuid: string }[]> }) => response.current,
    );
    for (const [root, filterType, link] of [
      ['addresses', 'AddressFilter', 'addresses'],
      ['itusers', 'ITUserFilter', 'itusers'],
    ] as const) {
      const held = people.flatMap((person: Record<string, { uuid: string }[]>) => person[link]!);
      const listed_ = new Set(uuids(await listed(root, filterType, {})));
      expect(
        held.filter((record: { uuid: string }) => !listed_.has(record.uuid)),
        root,
      ).toEqual([]);
      expect(held.length, root).toBeGreaterThan(0);
    }
  });
});
