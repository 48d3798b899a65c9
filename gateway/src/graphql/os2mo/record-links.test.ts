import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, startStubBackend, type StubBackend } from '../../legacy/stub-backend.test-helpers.js';
import { answerStubOrg, stubOrg, stubbedVersions, type StubbedVersions } from '../stub-org.test-helpers.js';

/**
 * Links between detail records and up the unit tree, as OS2mo's `mora/graphapi/collections/` (@HEAD) give
 * them, read from what the Service API's records embed: an address's or a leave's engagement, an
 * association's dynamic class, a unit's root, and the addresses that name an engagement.
 */
let backend: StubBackend;
let versions: StubbedVersions;
const validity = { from: '2020-01-01', to: null };
const id = (n: number) => `0a000000-0000-4000-8000-0000000001${String(n).padStart(2, '0')}`;
const finance = { uuid: stubOrg.unit, name: 'Finance', user_key: 'finance', validity };
const team = { uuid: id(1), name: 'Team', user_key: 'team', validity };
const person = { uuid: stubOrg.person, name: 'Anne Hansen' };
const engagement = {
  uuid: '0a000000-0000-4000-8000-000000000011',
  user_key: 'E1',
  person,
  org_unit: finance,
  job_function: { uuid: stubOrg.jobFunction, name: 'Accountant', user_key: 'accountant' },
  engagement_type: null,
  validity,
};
const addressType = { uuid: id(2), name: 'Phone', user_key: 'phone', scope: 'PHONE' };
const address = (n: number, fields: Record<string, unknown>) => ({
  uuid: id(n),
  user_key: `A${n}`,
  name: `555-000${n}`,
  value: `555-000${n}`,
  href: null,
  address_type: addressType,
  validity,
  ...fields,
});
const union = (n: number) => ({ uuid: id(n), name: `Union ${n}`, user_key: `u${n}` });
const association = (n: number, dynamic: object[]) => ({
  uuid: id(n),
  user_key: `S${n}`,
  person,
  org_unit: finance,
  association_type: null,
  primary: null,
  substitute: null,
  dynamic_classes: dynamic,
  validity,
});

beforeAll(async () => {
  backend = await startStubBackend();
  backend.answer((request, response) => {
    const path = request.url.replace(/\?.*$/, '');
    const answers: Record<string, unknown> = {
      [`/service/ou/${team.uuid}/`]: { ...team, parent: { ...finance, parent: null } },
      [`/service/ou/${finance.uuid}/details/address`]: [
        address(10, { org_unit: finance, person: null }),
        address(11, { org_unit: finance, person: null, engagement }),
      ],
      [`/service/e/${person.uuid}/details/address`]: [
        address(12, { person, org_unit: null, engagement }),
        address(13, { person, org_unit: null, engagement: { uuid: id(99) } }),
      ],
      [`/service/e/${person.uuid}/details/leave`]: [
        { uuid: id(20), user_key: 'L', person, leave_type: union(21), engagement, validity },
      ],
      [`/service/ou/${finance.uuid}/details/association`]: [
        association(30, []),
        association(31, [union(32)]),
      ],
      [`/service/ou/${team.uuid}/details/association`]: [association(33, [union(34), union(35)])],
    };
    if (path in answers) return json(response, 200, answers[path]);
    return answerStubOrg(request, response);
  });
  versions = stubbedVersions(backend);
});
afterAll(async () => {
  await versions.close();
  await backend.close();
});
beforeEach(() => {
  backend.received.length = 0;
});

const ask = async (query: string, variables: Record<string, unknown> = {}) => {
  const { body } = await versions.ask('v30', query, { variables });
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data;
};

describe("an engagement's addresses and leave", () => {
  it("pages the addresses of the engagement's person and unit that name it; names no leave", async () => {
    const data = await ask(
      `query($person: UUID!) { engagements(filter: {employee: {uuids: [$person]}}) { objects { current {
        addresses_response { objects { uuid current { value } } page_info { next_cursor } }
        first: addresses_response(limit: 1) { objects { uuid } page_info { next_cursor } }
        leave { uuid } leave_uuid leave_response { uuid }
      } } } }`,
      { person: person.uuid },
    );
    const current = data.engagements.objects[0].current;
    expect(current.addresses_response.objects).toEqual([
      { uuid: id(12), current: { value: '555-00012' } },
      { uuid: id(11), current: { value: '555-00011' } },
    ]);
    expect(current.first.objects).toEqual([{ uuid: id(12) }]);
    expect(current.first.page_info.next_cursor).not.toBeNull();
    expect(current).toMatchObject({ leave: null, leave_uuid: null, leave_response: null });
  });

  it("narrows the engagement's addresses by OS2mo's `EngagementBoundAddressFilter`, as `addresses` does", async () => {
    const data = await ask(
      `query($person: UUID!, $unit: UUID!) { engagements(filter: {employee: {uuids: [$person]}}) { objects { current {
        keyed: addresses_response(filter: {user_keys: ["A11"]}) { objects { uuid } }
        unit: addresses_response(filter: {org_unit: {uuids: [$unit]}}) { objects { uuid } }
        none: addresses_response(filter: {user_keys: ["A13"]}) { objects { uuid } }
        paged: addresses_response(filter: {address_types: ["${id(2)}"]}, limit: 1) { objects { uuid } }
      } } } }`,
      { person: person.uuid, unit: finance.uuid },
    );
    expect(data.engagements.objects[0].current).toEqual({
      keyed: { objects: [{ uuid: id(11) }] },
      unit: { objects: [{ uuid: id(11) }] },
      none: { objects: [] },
      paged: { objects: [{ uuid: id(12) }] },
    });
  });
});

describe("an address's and a leave's engagement", () => {
  it('is the engagement the record embeds; an address without one has none', async () => {
    const data = await ask(
      `query($person: UUID!, $unit: UUID!) {
        person: addresses(filter: {employee: {uuids: [$person]}}) { objects { current { uuid engagement { uuid user_key } } } }
        unit: addresses(filter: {org_unit: {uuids: [$unit]}}) { objects { current { uuid engagement { uuid } } } }
        leaves(filter: {employee: {uuids: [$person]}}) { objects { current { engagement { uuid user_key } } } }
      }`,
      { person: person.uuid, unit: finance.uuid },
    );
    const engagementOf = (list: { objects: { current: { uuid: string; engagement: unknown } }[] }) =>
      Object.fromEntries(list.objects.map((o) => [o.current.uuid, o.current.engagement]));
    // An engagement with no version on the address's date (embedded as `{uuid}` alone) is none.
    expect(engagementOf(data.person)).toEqual({
      [id(12)]: [{ uuid: engagement.uuid, user_key: 'E1' }],
      [id(13)]: [],
    });
    expect(engagementOf(data.unit)).toEqual({ [id(10)]: null, [id(11)]: [{ uuid: engagement.uuid }] });
    expect(data.leaves.objects[0].current.engagement).toEqual({ uuid: engagement.uuid, user_key: 'E1' });
    expect(backend.received.map((request) => request.url)).not.toContainEqual(
      expect.stringContaining('/details/engagement'),
    );
  });
});

describe("an association's dynamic class", () => {
  it('is its one dynamic class, or none', async () => {
    const data = await ask(
      `query($unit: UUID!) { associations(filter: {org_unit: {uuids: [$unit]}}) { objects { current {
        uuid dynamic_class_uuid dynamic_class { name } dynamic_class_response { uuid current { user_key } }
      } } } }`,
      { unit: finance.uuid },
    );
    expect(data.associations.objects.map((o: { current: unknown }) => o.current)).toEqual([
      { uuid: id(30), dynamic_class_uuid: null, dynamic_class: null, dynamic_class_response: null },
      {
        uuid: id(31),
        dynamic_class_uuid: id(32),
        dynamic_class: { name: 'Union 32' },
        dynamic_class_response: { uuid: id(32), current: { user_key: 'u32' } },
      },
    ]);
  });

  it('is refused with a code for an association with more than one, as OS2mo refuses', async () => {
    const { body } = await versions.ask(
      'v30',
      `query($unit: UUID!) { associations(filter: {org_unit: {uuids: [$unit]}}) { objects { current {
        dynamic_class_uuid } } } }`,
      { variables: { unit: team.uuid } },
    );
    expect(body.errors?.[0]?.extensions?.code).toBe('MORE_THAN_ONE_DYNAMIC_CLASS');
  });
});

describe("a unit's root", () => {
  it('is the top-level unit above it, or the unit itself at the top', async () => {
    const data = await ask(
      `query($uuids: [UUID!]) { org_units(filter: {uuids: $uuids}) { objects { current {
        name root { name } root_response { uuid current { name } }
      } } } }`,
      { uuids: [team.uuid, finance.uuid] },
    );
    const rootOf = {
      root: [{ name: 'Finance' }],
      root_response: { uuid: finance.uuid, current: { name: 'Finance' } },
    };
    expect(data.org_units.objects.map((o: { current: unknown }) => o.current)).toEqual([
      { name: 'Team', ...rootOf },
      { name: 'Finance', ...rootOf },
    ]);
  });
});
