import { beforeAll, describe, expect, it } from 'vitest';
import { unitUuid } from '../legacy-service/src/fixture/organisation.js';
import { sharedReadOnlyStack, signIn, type TestStack, type TracedGraphQLSession } from './stack.js';

/**
 * v30's detail collections beyond engagements and managers (owners, addresses, associations, IT users, KLEs,
 * leaves, related units) and `org`, read through the real stack and checked against the stand-in's own
 * /service answer for the same unit or person.
 */
let stack: TestStack;
let nora: TracedGraphQLSession;
beforeAll(async () => {
  stack = await sharedReadOnlyStack();
  nora = await signIn(stack, 'nora', { trace: true });
});

type LegacyRecord = Record<string, any> & { uuid: string; user_key: string };

async function legacy<T>(path: string): Promise<T> {
  const response = await stack.legacyFetch(path);
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/** The first of the fixture's units (or of their people) whose listing of `type` is not empty. */
async function ownerWith(
  type: string,
  through: 'ou' | 'e',
): Promise<{ uuid: string; records: LegacyRecord[] }> {
  for (let index = 1; index <= 40; index += 1) {
    const unit = unitUuid(index);
    const candidates =
      through === 'ou'
        ? [unit]
        : (await legacy<LegacyRecord[]>(`/service/ou/${unit}/details/engagement`)).map(
            (engagement) => engagement.person.uuid as string,
          );
    for (const uuid of candidates) {
      const records = await legacy<LegacyRecord[]>(`/service/${through}/${uuid}/details/${type}`);
      if (records.length > 0) return { uuid, records };
    }
  }
  throw new Error(`The fixture has no ${type} records in its first units.`);
}

const uuidOf = (value: any): string | null => value?.uuid ?? null;

/** Each collection: its root, the legacy detail type, the fields read, and what each holds in the record. */
const collections: {
  root: string;
  type: string;
  through: 'ou' | 'e';
  fields: string;
  expected: (record: LegacyRecord) => Record<string, unknown>;
}[] = [
  {
    root: 'owners',
    type: 'owner',
    through: 'ou',
    fields: 'org_unit_uuid owner_uuid',
    expected: (r) => ({ org_unit_uuid: uuidOf(r.org_unit), owner_uuid: uuidOf(r.owner) }),
  },
  {
    root: 'addresses',
    type: 'address',
    through: 'ou',
    fields: 'value name address_type_uuid org_unit_uuid',
    expected: (r) => ({
      value: r.value,
      name: r.name ?? null,
      address_type_uuid: uuidOf(r.address_type),
      org_unit_uuid: uuidOf(r.org_unit),
    }),
  },
  {
    root: 'associations',
    type: 'association',
    through: 'ou',
    fields: 'org_unit_uuid employee_uuid association_type_uuid',
    expected: (r) => ({
      org_unit_uuid: uuidOf(r.org_unit),
      employee_uuid: uuidOf(r.person),
      association_type_uuid: uuidOf(r.association_type),
    }),
  },
  {
    root: 'itusers',
    type: 'it',
    through: 'ou',
    fields: 'itsystem_uuid org_unit_uuid',
    expected: (r) => ({ itsystem_uuid: uuidOf(r.itsystem), org_unit_uuid: uuidOf(r.org_unit) }),
  },
  {
    root: 'kles',
    type: 'kle',
    through: 'ou',
    fields: 'kle_number_uuid kle_aspect_uuids org_unit_uuid',
    expected: (r) => ({
      kle_number_uuid: uuidOf(r.kle_number),
      kle_aspect_uuids: (r.kle_aspect ?? []).map(uuidOf),
      org_unit_uuid: uuidOf(r.org_unit),
    }),
  },
  {
    root: 'leaves',
    type: 'leave',
    through: 'e',
    fields: 'leave_type_uuid employee_uuid',
    expected: (r) => ({ leave_type_uuid: uuidOf(r.leave_type), employee_uuid: uuidOf(r.person) }),
  },
  {
    root: 'related_units',
    type: 'related_unit',
    through: 'ou',
    fields: 'org_unit_uuids',
    expected: (r) => ({ org_unit_uuids: r.org_unit.map(uuidOf) }),
  },
];

describe.each(collections)('v30 $root', ({ root, type, through, fields, expected }) => {
  it(`lists what the Service API's ${type} listing holds, each legacy GET once`, async () => {
    const owner = await ownerWith(type, through);
    const filter =
      through === 'ou' ? '{ org_unit: { uuids: [$owner] } }' : '{ employee: { uuids: [$owner] } }';
    const body = await nora.ask(
      'v30',
      `query($owner: UUID!) { ${root}(filter: ${filter}) { objects { uuid current { uuid user_key validity { from } ${fields} } } } }`,
      { owner: owner.uuid },
    );
    expect(body.errors).toBeUndefined();
    const byUuid = (a: { uuid: string }, b: { uuid: string }) => a.uuid.localeCompare(b.uuid);
    const served = (body.data![root].objects as { uuid: string; current: Record<string, unknown> }[])
      .map((object) => object.current as { uuid: string } & Record<string, unknown>)
      .sort(byUuid);
    const want = owner.records
      .map((record) => ({
        uuid: record.uuid,
        user_key: record.user_key,
        validity: { from: record.validity.from },
        ...expected(record),
      }))
      .sort(byUuid);
    // OS2mo's DateTime is the day's start in the gateway's zone; the Service API's, the day.
    const days = served.map((object) => ({
      ...object,
      validity: { from: String((object.validity as { from: string }).from).slice(0, 10) },
    }));
    expect(days).toEqual(want);
    // Minimal plan: no legacy path is asked twice within the request.
    const paths = body.extensions.upstream.calls.map((call) => call.path);
    expect(paths.length).toBeGreaterThan(0);
    expect(new Set(paths).size).toBe(paths.length);
  });
});

describe('v30 org', () => {
  it("answers the Service API's one organisation", async () => {
    const [organisation] = await legacy<LegacyRecord[]>('/service/o/');
    const body = await nora.ask('v30', '{ org { uuid user_key name } }', {});
    expect(body.errors).toBeUndefined();
    expect(body.data!.org).toEqual({
      uuid: organisation!.uuid,
      user_key: organisation!.user_key,
      name: organisation!.name,
    });
    expect(body.extensions.upstream.requests).toBe(1);
  });
});
