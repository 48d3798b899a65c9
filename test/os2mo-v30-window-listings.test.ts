import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedUnitDates } from '../legacy-service/src/fixture/organisation.js';
import { postGraphQL, sharedReadOnlyStack, startTestStack, type TestStack } from './stack.js';

/**
 * A collection's window wider than a day lists every object with a version in it, as OS2mo's does (its
 * resolvers ask LoRa for the objects whose validity touches `[from_date, to_date)`), through OS2mo 2.4.0's
 * reading API (`/api/v1/{type}?validity=FROM/TO`, `backend/mora/api/v1/reading_endpoints.py`@2.4.0) in one
 * legacy call. Before, `persons(filter: {from_date: null, to_date})` was read as of the window's first day and
 * ignored its end, and a detail type over all time walked every owner's listings past the call budget. A
 * backend without the reading API gets a unit or person listing over such a window refused, never ignored.
 */
type Json = Record<string, any>;

let stack: TestStack;
let withoutReadingApi: TestStack;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  stack = await sharedReadOnlyStack();
  withoutReadingApi = await startTestStack({ legacyProxy: { notFound: /^\/api\/v1\// } });
  tokens.shared = `Bearer ${await stack.token('nora')}`;
  tokens.older = `Bearer ${await withoutReadingApi.token('nora')}`;
});
afterAll(async () => {
  await withoutReadingApi?.close();
});

async function listed(on: TestStack, root: string, filter: Json) {
  const answer = await postGraphQL(
    on,
    'v30',
    {
      query: `query($f: Json) { ${root}(filter: $f) { objects { uuid } } }`.replace(
        'Json',
        filterType[root]!,
      ),
      variables: { f: filter },
    },
    { authorization: on === stack ? tokens.shared! : tokens.older!, trace: true },
  );
  const body = answer.body as Json;
  return {
    body,
    uuids: body.data ? (body.data[root].objects as { uuid: string }[]).map((o) => o.uuid).sort() : undefined,
    calls: ((body.extensions?.upstream?.calls ?? []) as { path: string }[]).map(
      (call) => call.path.split('?')[0],
    ),
  };
}

const filterType: Record<string, string> = {
  persons: 'EmployeeFilter',
  org_units: 'OrganisationUnitFilter',
  addresses: 'AddressFilter',
  engagements: 'EngagementFilter',
  itusers: 'ITUserFilter',
  managers: 'ManagerFilter',
  owners: 'OwnerFilter',
  leaves: 'LeaveFilter',
  associations: 'AssociationFilter',
  kles: 'KLEFilter',
  related_units: 'RelatedUnitFilter',
};

describe('v30: a collection over a window wider than a day', () => {
  it('persons: the window’s end narrows (none were made before 1900-01-01), in one reading API call', async () => {
    const today = await listed(stack, 'persons', {});
    expect(today.uuids!.length).toBeGreaterThan(0);
    const before = await listed(stack, 'persons', { from_date: null, to_date: '1900-01-01' });
    expect(before.body.errors).toBeUndefined();
    expect(before.uuids).toEqual([]);
    expect(before.calls).toEqual(['/api/v1/employee']);
    // The seed's people are all made on 1900-01-01: a window ending a day later holds every one of them.
    const after = await listed(stack, 'persons', { from_date: null, to_date: '1900-01-02' });
    expect(after.uuids).toEqual(today.uuids);
  });

  it('org_units over all time hold a unit closed before today; a window ending before it opened does not', async () => {
    const backend = (await (
      await stack.legacyFetch('/api/v1/org_unit?validity=-infinity/infinity')
    ).json()) as { uuid: string; validity: { to: string | null } }[];
    const closed = backend.find((unit) => unit.validity.to === closedUnitDates.to)!.uuid;
    const today = await listed(stack, 'org_units', {});
    expect(today.uuids).not.toContain(closed);
    const allTime = await listed(stack, 'org_units', { from_date: null, to_date: null });
    expect(allTime.uuids).toContain(closed);
    expect(allTime.uuids).toEqual(expect.arrayContaining(today.uuids!));
    expect(allTime.calls).toEqual(['/api/v1/org_unit']);
    const beforeIt = await listed(stack, 'org_units', { from_date: null, to_date: closedUnitDates.from });
    expect(beforeIt.uuids).not.toContain(closed);
  });

  it('addresses over all time are one reading API call, not every owner’s listings', async () => {
    const allTime = await listed(stack, 'addresses', { from_date: null, to_date: null });
    expect(allTime.body.errors).toBeUndefined();
    const backend = (await (
      await stack.legacyFetch('/api/v1/address?validity=-infinity/infinity')
    ).json()) as { uuid: string }[];
    expect(allTime.uuids).toEqual([...new Set(backend.map((address) => address.uuid))].sort());
    expect(allTime.calls).toEqual(['/api/v1/address']);
  });

  it('without the reading API, a person listing over such a window is refused as not served, never ignored', async () => {
    const refused = await listed(withoutReadingApi, 'persons', { from_date: null, to_date: '1900-01-01' });
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({
      code: 'NOT_SERVED_BY_THIS_BACKEND',
      coordinate: 'filter.to_date',
    });
    // One day's listing is what the Service API has, and is served.
    const oneDay = await listed(withoutReadingApi, 'persons', { from_date: '2024-01-01' });
    expect(oneDay.body.errors).toBeUndefined();
    expect(oneDay.uuids!.length).toBeGreaterThan(0);
  });
});

/**
 * A detail type's listing as of one day, unnarrowed by unit or person, is the reading API's one call
 * (`/api/v1/{type}?at=`: the records each owner's `details/{type}?at=` shows), not every unit's and person's
 * listing; a backend without the reading API is walked as before, to the same records.
 */
describe('v30: a detail collection as of one day', () => {
  it.each([
    ['addresses', 'address'],
    ['engagements', 'engagement'],
    ['itusers', 'it'],
    ['managers', 'manager'],
    ['owners', 'owner'],
    ['leaves', 'leave'],
    ['associations', 'association'],
    ['kles', 'kle'],
    ['related_units', 'related_unit'],
  ])(
    '%s as of one day are one reading API call, the records every owner’s listing holds',
    async (root, type) => {
      const read = await listed(stack, root, {});
      expect(read.body.errors).toBeUndefined();
      expect(read.calls).toEqual([`/api/v1/${type}`]);
      expect(read.uuids!.length).toBeGreaterThan(0);
      const walked = await listed(withoutReadingApi, root, {});
      expect(walked.body.errors).toBeUndefined();
      expect(walked.calls.filter((path) => path?.includes('/details/')).length).toBeGreaterThan(1);
      expect(read.uuids).toEqual(walked.uuids);
    },
  );
});
