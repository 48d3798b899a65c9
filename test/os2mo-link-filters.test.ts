import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unitUuid } from '../legacy-service/src/fixture/organisation.js';
import { signIn, startTestStack, type TestStack, type TracedGraphQLSession } from './stack.js';

/**
 * A link's `filter`, `limit` and `cursor` (OS2mo's bound filters: the collection filter less the members the
 * link binds), read through the real stack: a link keeps what its collection lists for the same owner, pages
 * as a collection pages, and the older versions take them under the names OS2mo printed then.
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

/** The first of the fixture's units with at least `least` records of `type`, with that listing. */
async function unitWith(type: string, least = 1): Promise<{ uuid: string; records: LegacyRecord[] }> {
  for (let index = 1; index <= 40; index += 1) {
    const records = await legacy<LegacyRecord[]>(`/service/ou/${unitUuid(index)}/details/${type}`);
    if (new Set(records.map((record) => record.uuid)).size >= least)
      return { uuid: unitUuid(index), records };
  }
  throw new Error(`The fixture has no unit with ${least} ${type} records among its first units.`);
}

const sorted = (uuids: (string | null | undefined)[]) => [...new Set(uuids)].sort();
const uuidsOf = (objects: { uuid: string }[]) => sorted(objects.map((object) => object.uuid));

describe("v30: a link's filter keeps what its collection lists for the same owner", () => {
  it("narrows a unit's addresses by address type, as `addresses` with the unit's `org_unit` does", async () => {
    const { uuid, records } = await unitWith('address');
    const type = records[0]!.address_type as LegacyRecord;
    const body = await nora.ask(
      'v30',
      `query($unit: UUID!, $key: String!, $type: UUID!) {
        org_units(filter: { uuids: [$unit] }) { objects { current {
          byKey: addresses(filter: { address_type: { user_keys: [$key] } }) { uuid }
          byList: addresses_response(filter: { address_types: [$type] }) { objects { uuid } }
          none: addresses(filter: { address_type: { user_keys: ["__none__"] } }) { uuid }
        } } }
        addresses(filter: { org_unit: { uuids: [$unit] }, address_type: { user_keys: [$key] } }) { objects { uuid } }
      }`,
      { unit: uuid, key: type.user_key, type: type.uuid },
    );
    expect(body.errors).toBeUndefined();
    const expected = sorted(
      records.filter((record) => record.address_type.uuid === type.uuid).map((record) => record.uuid),
    );
    const current = body.data!.org_units.objects[0].current;
    expect(uuidsOf(current.byKey)).toEqual(expected);
    expect(uuidsOf(current.byList.objects)).toEqual(expected);
    expect(uuidsOf(body.data!.addresses.objects)).toEqual(expected);
    expect(current.none).toEqual([]);
  });

  it("narrows a person's engagements by unit, and a unit's managers by type and vacancy", async () => {
    const { uuid, records } = await unitWith('engagement');
    const person = records[0]!.person.uuid as string;
    const managers = await unitWith('manager');
    const type = managers.records[0]!.manager_type as LegacyRecord;
    const body = await nora.ask(
      'v30',
      `query($unit: UUID!, $person: UUID!, $managed: UUID!, $type: String!) {
        persons(filter: { uuids: [$person] }) { objects { current {
          here: engagements(filter: { org_unit: { uuids: [$unit] } }) { uuid }
          elsewhere: engagements(filter: { org_units: ["00000000-0000-0000-0000-000000000000"] }) { uuid }
        } } }
        org_units(filter: { uuids: [$managed] }) { objects { current {
          typed: managers(filter: { manager_type: { user_keys: [$type] } }) { uuid }
          vacant: managers(filter: { employee: null }) { uuid }
        } } }
      }`,
      { unit: uuid, person, managed: managers.uuid, type: type.user_key },
    );
    expect(body.errors).toBeUndefined();
    const current = body.data!.persons.objects[0].current;
    expect(uuidsOf(current.here)).toEqual(
      sorted(records.filter((record) => record.person.uuid === person).map((record) => record.uuid)),
    );
    expect(current.elsewhere).toEqual([]);
    const unit = body.data!.org_units.objects[0].current;
    expect(uuidsOf(unit.typed)).toEqual(
      sorted(
        managers.records
          .filter((record) => record.manager_type?.uuid === type.uuid)
          .map((record) => record.uuid),
      ),
    );
    expect(uuidsOf(unit.vacant)).toEqual(
      sorted(managers.records.filter((record) => !record.person).map((record) => record.uuid)),
    );
  });

  it('narrows a link to people by search and user key, and a link to one class by its filter', async () => {
    const { uuid, records } = await unitWith('engagement');
    const record = records[0]!;
    const body = await nora.ask(
      'v30',
      `query($unit: UUID!, $one: UUID!, $name: String!) {
        engagements(filter: { org_unit: { uuids: [$unit] }, uuids: [$one] }) { objects { current {
          found: person(filter: { query: $name }) { uuid }
          missing: person(filter: { user_keys: ["__none__"] }) { uuid }
          primary(filter: { user_keys: ["__none__"] }) { uuid }
          kept: job_function(filter: { facet: { user_keys: ["engagement_job_function"] } }) { uuid }
        } } }
      }`,
      { unit: uuid, one: record.uuid, name: record.person.name },
    );
    expect(body.errors).toBeUndefined();
    const current = body.data!.engagements.objects[0].current;
    expect(current.found).toEqual([{ uuid: record.person.uuid }]);
    expect(current.missing).toEqual([]);
    expect(current.primary).toBeNull();
    expect(current.kept).toEqual({ uuid: record.job_function.uuid });
  });

  it('fails a link that always has its one object when the filter leaves none, as OS2mo does', async () => {
    const { uuid } = await unitWith('engagement');
    const body = await nora.ask(
      'v30',
      `query($unit: UUID!) { engagements(filter: { org_unit: { uuids: [$unit] } }, limit: 1) { objects { current {
        job_function(filter: { user_keys: ["__none__"] }) { uuid }
      } } } }`,
      { unit: uuid },
    );
    expect(body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(body.errors?.[0]?.message).toContain('Engagement.job_function always has its one object');
  });

  it("narrows a facet's classes by name, as `classes` with the facet does", async () => {
    const facets = await nora.ask(
      'v30',
      '{ facets(filter: { user_keys: ["engagement_job_function"] }) { objects { current { uuid classes { name } } } } }',
    );
    const facet = facets.data!.facets.objects[0].current;
    const name = facet.classes[0].name as string;
    const body = await nora.ask(
      'v30',
      `query($facet: UUID!, $name: String!) {
        facets(filter: { uuids: [$facet] }) { objects { current { classes(filter: { name: [$name] }) { uuid } } } }
        classes(filter: { facet: { uuids: [$facet] }, name: [$name] }) { objects { uuid } }
      }`,
      { facet: facet.uuid, name },
    );
    expect(body.errors).toBeUndefined();
    const linked = body.data!.facets.objects[0].current.classes;
    expect(linked.length).toBeGreaterThan(0);
    expect(uuidsOf(linked)).toEqual(uuidsOf(body.data!.classes.objects));
  });

  it("decides a facet's classes by owner on the facet's own classes, as OS2mo's UI asks every type selector", async () => {
    // os2mo-naldo web/src/lib/http/queries.ts, FacetsAndClasses: each facet's classes owned by the unit's
    // ancestors, or by none. The seeded classes name no owner, so include_none keeps them all.
    const body = await nora.ask(
      'v30',
      `query($unit: [UUID!]) { facets(filter: { user_keys: ["org_unit_type"] }) { objects { current {
        classes { uuid }
        classes_responses(filter: { owner: { include_none: true, descendant: { uuids: $unit } } }) { objects { uuid } }
      } } } }`,
      { unit: [unitUuid(1)] },
    );
    expect(body.errors).toBeUndefined();
    const facet = body.data!.facets.objects[0].current;
    expect(facet.classes.length).toBeGreaterThan(0);
    expect(uuidsOf(facet.classes_responses.objects)).toEqual(uuidsOf(facet.classes));
    // The facet's own read holds its classes: no other facet's listing is read to find them.
    expect(body.extensions.upstream.calls.filter((call) => /\/f\/[a-z_]+\/$/.test(call.path))).toEqual([]);
  });

  it('reads what a filter needs once for all the objects whose link it narrows (batched, no read per object)', async () => {
    const { uuid, records } = await unitWith('engagement', 2);
    const body = await nora.ask(
      'v30',
      `query($unit: UUID!, $name: String!) { engagements(filter: { org_unit: { uuids: [$unit] } }) { objects { current {
        person(filter: { query: $name }) { uuid }
      } } } }`,
      { unit: uuid, name: records[0]!.person.name },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.engagements.objects.length).toBeGreaterThan(1);
    const searches = body.extensions.upstream.calls.filter((call) => /\/e\/\?.*query=/.test(call.path));
    expect(searches).toHaveLength(1);
  });
});

describe("v30: a link to units or people over its filter's window", () => {
  it('gives the versions of the linked unit over the window, as `org_units` with its UUID does', async () => {
    const { uuid, records } = await unitWith('engagement');
    const body = await nora.ask(
      'v30',
      `query($unit: UUID!, $one: UUID!) {
        engagements(filter: { org_unit: { uuids: [$unit] }, uuids: [$one] }) { objects { current {
          org_unit(filter: { from_date: null, to_date: null }) { uuid validity { from } }
        } } }
        org_units(filter: { uuids: [$unit], from_date: null, to_date: null }) { objects { validities { validity { from } } } }
      }`,
      { unit: uuid, one: records[0]!.uuid },
    );
    expect(body.errors).toBeUndefined();
    const linked = body.data!.engagements.objects[0].current.org_unit as LegacyRecord[];
    const versions = body.data!.org_units.objects[0].validities as LegacyRecord[];
    expect(linked.map((unit) => unit.validity.from)).toEqual(versions.map((unit) => unit.validity.from));
    expect(new Set(linked.map((unit) => unit.uuid))).toEqual(new Set([uuid]));
  });
});

describe("v30: a link's `limit` and `cursor` page its objects as a collection pages", () => {
  it("gives a unit's engagements a page at a time, the response page's cursor leading to the next", async () => {
    const { uuid, records } = await unitWith('engagement', 2);
    const first = await nora.ask(
      'v30',
      `query($unit: UUID!) { org_units(filter: { uuids: [$unit] }) { objects { current {
        all: engagements { uuid }
        one: engagements(limit: 1) { uuid }
        page: engagements_response(limit: 1) { objects { uuid } page_info { next_cursor } }
        none: engagements(limit: 0) { uuid }
      } } } }`,
      { unit: uuid },
    );
    expect(first.errors).toBeUndefined();
    const current = first.data!.org_units.objects[0].current;
    expect(current.one).toEqual([current.all[0]]);
    expect(current.page.objects).toEqual([current.all[0]]);
    expect(current.none).toEqual([]);
    const next = await nora.ask(
      'v30',
      `query($unit: UUID!, $cursor: Cursor) { org_units(filter: { uuids: [$unit] }) { objects { current {
        engagements(limit: 100, cursor: $cursor) { uuid }
      } } } }`,
      { unit: uuid, cursor: current.page.page_info.next_cursor },
    );
    expect(next.errors).toBeUndefined();
    const rest = next.data!.org_units.objects[0].current.engagements;
    expect([...current.one, ...rest]).toEqual(current.all);
    expect(uuidsOf(current.all)).toEqual(sorted(records.map((record) => record.uuid)));
  });
});

describe("v30: a unit's children by filter (OS2mo's tests/graphapi/test_organisation_units.py@HEAD, test_has_children)", () => {
  it.each([null, { from_date: null, to_date: null }, { names: ['__none__'] }])(
    'has children exactly when `children` with the same filter lists some (%o)',
    async (filter) => {
      const body = await nora.ask(
        'v30',
        `query($filter: ParentBoundOrganisationUnitFilter) { org_units(limit: 20) { objects { current {
          children(filter: $filter) { uuid } has_children(filter: $filter) child_count(filter: $filter)
        } } } }`,
        { filter },
      );
      expect(body.errors).toBeUndefined();
      const units = body.data!.org_units.objects.map((object: { current: LegacyRecord }) => object.current);
      expect(units.some((unit: LegacyRecord) => unit.children.length > 0)).toBe(filter?.names === undefined);
      for (const unit of units) {
        expect(unit.has_children).toBe(unit.children.length > 0);
        expect(unit.child_count).toBe(unit.children.length);
      }
    },
  );
});

describe('the older versions take the link filters under the names OS2mo printed then', () => {
  it("v25: a unit's engagements by person (`OrgUnitsboundengagementfilter`), a person's by unit", async () => {
    const { uuid, records } = await unitWith('engagement');
    const person = records[0]!.person.uuid as string;
    const body = await nora.ask(
      'v25',
      `query($unit: UUID!, $person: UUID!) {
        org_units(filter: { uuids: [$unit] }) { objects { current {
          engagements(filter: { employees: [$person] }, limit: 10) { uuid }
        } } }
        employees(filter: { uuids: [$person] }) { objects { current {
          engagements(filter: { org_units: [$unit] }) { uuid }
        } } }
      }`,
      { unit: uuid, person },
    );
    expect(body.errors).toBeUndefined();
    const expected = sorted(
      records.filter((record) => record.person.uuid === person).map((record) => record.uuid),
    );
    expect(uuidsOf(body.data!.org_units.objects[0].current.engagements)).toEqual(expected);
    expect(uuidsOf(body.data!.employees.objects[0].current.engagements)).toEqual(expected);
  });

  it("v24: a unit's managers with `employee: null` are all of them (v25 made null ask for vacancies)", async () => {
    const { uuid, records } = await unitWith('manager');
    const query = `query($unit: UUID!) { org_units(filter: { uuids: [$unit] }) { objects { current {
      managers(filter: { employee: null }) { uuid }
    } } } }`;
    const [v24, v25] = await Promise.all([
      nora.ask('v24', query, { unit: uuid }),
      nora.ask('v25', query, { unit: uuid }),
    ]);
    expect(v24.errors).toBeUndefined();
    expect(uuidsOf(v24.data!.org_units.objects[0].current.managers)).toEqual(
      sorted(records.map((r) => r.uuid)),
    );
    expect(uuidsOf(v25.data!.org_units.objects[0].current.managers)).toEqual(
      sorted(records.filter((record) => !record.person).map((record) => record.uuid)),
    );
  });

  it("v22: a unit's managers take the whole `ManagerFilter`; v21: a page of owners and of children counted", async () => {
    const { uuid, records } = await unitWith('manager');
    const person = records.find((record) => record.person)?.person.uuid as string;
    const managers = await nora.ask(
      'v22',
      `query($unit: UUID!, $person: UUID!) { org_units(filter: { uuids: [$unit] }) { objects { current {
        managers(filter: { employee: { uuids: [$person] } }) { uuid }
      } } } }`,
      { unit: uuid, person },
    );
    expect(managers.errors, JSON.stringify(managers.errors)).toBeUndefined();
    expect(uuidsOf(managers.data!.org_units.objects[0].current.managers)).toEqual(
      sorted(records.filter((record) => record.person?.uuid === person).map((record) => record.uuid)),
    );
    const v21 = await nora.ask(
      'v21',
      `{ org_units(limit: 20) { objects { current {
        all: child_count one: child_count(limit: 1) owners(limit: 0) { uuid }
      } } } }`,
      {},
    );
    expect(v21.errors, JSON.stringify(v21.errors)).toBeUndefined();
    for (const { current } of v21.data!.org_units.objects as { current: LegacyRecord }[]) {
      expect(current.one).toBe(Math.min(1, current.all));
      expect(current.owners).toEqual([]);
    }
  });
});

describe('v30: the links served beside the version take their filter, limit and cursor as the viewed ones do', () => {
  it("narrows and pages a class's children, as `classes` with the class as `parent` does", async () => {
    const found = await nora.ask(
      'v30',
      `{ classes { objects { current { uuid children { uuid user_key } } } } }`,
    );
    expect(found.errors, JSON.stringify(found.errors)).toBeUndefined();
    const parent = (found.data!.classes.objects as { current: LegacyRecord }[])
      .map(({ current }) => current)
      .find((current) => current.children.length >= 2);
    if (!parent) throw new Error('The fixture has no class with two children.');
    const [first, second] = parent.children as LegacyRecord[];
    const body = await nora.ask(
      'v30',
      `query($class: UUID!, $key: String!) {
        classes(filter: { uuids: [$class] }) { objects { current {
          byKey: children(filter: { user_keys: [$key] }) { uuid }
          page: children(limit: 1) { uuid }
          none: children_response(filter: { user_keys: ["__none__"] }) { objects { uuid } }
        } } }
        collection: classes(filter: { parents: [$class], user_keys: [$key] }) { objects { uuid } }
      }`,
      { class: parent.uuid, key: first!.user_key },
    );
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    const current = body.data!.classes.objects[0].current;
    expect(uuidsOf(current.byKey)).toEqual([first!.uuid]);
    expect(uuidsOf(body.data!.collection.objects)).toEqual([first!.uuid]);
    expect(current.byKey.map((child: LegacyRecord) => child.uuid)).not.toContain(second!.uuid);
    expect(current.page).toHaveLength(1);
    expect(current.none.objects).toEqual([]);
  });

  it("narrows a unit's root by the unit filter, and a limit of 0 gives none of it", async () => {
    const found = await nora.ask(
      'v30',
      `{ org_units(limit: 40) { objects { current { uuid parent { uuid } root { uuid user_key } } } } }`,
    );
    expect(found.errors, JSON.stringify(found.errors)).toBeUndefined();
    const unit = (found.data!.org_units.objects as { current: LegacyRecord }[])
      .map(({ current }) => current)
      .find((current) => current.parent !== null);
    if (!unit) throw new Error('The fixture has no unit below another among its first units.');
    const root = unit.root[0] as LegacyRecord;
    const body = await nora.ask(
      'v30',
      `query($unit: UUID!, $key: String!) { org_units(filter: { uuids: [$unit] }) { objects { current {
        kept: root(filter: { user_keys: [$key] }) { uuid }
        none: root(filter: { user_keys: ["__none__"] }) { uuid }
        empty: root(limit: 0) { uuid }
      } } } }`,
      { unit: unit.uuid, key: root.user_key },
    );
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    const current = body.data!.org_units.objects[0].current;
    expect(uuidsOf(current.kept)).toEqual([root.uuid]);
    expect(current.none).toEqual([]);
    expect(current.empty).toEqual([]);
  });

  it("takes an IT account's role binding filter and page (OS2mo's `ItuserBoundRoleBindingFilter`): none, as 2.x held none", async () => {
    const body = await nora.ask(
      'v30',
      `{ itusers(limit: 1) { objects { current {
      rolebindings(filter: { role: { user_keys: ["admin"] } }, limit: 1) { uuid }
      rolebindings_response(filter: { user_keys: ["admin"] }, limit: 1) { objects { uuid } page_info { next_cursor } }
    } } } }`,
    );
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    for (const { current } of body.data!.itusers.objects as { current: LegacyRecord }[]) {
      expect(current.rolebindings).toEqual([]);
      expect(current.rolebindings_response).toEqual({ objects: [], page_info: { next_cursor: null } });
    }
    expect(body.data!.itusers.objects.length).toBeGreaterThan(0);
  });
});
