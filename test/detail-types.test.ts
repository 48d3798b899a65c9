import { beforeAll, describe, expect, it } from 'vitest';
import { referenceUnitUuids, unitUuid } from '../legacy-service/src/fixture/organisation.js';
import { postGraphQL, sharedReadOnlyStack, type TestStack } from './stack.js';

/**
 * Every detail type of a unit or a person reads through `/graphql/v2` with the same records as
 * `/service/{ou|e}/{uuid}/details/{type}`, and a query across all of them costs one round per level.
 */
let stack: TestStack;
let token: string;
beforeAll(async () => {
  stack = await sharedReadOnlyStack();
  token = await stack.token('nora');
});

type Json = Record<string, unknown>;
type Ref = { uuid: string } | null | undefined;
const uuidOf = (value: unknown) => (value as Ref)?.uuid ?? null;

/** How one detail type shows in the graph and in the legacy listing, reduced to the fields both carry. */
interface DetailCase {
  type: string;
  field: { unit: string; employee: string };
  select: string;
  fromGraph: (record: Json) => Json;
  fromLegacy: (record: Json) => Json;
}

const common = 'uuid user_key validity { from to }';
const base = (record: Json) => ({
  uuid: record.uuid,
  user_key: record.user_key,
  validity: record.validity,
});
const same = (field: string) => ({ unit: field, employee: field });

const cases: DetailCase[] = [
  {
    type: 'engagement',
    field: same('engagements'),
    select: `${common} employee_uuid org_unit_uuid job_function_uuid fraction extension_1`,
    fromGraph: (r) => ({
      ...base(r),
      person: r.employee_uuid,
      unit: r.org_unit_uuid,
      job: r.job_function_uuid,
      fraction: r.fraction,
      extension_1: r.extension_1,
    }),
    fromLegacy: (r) => ({
      ...base(r),
      person: uuidOf(r.person),
      unit: uuidOf(r.org_unit),
      job: uuidOf(r.job_function),
      fraction: r.fraction ?? null,
      extension_1: r.extension_1 ?? null,
    }),
  },
  {
    type: 'manager',
    field: { unit: 'managers', employee: 'manager_roles' },
    select: `${common} employee_uuid org_unit_uuid manager_type_uuid`,
    fromGraph: (r) => ({
      ...base(r),
      person: r.employee_uuid,
      unit: r.org_unit_uuid,
      kind: r.manager_type_uuid,
    }),
    fromLegacy: (r) => ({
      ...base(r),
      person: uuidOf(r.person),
      unit: uuidOf(r.org_unit),
      kind: uuidOf(r.manager_type),
    }),
  },
  {
    type: 'owner',
    field: same('owners'),
    select: `${common} owner { uuid }`,
    fromGraph: (r) => ({ ...base(r), owner: uuidOf(r.owner) }),
    fromLegacy: (r) => ({ ...base(r), owner: uuidOf(r.owner) }),
  },
  {
    type: 'it',
    field: same('itusers'),
    select: `${common} itsystem_uuid employee_uuid org_unit_uuid`,
    fromGraph: (r) => ({
      ...base(r),
      system: r.itsystem_uuid,
      person: r.employee_uuid,
      unit: r.org_unit_uuid,
    }),
    fromLegacy: (r) => ({
      ...base(r),
      system: uuidOf(r.itsystem),
      person: uuidOf(r.person),
      unit: uuidOf(r.org_unit),
    }),
  },
  {
    type: 'address',
    field: same('addresses'),
    select: `${common} name value href address_type { uuid } employee_uuid org_unit_uuid engagement_uuid`,
    fromGraph: (r) => ({
      ...base(r),
      name: r.name,
      value: r.value,
      href: r.href,
      kind: uuidOf(r.address_type),
      person: r.employee_uuid,
      unit: r.org_unit_uuid,
      engagement: r.engagement_uuid,
    }),
    fromLegacy: (r) => ({
      ...base(r),
      name: r.name,
      value: r.value,
      href: r.href,
      kind: uuidOf(r.address_type),
      person: uuidOf(r.person),
      unit: uuidOf(r.org_unit),
      engagement: uuidOf(r.engagement),
    }),
  },
  {
    type: 'association',
    field: same('associations'),
    select: `${common} association_type { uuid } employee_uuid org_unit_uuid substitute_uuid`,
    fromGraph: (r) => ({
      ...base(r),
      kind: uuidOf(r.association_type),
      person: r.employee_uuid,
      unit: r.org_unit_uuid,
      substitute: r.substitute_uuid,
    }),
    fromLegacy: (r) => ({
      ...base(r),
      kind: uuidOf(r.association_type),
      person: uuidOf(r.person),
      unit: uuidOf(r.org_unit),
      substitute: uuidOf(r.substitute),
    }),
  },
  {
    type: 'role',
    field: same('roles'),
    select: `${common} role_type { uuid } employee_uuid org_unit_uuid`,
    fromGraph: (r) => ({
      ...base(r),
      kind: uuidOf(r.role_type),
      person: r.employee_uuid,
      unit: r.org_unit_uuid,
    }),
    fromLegacy: (r) => ({
      ...base(r),
      kind: uuidOf(r.role_type),
      person: uuidOf(r.person),
      unit: uuidOf(r.org_unit),
    }),
  },
  {
    type: 'leave',
    field: same('leaves'),
    select: `${common} leave_type { uuid } employee_uuid engagement_uuid`,
    fromGraph: (r) => ({
      ...base(r),
      kind: uuidOf(r.leave_type),
      person: r.employee_uuid,
      engagement: r.engagement_uuid,
    }),
    fromLegacy: (r) => ({
      ...base(r),
      kind: uuidOf(r.leave_type),
      person: uuidOf(r.person),
      engagement: uuidOf(r.engagement),
    }),
  },
  {
    type: 'kle',
    field: same('kles'),
    select: `${common} kle_number { uuid } kle_aspects { uuid } org_unit_uuid`,
    fromGraph: (r) => ({
      ...base(r),
      number: uuidOf(r.kle_number),
      aspects: (r.kle_aspects as Json[]).map(uuidOf),
      unit: r.org_unit_uuid,
    }),
    fromLegacy: (r) => ({
      ...base(r),
      number: uuidOf(r.kle_number),
      aspects: (r.kle_aspect as Json[]).map(uuidOf),
      unit: uuidOf(r.org_unit),
    }),
  },
  {
    type: 'related_unit',
    field: same('related_units'),
    select: `${common} org_unit_uuids org_units { uuid }`,
    fromGraph: (r) => ({
      ...base(r),
      units: r.org_unit_uuids,
      linked: (r.org_units as Json[]).map(uuidOf),
    }),
    fromLegacy: (r) => ({
      ...base(r),
      units: (r.org_unit as Json[]).map(uuidOf),
      linked: (r.org_unit as Json[]).map(uuidOf),
    }),
  },
  {
    type: 'engagement_association',
    field: same('engagement_associations'),
    select: `${common} engagement_association_type { uuid } org_unit_uuid engagement_uuid`,
    fromGraph: (r) => ({
      ...base(r),
      kind: uuidOf(r.engagement_association_type),
      unit: r.org_unit_uuid,
      engagement: r.engagement_uuid,
    }),
    fromLegacy: (r) => ({
      ...base(r),
      kind: uuidOf(r.engagement_association_type),
      unit: uuidOf(r.org_unit),
      engagement: uuidOf(r.engagement),
    }),
  },
];

async function graphql(query: string, variables: Json, trace = false, version = 'v2') {
  const { body } = await postGraphQL(
    stack,
    version,
    { query, variables },
    { authorization: `Bearer ${token}`, trace },
  );
  expect(body.errors).toBeUndefined();
  return body as { data: Json; errors?: unknown; extensions?: Json };
}

async function legacyListing(kind: 'ou' | 'e', uuid: string, type: string): Promise<Json[]> {
  const response = await fetch(`${stack.gatewayUrl}/service/${kind}/${uuid}/details/${type}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Json[];
}

const byUuid = (a: Json, b: Json) => String(a.uuid).localeCompare(String(b.uuid));

/** Every detail type of `uuids`, through one v2 query of units or employees. */
async function readAll(root: 'org_units' | 'employees', uuids: string[]) {
  const side = root === 'org_units' ? 'unit' : 'employee';
  const selection = cases.map((c) => `${c.field[side]} { ${c.select} }`).join('\n');
  const body = await graphql(
    `query All($uuids: [UUID!]) { ${root}(filter: { uuids: $uuids }) { objects { uuid ${selection} } } }`,
    { uuids },
  );
  return (body.data[root] as { objects: Json[] }).objects;
}

describe('every detail type', () => {
  it('reads all detail types of three units in one round, each legacy listing once', async () => {
    const selection = cases.map((c) => `${c.field.unit} { uuid }`).join(' ');
    const body = await graphql(
      `query All($uuids: [UUID!]) { org_units(filter: { uuids: $uuids }) { objects { name ${selection} } } }`,
      { uuids: referenceUnitUuids },
      true,
    );
    const trace = (body.extensions as { upstream: { requests: number; rounds: number; calls: Json[] } })
      .upstream;
    const paths = trace.calls.map((call) =>
      String(call.path)
        .split('?')[0]!
        .replace(/[0-9a-f-]{36}/g, '{uuid}'),
    );
    // Each of the three units: its own read and one listing per detail type, all started at once.
    expect(trace.rounds).toBe(1);
    expect(trace.requests).toBe(3 * (1 + cases.length));
    expect(new Set(trace.calls.map((call) => call.path)).size).toBe(trace.requests);
    expect([...new Set(paths)].sort()).toEqual(
      ['/service/ou/{uuid}/', ...cases.map((c) => `/service/ou/{uuid}/details/${c.type}`)].sort(),
    );
  });

  it('shows the same records as the legacy listings, for units and for people', async () => {
    // The rarer types (related units, leaves, engagement associations) are on few units: find them first.
    const scan = await graphql(
      `{ org_units(limit: 200) { objects { uuid ${['related_units', 'leaves', 'engagement_associations']
        .map((field) => `${field} { uuid }`)
        .join(' ')} roles { employee_uuid } } } }`,
      {},
    );
    const rare = (scan.data.org_units as { objects: Json[] }).objects
      .filter((unit) =>
        ['related_units', 'leaves', 'engagement_associations'].some((f) => (unit[f] as Json[]).length > 0),
      )
      .map((unit) => String(unit.uuid));
    const units = [
      ...new Set([...Array.from({ length: 8 }, (_, index) => unitUuid(index)), ...rare.slice(0, 12)]),
    ];
    const unitObjects = await readAll('org_units', units);
    const people = new Set<string>();
    const seen = new Map<string, number>();
    for (const unit of unitObjects) {
      for (const c of cases) {
        const graphRecords = (unit[c.field.unit] as Json[]).map(c.fromGraph).sort(byUuid);
        const legacy = (await legacyListing('ou', String(unit.uuid), c.type)).map(c.fromLegacy).sort(byUuid);
        expect(graphRecords, `${c.type} of unit ${String(unit.uuid)}`).toEqual(legacy);
        seen.set(`ou ${c.type}`, (seen.get(`ou ${c.type}`) ?? 0) + legacy.length);
        for (const record of graphRecords) if (typeof record.person === 'string') people.add(record.person);
      }
    }
    // Leaves are on few people; a scan of everyone's leave listing finds some.
    const everyone = await graphql(
      `
        {
          employees(limit: 1000) {
            objects {
              uuid
              leaves {
                uuid
              }
            }
          }
        }
      `,
      {},
    );
    const onLeave = (everyone.data.employees as { objects: Json[] }).objects
      .filter((person) => (person.leaves as Json[]).length > 0)
      .map((person) => String(person.uuid));
    const roleHolders = (scan.data.org_units as { objects: Json[] }).objects.flatMap((unit) =>
      (unit.roles as Json[]).map((role) => String(role.employee_uuid)),
    );
    const chosen = [
      ...new Set([...[...people].sort().slice(0, 16), ...onLeave.slice(0, 4), ...roleHolders.slice(0, 4)]),
    ];
    const personObjects = await readAll('employees', chosen);
    expect(personObjects.map((person) => person.uuid).sort()).toEqual([...chosen].sort());
    for (const person of personObjects) {
      for (const c of cases) {
        const graphRecords = (person[c.field.employee] as Json[]).map(c.fromGraph).sort(byUuid);
        const legacy = (await legacyListing('e', String(person.uuid), c.type)).map(c.fromLegacy).sort(byUuid);
        expect(graphRecords, `${c.type} of person ${String(person.uuid)}`).toEqual(legacy);
        seen.set(`e ${c.type}`, (seen.get(`e ${c.type}`) ?? 0) + legacy.length);
      }
    }
    // The comparison proves something only where the data has records of the type.
    // OS2mo keeps leaves on people; a unit's leave listing is empty in the stand-in's data.
    for (const type of cases.map((c) => c.type).filter((type) => type !== 'leave')) {
      expect(seen.get(`ou ${type}`), `units with ${type} records`).toBeGreaterThan(0);
    }
    for (const type of ['engagement', 'address', 'association', 'role', 'leave']) {
      expect(seen.get(`e ${type}`), `people with ${type} records`).toBeGreaterThan(0);
    }
  });

  /** The root collection of each detail type (v2 field name = the unit's field name). */
  const rootField = (c: DetailCase) => c.field.unit;

  it('serves every detail type as a root collection on v2 (pages) and v1 (lists of {uuid, objects})', async () => {
    const units = referenceUnitUuids;
    for (const c of cases) {
      const legacy = (await Promise.all(units.map((uuid) => legacyListing('ou', uuid, c.type))))
        .flat()
        .map(c.fromLegacy);
      const expected = [...new Map(legacy.map((record) => [record.uuid, record])).values()].sort(byUuid);

      const v2 = await graphql(
        `query Page($units: [UUID!]) { ${rootField(c)}(filter: { org_units: $units }) { objects { ${c.select} } page_info { next_cursor } } }`,
        { units },
      );
      const page = v2.data[rootField(c)] as { objects: Json[]; page_info: { next_cursor: string | null } };
      expect(page.objects.map(c.fromGraph).sort(byUuid), `v2 ${rootField(c)}`).toEqual(expected);
      expect(page.page_info.next_cursor).toBeNull();

      const v1 = await graphql(
        `query List($units: [UUID!]) { ${rootField(c)}(filter: { org_units: $units }) { uuid objects { ${c.select} } } }`,
        { units },
        false,
        'v1',
      );
      const groups = v1.data[rootField(c)] as { uuid: string; objects: Json[] }[];
      expect(groups.map((group) => group.uuid).sort(), `v1 ${rootField(c)}`).toEqual(
        expected.map((record) => record.uuid),
      );
      expect(
        groups
          .flatMap((group) => group.objects)
          .map(c.fromGraph)
          .sort(byUuid),
      ).toEqual(expected);
    }
  });

  it('finds the records of the people an employee filter names', async () => {
    const everyone = await graphql(
      `
        {
          employees(limit: 1000) {
            objects {
              uuid
              addresses {
                uuid
              }
            }
          }
        }
      `,
      {},
    );
    const people = (everyone.data.employees as { objects: Json[] }).objects
      .filter((person) => (person.addresses as Json[]).length > 0)
      .slice(0, 3)
      .map((person) => String(person.uuid));
    const legacy = (await Promise.all(people.map((uuid) => legacyListing('e', uuid, 'address')))).flat();
    const v2 = await graphql(
      `
        query Page($people: [UUID!]) {
          addresses(filter: { employees: $people }) {
            objects {
              uuid
              employee_uuid
            }
          }
        }
      `,
      { people },
    );
    const objects = (v2.data.addresses as { objects: Json[] }).objects;
    expect(objects.map((record) => record.uuid).sort()).toEqual(legacy.map((record) => record.uuid).sort());
    expect(objects.every((record) => people.includes(String(record.employee_uuid)))).toBe(true);
  });

  it('walks people, not units, for leaves without a filter, page by page', async () => {
    const first = await graphql(
      `
        {
          leaves(limit: 1000) {
            objects {
              uuid
              employee_uuid
            }
            page_info {
              next_cursor
            }
          }
        }
      `,
      {},
    );
    const page = first.data.leaves as { objects: Json[]; page_info: { next_cursor: string | null } };
    expect(page.objects.length).toBeGreaterThan(0);
    expect(page.page_info.next_cursor).toBeNull();
    const person = String(page.objects[0]!.employee_uuid);
    const legacy = await legacyListing('e', person, 'leave');
    expect(legacy.map((record) => record.uuid)).toContain(page.objects[0]!.uuid);
  });
});
