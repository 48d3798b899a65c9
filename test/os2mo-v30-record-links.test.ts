import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unitUuid } from '../legacy-service/src/fixture/organisation.js';
import {
  sharedReadOnlyStack,
  signIn,
  startTestStack,
  type TestStack,
  type TracedGraphQLSession,
} from './stack.js';

/**
 * v30's class hierarchy, a unit's root, the role bindings and unit hierarchies 2.x never held, read through
 * the real stack and checked against the stand-in's own /service answers.
 */
let stack: TestStack;
let nora: TracedGraphQLSession;
beforeAll(async () => {
  stack = await sharedReadOnlyStack();
  nora = await signIn(stack, 'nora', { trace: true });
});
afterAll(() => stack.close());

type LegacyRecord = Record<string, any> & { uuid: string };

async function legacy<T>(path: string): Promise<T> {
  const response = await stack.legacyFetch(path);
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/** Nora's v30 answer to `query`, which must hold no errors. */
async function ask(query: string, variables: Record<string, unknown> = {}) {
  const answer = await nora.ask('v30', query, variables);
  expect(answer.errors).toBeUndefined();
  return answer;
}

describe("the KLE facet's class tree", () => {
  it('gives each subject its group as parent and each group its subjects as children', async () => {
    const groups = await legacy<LegacyRecord[]>('/service/f/kle_number/children');
    const group = groups.find((candidate) => candidate.child_count > 0)!;
    const subjects = await legacy<LegacyRecord[]>(`/service/c/${group.uuid}/children`);
    const { data } = await ask(
      `query($uuids: [UUID!]) { classes(filter: {uuids: $uuids}) { objects { uuid current {
        parent_uuid parent { uuid } parent_response { uuid } children { uuid } org_uuid
      } } } }`,
      { uuids: [group.uuid, subjects[0]!.uuid] },
    );
    const byUuid = Object.fromEntries(
      data!.classes.objects.map((o: { uuid: string; current: unknown }) => [o.uuid, o.current]),
    );
    const [organisation] = await legacy<LegacyRecord[]>('/service/o/');
    expect(byUuid[group.uuid]).toEqual({
      parent_uuid: null,
      parent: null,
      parent_response: null,
      children: subjects.map((subject) => ({ uuid: subject.uuid })),
      org_uuid: organisation!.uuid,
    });
    expect(byUuid[subjects[0]!.uuid]).toMatchObject({
      parent_uuid: group.uuid,
      parent: { uuid: group.uuid },
      parent_response: { uuid: group.uuid },
    });
  });
});

describe("a unit's root", () => {
  it('is the last of its ancestors, in the unit read alone', async () => {
    const { data, extensions } = await ask(
      `query($unit: UUID!) { org_units(filter: {uuids: [$unit]}) { objects { current {
        ancestors { uuid } root { uuid } root_response { uuid }
      } } } }`,
      { unit: unitUuid(12) },
    );
    const current = data!.org_units.objects[0].current;
    const top = current.ancestors.at(-1) ?? { uuid: unitUuid(12) };
    expect(current.root).toEqual([top]);
    expect(current.root_response).toEqual(top);
    expect(extensions.upstream.calls.every((call) => !call.path.includes('/children'))).toBe(true);
  });
});

describe('what 2.x never held', () => {
  it('lists no role binding', async () => {
    const { data } = await ask(`{ rolebindings { objects { uuid } } }`);
    expect(data).toEqual({ rolebindings: { objects: [] } });
  });

  // 2.x does hold a unit's hierarchy (OS2mo 2.4.0 `service/orgunit.py`: stored on create and edit, filtered on
  // by the children reads), so `hierarchy: {}` keeps the units that have one, each answering it.
  it('keeps the units that have a hierarchy, each with its hierarchy', async () => {
    const { data } = await ask(`{
      org_units(filter: {hierarchy: {}}) { objects { current { org_unit_hierarchy } } }
    }`);
    const units = (data as any).org_units.objects as { current: { org_unit_hierarchy: string | null } }[];
    expect(units.length).toBeGreaterThan(0);
    for (const unit of units) expect(unit.current.org_unit_hierarchy).toEqual(expect.any(String));
  });
});

/**
 * `ITUser.addresses_response` seeds the account into the address filter and ORs it with `engagement`
 * (`mora/graphapi/collections/it.py`@66.1.2:420-469, `mora/graphapi/resolvers.py`@66.1.2:754-791): every
 * account gets the addresses of the engagements the filter picks, which the gateway reads through those
 * engagements' people's and units' listings once per request, not the whole address collection per account.
 */
describe("an IT account's addresses, filtered by engagement", () => {
  /** Two engagements with addresses, each with its addresses' UUIDs (sorted), person and unit. */
  async function engagementsWithAddresses() {
    const { data } = await ask('{ addresses { objects { uuid current { engagement_uuid } } } }');
    const all = data!.addresses.objects as { uuid: string; current: { engagement_uuid: string | null } }[];
    const [first, second] = [...new Set(all.map((a) => a.current.engagement_uuid))].filter(
      (uuid): uuid is string => uuid !== null,
    );
    const owners = await ask(
      `query($e: [UUID!]) { engagements(filter: {uuids: $e}) { objects { uuid current { employee_uuid org_unit_uuid } } } }`,
      { e: [first, second] },
    );
    return [first!, second!].map((uuid) => ({
      uuid,
      addresses: all
        .filter((address) => address.current.engagement_uuid === uuid)
        .map((address) => address.uuid)
        .sort(),
      ...(owners.data!.engagements.objects.find((o: { uuid: string }) => o.uuid === uuid)!.current as {
        employee_uuid: string;
        org_unit_uuid: string;
      }),
    }));
  }

  it("reads only the picked engagement's people's and units' listings, once for every account", async () => {
    const [first, second] = await engagementsWithAddresses();
    const { data, extensions } = await ask(
      `query($e: [UUID!], $f: [UUID!]) { itusers { objects { current {
        first: addresses_response(filter: {engagement: {uuids: $e}}) { objects { uuid } }
        listed: addresses(filter: {engagements: $e}) { uuid }
        second: addresses_response(filter: {engagement: {uuids: $f}}) { objects { uuid } }
        before: addresses_response(filter: {engagement: {uuids: $e}, from_date: "1900-01-01", to_date: "1900-01-02"}) { objects { uuid } }
      } } } }`,
      { e: [first!.uuid], f: [second!.uuid] },
    );
    const accounts = data!.itusers.objects as { current: Record<string, any> }[];
    expect(accounts.length).toBeGreaterThan(10);
    const uuids = (list: { uuid: string }[]) => list.map((address) => address.uuid).sort();
    for (const { current } of accounts) {
      // Each part of the per-request key (the filter, its window) changes the answer.
      expect(uuids(current.first.objects)).toEqual(first!.addresses);
      expect(uuids(current.listed)).toEqual(first!.addresses);
      expect(uuids(current.second.objects)).toEqual(second!.addresses);
      expect(current.before.objects).toEqual([]);
    }
    const addressReads = extensions.upstream.calls
      .map((call) => call.path)
      .filter((path) => path.includes('address'));
    const owners = [first!, second!].flatMap((e) => [
      `/service/e/${e.employee_uuid}/`,
      `/service/ou/${e.org_unit_uuid}/`,
    ]);
    expect(addressReads.length).toBeGreaterThan(0);
    expect(new Set(addressReads).size).toBe(addressReads.length);
    for (const path of addressReads) {
      expect(
        owners.some((owner) => path.startsWith(owner)),
        path,
      ).toBe(true);
    }
  });

  it('reads no address without an `engagement`: no 2.x address names an IT account', async () => {
    const { data, extensions } = await ask(`{ itusers { objects { current {
      addresses_response { objects { uuid } }
      typed: addresses_response(filter: {address_type: {}}) { objects { uuid } }
      listed: addresses { uuid }
    } } } }`);
    for (const { current } of data!.itusers.objects) {
      expect(current).toEqual({ addresses_response: { objects: [] }, typed: { objects: [] }, listed: [] });
    }
    expect(extensions.upstream.calls.filter((call) => call.path.includes('address'))).toEqual([]);
  });

  it('answers the same behind a backend without the reading API (/api/v1)', async () => {
    const [first] = await engagementsWithAddresses();
    const without = await startTestStack({ legacyProxy: { notFound: /^\/api\/v1\// } });
    try {
      const session = await signIn(without, 'nora');
      const answer = await session.ask(
        'v30',
        `query($e: [UUID!]) { itusers(limit: 3) { objects { current {
          addresses_response(filter: {engagement: {uuids: $e}}) { objects { uuid } }
        } } } }`,
        { e: [first!.uuid] },
      );
      expect(answer.errors).toBeUndefined();
      const accounts = answer.data!.itusers.objects as { current: any }[];
      expect(accounts.length).toBeGreaterThan(0);
      for (const { current } of accounts) {
        expect(current.addresses_response.objects.map((a: { uuid: string }) => a.uuid).sort()).toEqual(
          first!.addresses,
        );
      }
      expect(without.legacyProxy!.requests.some((request) => request.path.startsWith('/api/v1/'))).toBe(true);
    } finally {
      await without.close();
    }
  });

  it('reads no address when the engagement filter picks none', async () => {
    const { data, extensions } = await ask(`{ itusers { objects { current {
      addresses_response(filter: {engagement: {user_keys: ["no such engagement"]}}) { objects { uuid } }
      named: addresses_response(filter: {engagements: []}) { objects { uuid } }
    } } } }`);
    for (const { current } of data!.itusers.objects) {
      expect(current).toEqual({ addresses_response: { objects: [] }, named: { objects: [] } });
    }
    expect(extensions.upstream.calls.filter((call) => call.path.includes('address'))).toEqual([]);
  });
});
