import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classUuid, oscarOwnedUnitUuid, unitUuid } from '../legacy-service/src/fixture/organisation.js';
import { startTestStack, type TestStack } from './stack.js';

/**
 * Mutations for every detail type: each creates, changes and ends a record through the legacy write
 * endpoints, and the legacy listings show the result. Owners are judged by the one RBAC policy.
 */
let stack: TestStack;
const tokens: Record<string, string> = {};
let worker: { employee: string; engagement: string };
let itsystem: string;

type Json = Record<string, unknown>;

async function graphql(who: string, query: string, variables: Json = {}) {
  const response = await fetch(`${stack.gatewayUrl}/graphql/v2`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens[who]}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { data: Json | null; errors?: { message: string; extensions: Json }[] };
}

async function listing(kind: 'ou' | 'e', uuid: string, type: string, at: string): Promise<Json[]> {
  const response = await fetch(`${stack.gatewayUrl}/service/${kind}/${uuid}/details/${type}?at=${at}`, {
    headers: { authorization: `Bearer ${tokens.alice}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Json[];
}

beforeAll(async () => {
  stack = await startTestStack();
  for (const who of ['alice', 'oscar']) tokens[who] = await stack.token(who);
  const found = await graphql(
    'alice',
    `
      query Seed($unit: UUID!) {
        org_units(filter: { uuids: [$unit] }) {
          objects {
            engagements {
              uuid
              employee_uuid
            }
          }
        }
        itsystems {
          objects {
            uuid
          }
        }
      }
    `,
    { unit: oscarOwnedUnitUuid },
  );
  expect(found.errors).toBeUndefined();
  const data = found.data as {
    org_units: { objects: { engagements: { uuid: string; employee_uuid: string }[] }[] };
    itsystems: { objects: { uuid: string }[] };
  };
  const engagement = data.org_units.objects[0]!.engagements[0]!;
  worker = { employee: engagement.employee_uuid, engagement: engagement.uuid };
  itsystem = data.itsystems.objects[0]!.uuid;
});
afterAll(() => stack.close());

const unit = oscarOwnedUnitUuid;
const created = { from: '2025-01-01' };
const changed = { from: '2025-06-01' };
const ended = '2025-12-31';
const cls = classUuid;

interface MutationCase {
  name: string;
  type: string;
  /** Where the legacy service lists the record. */
  owner: () => ['ou' | 'e', string];
  create: () => Json;
  update: () => Json;
  /** A field of the record as the graph shows it, and its value after the update. */
  check: string;
  expected: () => unknown;
}

const cases: MutationCase[] = [
  {
    name: 'address',
    type: 'address',
    owner: () => ['ou', unit],
    create: () => ({
      org_unit: unit,
      address_type: cls('org_unit_address_type', 'unit_email'),
      value: 'a@x.dk',
    }),
    update: () => ({ org_unit: unit, value: 'b@x.dk' }),
    check: 'value',
    expected: () => 'b@x.dk',
  },
  {
    name: 'association',
    type: 'association',
    owner: () => ['ou', unit],
    create: () => ({
      org_unit: unit,
      employee: worker.employee,
      association_type: cls('association_type', 'member'),
    }),
    update: () => ({ org_unit: unit, association_type: cls('association_type', 'chair') }),
    check: 'association_type { uuid }',
    expected: () => ({ uuid: cls('association_type', 'chair') }),
  },
  {
    name: 'role',
    type: 'role',
    owner: () => ['ou', unit],
    create: () => ({
      org_unit: unit,
      employee: worker.employee,
      role_type: cls('role_type', 'safety_representative'),
    }),
    update: () => ({ org_unit: unit, role_type: cls('role_type', 'union_representative') }),
    check: 'role_type { uuid }',
    expected: () => ({ uuid: cls('role_type', 'union_representative') }),
  },
  {
    name: 'leave',
    type: 'leave',
    owner: () => ['e', worker.employee],
    create: () => ({
      employee: worker.employee,
      engagement: worker.engagement,
      leave_type: cls('leave_type', 'parental'),
    }),
    update: () => ({ employee: worker.employee, leave_type: cls('leave_type', 'sabbatical') }),
    check: 'leave_type { uuid }',
    expected: () => ({ uuid: cls('leave_type', 'sabbatical') }),
  },
  {
    name: 'kle',
    type: 'kle',
    owner: () => ['ou', unit],
    create: () => ({
      org_unit: unit,
      kle_number: cls('kle_number', '00.01'),
      kle_aspects: [cls('kle_aspect', 'responsible')],
    }),
    update: () => ({ org_unit: unit, kle_aspects: [cls('kle_aspect', 'insight')] }),
    check: 'kle_aspects { uuid }',
    expected: () => [{ uuid: cls('kle_aspect', 'insight') }],
  },
  {
    name: 'engagement_association',
    type: 'engagement_association',
    owner: () => ['ou', unitUuid(5)],
    create: () => ({
      org_unit: unitUuid(5),
      engagement: worker.engagement,
      engagement_association_type: cls('engagement_association_type', 'k_unit'),
    }),
    update: () => ({
      org_unit: unitUuid(5),
      engagement_association_type: cls('engagement_association_type', 'project'),
    }),
    check: 'engagement_association_type { uuid }',
    expected: () => ({ uuid: cls('engagement_association_type', 'project') }),
  },
  {
    name: 'ituser',
    type: 'it',
    owner: () => ['ou', unit],
    create: () => ({ org_unit: unit, itsystem, user_key: 'unit-account' }),
    update: () => ({ org_unit: unit, user_key: 'unit-account-2' }),
    check: 'user_key',
    expected: () => 'unit-account-2',
  },
];

const inputType = (name: string) =>
  name === 'kle'
    ? 'KLE'
    : name === 'ituser'
      ? 'ITUser'
      : name
          .split('_')
          .map((part) => part[0]!.toUpperCase() + part.slice(1))
          .join('');

describe('detail mutations', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s: create, update and terminate', async (_name, c) => {
    const [kind, where] = c.owner();
    const create = await graphql(
      'alice',
      `mutation Create($input: ${inputType(c.name)}CreateInput!) {
        ${c.name}_create(input: $input) { uuid object { uuid validity { from to } } }
      }`,
      { input: { ...c.create(), validity: created } },
    );
    expect(create.errors).toBeUndefined();
    const payload = (create.data as Record<string, { uuid: string; object: Json | null }>)[
      `${c.name}_create`
    ]!;
    expect(payload.object).toEqual({ uuid: payload.uuid, validity: { from: created.from, to: null } });
    expect((await listing(kind, where, c.type, created.from)).map((r) => r.uuid)).toContain(payload.uuid);

    const update = await graphql(
      'alice',
      `mutation Update($input: ${inputType(c.name)}UpdateInput!) {
        ${c.name}_update(input: $input) { uuid object { ${c.check} } }
      }`,
      { input: { uuid: payload.uuid, ...c.update(), validity: changed } },
    );
    expect(update.errors).toBeUndefined();
    const updated = (update.data as Record<string, { object: Json }>)[`${c.name}_update`]!;
    expect(Object.values(updated.object)[0]).toEqual(c.expected());

    const terminate = await graphql(
      'alice',
      `mutation End($input: TerminateInput!) { ${c.name}_terminate(input: $input) { uuid } }`,
      { input: { uuid: payload.uuid, to: ended } },
    );
    expect(terminate.errors).toBeUndefined();
    expect((await listing(kind, where, c.type, '2026-01-15')).map((r) => r.uuid)).not.toContain(payload.uuid);
    expect((await listing(kind, where, c.type, changed.from)).map((r) => r.uuid)).toContain(payload.uuid);
  });

  it('relates units through related_units_update and ends the relation with an empty list', async () => {
    const other = unitUuid(6);
    const relate = await graphql(
      'alice',
      `
        mutation Relate($input: RelatedUnitsUpdateInput!) {
          related_units_update(input: $input) {
            added
            deleted
          }
        }
      `,
      { input: { origin: unit, destination: [other], validity: created } },
    );
    expect(relate.errors).toBeUndefined();
    const result = (relate.data as { related_units_update: { added: string[]; deleted: string[] } })
      .related_units_update;
    expect(result.added).toHaveLength(1);
    const relations = await listing('ou', unit, 'related_unit', created.from);
    const relation = relations.find((record) => record.uuid === result.added[0]);
    expect((relation?.org_unit as { uuid: string }[]).map((u) => u.uuid).sort()).toEqual(
      [unit, other].sort(),
    );

    const end = await graphql(
      'alice',
      `
        mutation Relate($input: RelatedUnitsUpdateInput!) {
          related_units_update(input: $input) {
            deleted
          }
        }
      `,
      { input: { origin: unit, destination: [], validity: { from: '2025-07-01' } } },
    );
    expect(end.errors).toBeUndefined();
    expect(
      (end.data as { related_units_update: { deleted: string[] } }).related_units_update.deleted,
    ).toEqual(result.added);
  });

  it('lets an owner write unit records in the units they own, and keeps person records and relations for admins', async () => {
    const kle = await graphql(
      'oscar',
      `
        mutation K($input: KLECreateInput!) {
          kle_create(input: $input) {
            uuid
          }
        }
      `,
      {
        input: {
          org_unit: unit,
          kle_number: cls('kle_number', '17.01'),
          kle_aspects: [cls('kle_aspect', 'responsible')],
          validity: created,
        },
      },
    );
    expect(kle.errors).toBeUndefined();

    const refused = async (query: string, input: Json, pattern: RegExp) => {
      const body = await graphql('oscar', query, { input });
      expect(body.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
      expect(body.errors?.[0]?.message).toMatch(pattern);
      expect(Object.values(body.data ?? {})[0]).toBeNull();
    };
    await refused(
      `mutation L($input: LeaveCreateInput!) { leave_create(input: $input) { uuid } }`,
      { employee: worker.employee, leave_type: cls('leave_type', 'parental'), validity: created },
      /leave of an employee needs the admin role/,
    );
    await refused(
      `mutation A($input: AddressCreateInput!) { address_create(input: $input) { uuid } }`,
      {
        employee: worker.employee,
        address_type: cls('employee_address_type', 'employee_email'),
        value: 'w@x.dk',
        validity: created,
      },
      /address of an employee needs the admin role/,
    );
    await refused(
      `mutation R($input: RelatedUnitsUpdateInput!) { related_units_update(input: $input) { added } }`,
      { origin: unit, destination: [unitUuid(7)], validity: created },
      /admin role/,
    );
    // Another unit's KLE number is refused by ownership.
    await refused(
      `mutation K($input: KLECreateInput!) { kle_create(input: $input) { uuid } }`,
      {
        org_unit: unitUuid(2),
        kle_number: cls('kle_number', '17.01'),
        kle_aspects: [cls('kle_aspect', 'responsible')],
        validity: created,
      },
      /owns neither/,
    );
  });
});
