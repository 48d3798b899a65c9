import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unitUuid } from '../legacy-service/src/fixture/organisation.js';
import { signIn, startTestStack, type TestStack, type TracedGraphQLSession } from './stack.js';

/**
 * v30's links between objects (`*_response` links, the plain links of the detail types, a unit's and a
 * person's detail links), read through the real stack and checked against the stand-in's /service answer.
 */
let stack: TestStack;
let nora: TracedGraphQLSession;
beforeAll(async () => {
  stack = await startTestStack();
  nora = await signIn(stack, 'nora', { trace: true });
});
afterAll(() => stack.close());

type LegacyRecord = Record<string, any> & { uuid: string };

async function legacy<T>(path: string): Promise<T> {
  const response = await stack.legacyFetch(path);
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/** The first of the fixture's units whose listing of `type` is not empty, with that listing. */
async function unitWith(type: string): Promise<{ uuid: string; records: LegacyRecord[] }> {
  for (let index = 1; index <= 40; index += 1) {
    const records = await legacy<LegacyRecord[]>(`/service/ou/${unitUuid(index)}/details/${type}`);
    if (records.length > 0) return { uuid: unitUuid(index), records };
  }
  throw new Error(`The fixture has no ${type} records in its first units.`);
}

const sorted = (uuids: (string | null | undefined)[]) => [...uuids].sort();

describe('v30 `*_response` links to one object', () => {
  it("give the linked object's response: its uuid, and `current` the object itself", async () => {
    const { uuid, records } = await unitWith('engagement');
    const body = await nora.ask(
      'v30',
      `query($unit: UUID!) { engagements(filter: { org_unit: { uuids: [$unit] } }) { objects { current {
        uuid
        person_response { uuid current { name } }
        org_unit_response { uuid current { name } }
        job_function_response { uuid current { user_key } }
        engagement_type_response { uuid }
        primary_response { uuid }
      } } } }`,
      { unit: uuid },
    );
    expect(body.errors).toBeUndefined();
    const served = new Map(
      (body.data!.engagements.objects as { current: LegacyRecord }[]).map((o) => [o.current.uuid, o.current]),
    );
    for (const record of records) {
      expect(served.get(record.uuid)).toEqual({
        uuid: record.uuid,
        person_response: { uuid: record.person.uuid, current: { name: record.person.name } },
        org_unit_response: { uuid: record.org_unit.uuid, current: { name: record.org_unit.name } },
        job_function_response: {
          uuid: record.job_function.uuid,
          current: { user_key: record.job_function.user_key },
        },
        engagement_type_response: { uuid: record.engagement_type.uuid },
        primary_response: record.primary ? { uuid: record.primary.uuid } : null,
      });
    }
  });

  it("is null where the link is empty (a top-level unit's parent, OS2mo's `parent_response`)", async () => {
    let unit: LegacyRecord | undefined;
    for (let index = 0; index <= 40 && !unit; index += 1) {
      const candidate = await legacy<LegacyRecord>(`/service/ou/${unitUuid(index)}/`);
      if (candidate.parent === null && candidate.org_unit_type) unit = candidate;
    }
    if (!unit) throw new Error('The fixture has no top-level unit with a unit type among its first units.');
    const body = await nora.ask(
      'v30',
      'query($unit: UUID!) { org_units(filter: { uuids: [$unit] }) { objects { current { parent_response { uuid } unit_type_response { uuid current { name } } } } } }',
      { unit: unit.uuid },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.org_units.objects[0].current).toEqual({
      parent_response: null,
      unit_type_response: { uuid: unit.org_unit_type.uuid, current: { name: unit.org_unit_type.name } },
    });
  });

  it("reads a leave's engagement from the leave's person (`engagement_response`)", async () => {
    const unit = await unitWith('engagement');
    for (const engagement of unit.records) {
      const leaves = await legacy<LegacyRecord[]>(`/service/e/${engagement.person.uuid}/details/leave`);
      const leave = leaves.find((record) => record.engagement);
      if (!leave) continue;
      const body = await nora.ask(
        'v30',
        'query($person: UUID!) { leaves(filter: { employee: { uuids: [$person] } }) { objects { current { uuid engagement_response { uuid current { user_key } } } } } }',
        { person: engagement.person.uuid },
      );
      expect(body.errors).toBeUndefined();
      const served = (body.data!.leaves.objects as { current: LegacyRecord }[]).find(
        (o) => o.current.uuid === leave.uuid,
      );
      expect(served?.current.engagement_response.uuid).toBe(leave.engagement.uuid);
      expect(served?.current.engagement_response.current?.user_key).toEqual(expect.any(String));
      return;
    }
    throw new Error('The fixture has no leave with an engagement among the first unit’s people.');
  });
});

describe('v30 `*_response` links to many objects', () => {
  it("page a unit's managers and engagements as OS2mo's `XResponsePaged`", async () => {
    const { uuid, records } = await unitWith('engagement');
    const managers = await legacy<LegacyRecord[]>(`/service/ou/${uuid}/details/manager`);
    const body = await nora.ask(
      'v30',
      `query($unit: UUID!) { org_units(filter: { uuids: [$unit] }) { objects { current {
        managers_response { objects { uuid current { person_response { uuid } } } page_info { next_cursor } }
        all: engagements_response { objects { uuid } page_info { next_cursor } }
        first: engagements_response(limit: 1) { objects { uuid } page_info { next_cursor } }
      } } } }`,
      { unit: uuid },
    );
    expect(body.errors).toBeUndefined();
    const current = body.data!.org_units.objects[0].current;
    expect(sorted(current.managers_response.objects.map((o: LegacyRecord) => o.uuid))).toEqual(
      sorted(managers.map((m) => m.uuid)),
    );
    expect(
      current.managers_response.objects.map((o: LegacyRecord) => o.current.person_response?.uuid ?? null),
    ).toEqual(
      current.managers_response.objects.map(
        (o: LegacyRecord) => managers.find((m) => m.uuid === o.uuid)?.person?.uuid ?? null,
      ),
    );
    expect(sorted(current.all.objects.map((o: LegacyRecord) => o.uuid))).toEqual(
      sorted([...new Set(records.map((r) => r.uuid))]),
    );
    expect(current.all.page_info.next_cursor).toBeNull();
    expect(current.first.objects).toHaveLength(1);
    expect(current.first.page_info.next_cursor === null).toBe(current.all.objects.length <= 1);
  });

  it("list a facet's classes (`classes_responses`, every type selector of OS2mo's UI)", async () => {
    const facets = await nora.ask(
      'v30',
      '{ facets(filter: { user_keys: ["engagement_job_function"] }) { objects { uuid } } }',
    );
    const body = await nora.ask(
      'v30',
      `query($facet: UUID!) { facets(filter: { uuids: [$facet] }) { objects { current {
        classes { uuid name }
        classes_responses { objects { uuid current { name } } }
      } } } }`,
      { facet: facets.data!.facets.objects[0].uuid },
    );
    expect(body.errors).toBeUndefined();
    const facet = body.data!.facets.objects[0].current;
    expect(facet.classes.length).toBeGreaterThan(0);
    expect(
      facet.classes_responses.objects.map((o: { uuid: string; current: { name: string } }) => ({
        uuid: o.uuid,
        name: o.current.name,
      })),
    ).toEqual(facet.classes);
  });
});

describe('coordinates the backend never holds a value for (answered empty by the ledger)', () => {
  it("answer OS2mo's empty answer for an IT account: no external id, primary or engagements", async () => {
    const { uuid } = await unitWith('it');
    const body = await nora.ask(
      'v30',
      `query($unit: UUID!) { itusers(filter: { org_unit: { uuids: [$unit] } }) { objects { current {
        external_id primary_uuid primary_response { uuid } engagement_uuid engagement_uuids
        engagement_response { uuid } engagements_responses(limit: 1) { objects { uuid } page_info { next_cursor } }
        addresses_response(limit: 1) { objects { uuid } }
        itsystem_response { uuid }
      } } } }`,
      { unit: uuid },
    );
    expect(body.errors).toBeUndefined();
    const [first] = body.data!.itusers.objects;
    expect(first.current).toEqual({
      external_id: null,
      primary_uuid: null,
      primary_response: null,
      engagement_uuid: null,
      engagement_uuids: [],
      engagement_response: null,
      engagements_responses: { objects: [], page_info: { next_cursor: null } },
      addresses_response: { objects: [] },
      itsystem_response: { uuid: expect.any(String) },
    });
  });

  it('answers an association without a trade union, job function or IT account', async () => {
    const { uuid } = await unitWith('association');
    const body = await nora.ask(
      'v30',
      `query($unit: UUID!) { associations(filter: { org_unit: { uuids: [$unit] } }) { objects { current {
        trade_union_uuid trade_union_response { uuid } job_function_uuid job_function_response { uuid }
        it_user_uuid it_user_response { uuid }
      } } } }`,
      { unit: uuid },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.associations.objects[0].current).toEqual({
      trade_union_uuid: null,
      trade_union_response: null,
      job_function_uuid: null,
      job_function_response: null,
      it_user_uuid: null,
      it_user_response: null,
    });
  });
});

describe("v30's plain links of the detail types and a unit's or person's detail links", () => {
  it.each(['address', 'association', 'it', 'kle', 'leave', 'related_unit', 'owner'])(
    "a unit's `%s` link lists what the Service API's listing of the unit holds",
    async (type) => {
      const field = {
        address: 'addresses',
        association: 'associations',
        it: 'itusers',
        kle: 'kles',
        leave: 'leaves',
        related_unit: 'related_units',
        owner: 'owners',
      }[type]!;
      const { uuid, records } = await unitWith(type).catch(() => ({ uuid: unitUuid(1), records: [] }));
      const body = await nora.ask(
        'v30',
        `query($unit: UUID!) { org_units(filter: { uuids: [$unit] }) { objects { current { ${field} { uuid } } } } }`,
        { unit: uuid },
      );
      expect(body.errors).toBeUndefined();
      expect(sorted(body.data!.org_units.objects[0].current[field].map((o: LegacyRecord) => o.uuid))).toEqual(
        sorted(records.map((r) => r.uuid)),
      );
    },
  );

  it("a person's addresses, IT accounts and associations, and each record's links", async () => {
    const { records } = await unitWith('engagement');
    const person = records[0]!.person.uuid as string;
    const addresses = await legacy<LegacyRecord[]>(`/service/e/${person}/details/address`);
    const itusers = await legacy<LegacyRecord[]>(`/service/e/${person}/details/it`);
    const body = await nora.ask(
      'v30',
      `query($person: UUID!) { employees(filter: { uuids: [$person] }) { objects { current {
        addresses { uuid address_type { uuid } visibility { uuid } person { uuid } org_unit { uuid } }
        itusers { uuid itsystem { uuid } person { uuid } }
        associations { uuid }
      } } } }`,
      { person },
    );
    expect(body.errors).toBeUndefined();
    const current = body.data!.employees.objects[0].current;
    const byUuid = (a: LegacyRecord, b: LegacyRecord) => a.uuid.localeCompare(b.uuid);
    expect([...current.addresses].sort(byUuid)).toEqual(
      addresses
        .map((r) => ({
          uuid: r.uuid,
          address_type: { uuid: r.address_type.uuid },
          visibility: r.visibility ? { uuid: r.visibility.uuid } : null,
          person: [{ uuid: person }],
          org_unit: null,
        }))
        .sort(byUuid),
    );
    expect([...current.itusers].sort(byUuid)).toEqual(
      itusers
        .map((r) => ({ uuid: r.uuid, itsystem: { uuid: r.itsystem.uuid }, person: [{ uuid: person }] }))
        .sort(byUuid),
    );
  });

  it('a KLE record gives its number as a list in v30 and as the class itself before v23', async () => {
    const { uuid, records } = await unitWith('kle');
    const query = `query($unit: UUID!) { kles(filter: { org_unit: { uuids: [$unit] } }) { objects { current { uuid kle_number { uuid } } } } }`;
    const v30 = await nora.ask('v30', query, { unit: uuid });
    const v22 = await nora.ask('v22', query, { unit: uuid });
    expect(v30.errors).toBeUndefined();
    expect(v22.errors).toBeUndefined();
    const number = (uuid: string) => records.find((r) => r.uuid === uuid)!.kle_number.uuid;
    for (const object of v30.data!.kles.objects) {
      expect(object.current.kle_number).toEqual([{ uuid: number(object.current.uuid) }]);
    }
    for (const object of v22.data!.kles.objects) {
      expect(object.current.kle_number).toEqual({ uuid: number(object.current.uuid) });
    }
  });

  it("an owner record's inference priority in OS2mo's names", async () => {
    const { uuid, records } = await unitWith('owner');
    const body = await nora.ask(
      'v30',
      `query($unit: UUID!) { owners(filter: { org_unit: { uuids: [$unit] } }) { objects { current { uuid owner_inference_priority owner { uuid } } } } }`,
      { unit: uuid },
    );
    expect(body.errors).toBeUndefined();
    const names: Record<string, string> = {
      engagement_priority: 'ENGAGEMENT',
      association_priority: 'ASSOCIATION',
    };
    for (const object of body.data!.owners.objects) {
      const record = records.find((r) => r.uuid === object.current.uuid)!;
      expect(object.current.owner_inference_priority).toBe(
        record.owner_inference_priority ? names[record.owner_inference_priority] : null,
      );
      expect(object.current.owner).toEqual(record.owner ? [{ uuid: record.owner.uuid }] : null);
    }
  });
});

describe("filtering a link's objects (OS2mo's bound filters)", () => {
  it("narrows a facet's classes by uuid and user key, and keeps none for an IT system (2.x classes name none)", async () => {
    const facets = await nora.ask(
      'v30',
      '{ facets(filter: { user_keys: ["engagement_job_function"] }) { objects { uuid } } }',
    );
    const facet = facets.data!.facets.objects[0].uuid as string;
    const all = await nora.ask(
      'v30',
      'query($facet: UUID!) { facets(filter: { uuids: [$facet] }) { objects { current { classes { uuid user_key } } } } }',
      { facet },
    );
    const [first, second] = all.data!.facets.objects[0].current.classes as LegacyRecord[];
    const body = await nora.ask(
      'v30',
      `query($facet: UUID!, $uuid: UUID!, $key: String!, $today: DateTime) { facets(filter: { uuids: [$facet] }) { objects { current {
        today: classes_responses(filter: { from_date: $today }) { objects { uuid } }
        byUuid: classes_responses(filter: { uuids: [$uuid] }) { objects { uuid } }
        byKey: classes(filter: { user_keys: [$key] }) { uuid }
        bySystem: classes_responses(filter: { it_system: { uuids: [$facet] } }) { objects { uuid } }
      } } } }`,
      { facet, uuid: first!.uuid, key: second!.user_key, today: new Date().toISOString() },
    );
    expect(body.errors).toBeUndefined();
    const current = body.data!.facets.objects[0].current;
    expect(current.today.objects).toHaveLength(all.data!.facets.objects[0].current.classes.length);
    expect(current.byUuid.objects).toEqual([{ uuid: first!.uuid }]);
    expect(current.byKey).toEqual([{ uuid: second!.uuid }]);
    expect(current.bySystem.objects).toEqual([]);
  });

  it("reads a unit's link over the filter's window: all time lists the past and future records too", async () => {
    const { uuid, records } = await unitWith('engagement');
    const past = await legacy<LegacyRecord[]>(`/service/ou/${uuid}/details/engagement?validity=past`);
    const future = await legacy<LegacyRecord[]>(`/service/ou/${uuid}/details/engagement?validity=future`);
    const body = await nora.ask(
      'v30',
      `query($unit: UUID!, $one: UUID!) { org_units(filter: { uuids: [$unit] }) { objects { current {
        allTime: engagements_response(filter: { from_date: null, to_date: null }) { objects { uuid } }
        one: engagements(filter: { uuids: [$one] }) { uuid }
      } } } }`,
      { unit: uuid, one: records[0]!.uuid },
    );
    expect(body.errors).toBeUndefined();
    const current = body.data!.org_units.objects[0].current;
    expect(sorted(current.allTime.objects.map((o: LegacyRecord) => o.uuid))).toEqual(
      sorted([...new Set([...past, ...records, ...future].map((r) => r.uuid))]),
    );
    expect(current.one).toEqual([{ uuid: records[0]!.uuid }]);
  });
});

describe("a unit page's links cost the legacy calls its data needs, batched (issue 27's item 3)", () => {
  it('reads each listing once, and the linked people, units and classes from what the listings embed', async () => {
    const { uuid, records } = await unitWith('engagement');
    const body = await nora.ask(
      'v30',
      `query($unit: UUID!) { org_units(filter: { uuids: [$unit] }) { objects { current {
        name
        parent_response { uuid current { name } }
        unit_type_response { uuid current { name } }
        managers_response { objects { current { person_response { current { name } } manager_type_response { current { name } } } } }
        engagements_response { objects { current {
          person_response { uuid current { name } }
          org_unit_response { current { name } }
          job_function_response { current { name } }
          engagement_type_response { current { name } }
        } } }
        addresses_response(limit: 10) { objects { current { value address_type_response { current { name } } } } }
      } } } }`,
      { unit: uuid },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.org_units.objects[0].current.engagements_response.objects.length).toBe(
      new Set(records.map((record) => record.uuid)).size,
    );
    const { calls, rounds } = body.extensions.upstream;
    const paths = calls.map((call) => call.path.split('?')[0]!.replace(/[0-9a-f-]{36}/g, '{uuid}'));
    expect(new Set(calls.map((call) => call.path)).size, 'no legacy call is made twice').toBe(calls.length);
    // One read per listing the page shows, however many engagements: no read per person, unit or class.
    expect([...new Set(paths)].sort()).toEqual(
      [
        '/service/ou/{uuid}/',
        '/service/ou/{uuid}/details/address',
        '/service/ou/{uuid}/details/engagement',
        '/service/ou/{uuid}/details/manager',
      ].sort(),
    );
    expect(rounds).toBeLessThanOrEqual(3);
  });
});

describe("a link's filter on links to units and on what the backend never holds", () => {
  it("narrows a related-unit record's units by user key, and a filtered empty link stays empty", async () => {
    const { uuid, records } = await unitWith('related_unit');
    const other = (records[0]!.org_unit as LegacyRecord[]).find((unit) => unit.uuid !== uuid)!;
    const key = (await legacy<LegacyRecord>(`/service/ou/${other.uuid}/`)).user_key as string;
    const body = await nora.ask(
      'v30',
      `query($unit: UUID!, $key: String!) { related_units(filter: { org_unit: { uuids: [$unit] } }) { objects { current {
        uuid org_units(filter: { user_keys: [$key] }) { uuid }
      } } }
      itsystems(limit: 1) { objects { current { roles(filter: { user_keys: [$key] }) { uuid } } } } }`,
      { unit: uuid, key },
    );
    expect(body.errors).toBeUndefined();
    const served = body.data!.related_units.objects.find(
      (o: { current: LegacyRecord }) => o.current.uuid === records[0]!.uuid,
    );
    expect(served.current.org_units).toEqual([{ uuid: other.uuid }]);
    expect(body.data!.itsystems.objects[0].current.roles).toEqual([]);
  });
});
