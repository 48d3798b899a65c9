import { randomUUID } from 'node:crypto';
import { buildSchema, isObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventMutationFields } from '../gateway/src/graphql/os2mo/events/index.js';
import {
  classUuid as cls,
  organisationUuid,
  oscarOwnedUnitUuid as unit,
  unitUuid,
} from '../legacy-service/src/fixture/organisation.js';
import { stableUuid } from '../legacy-service/src/fixture/stable-uuid.js';
import { postGraphQL, startTestStack, type TestStack } from './stack.js';

/**
 * OS2mo's mutations as the gateway SERVES them (`/graphql/v30`, `/graphql/v28`, `/graphql/v22`, `/graphql/v21`),
 * through the whole stack with RBAC on: the schema each version prints, the RBAC suite (nora refused on
 * every mutation with no legacy write, oscar in his unit only, alice anywhere), and `{ uuid current { … } }`
 * read back through the version's own reads.
 */
type Json = Record<string, any>;
let stack: TestStack;
let worker: { person: string; engagement: string };
let itsystem: string;

beforeAll(async () => {
  stack = await startTestStack({ legacyProxy: true });
  const engagements = (await (await stack.legacyFetch(`/service/ou/${unit}/details/engagement`)).json()) as {
    uuid: string;
    person: { uuid: string };
  }[];
  worker = { person: engagements[0]!.person.uuid, engagement: engagements[0]!.uuid };
  const systems = (await (await stack.legacyFetch(`/service/o/${organisationUuid}/it/`)).json()) as {
    uuid: string;
  }[];
  itsystem = systems[0]!.uuid;
});
afterAll(() => stack.close());

async function ask(who: string, version: string, query: string, variables: Json = {}) {
  const { status, body } = await postGraphQL(
    stack,
    version,
    { query, variables },
    { authorization: `Bearer ${await stack.token(who)}` },
  );
  expect(status).toBe(200);
  return body as { data?: Json | null; errors?: { message: string; extensions?: Json }[] };
}

/** The writes (anything but GET) the gateway sent to the legacy service while `run` ran. */
async function legacyWrites<T>(run: () => Promise<T>) {
  const proxy = stack.legacyProxy!;
  const before = proxy.requests.length;
  const result = await run();
  const writes = proxy.requests.slice(before).filter((request) => request.method !== 'GET');
  return { result, writes };
}

async function servedSchema(version: string) {
  const response = await fetch(`${stack.gatewayUrl}/graphql/${version}/schema.graphql`);
  expect(response.status).toBe(200);
  return buildSchema(await response.text());
}

/** One valid input per Mutation field v30 serves (the shapes of OS2mo's own tests, as the module's test). */
function inputs(): Record<string, [string, unknown]> {
  const validity = { from: '2025-01-01' };
  const detail: Record<string, [string, Json, Json]> = {
    engagement: [
      'Engagement',
      {
        person: worker.person,
        org_unit: unit,
        job_function: cls('engagement_job_function', 'teacher'),
        engagement_type: cls('engagement_type', 'permanent'),
      },
      { job_function: cls('engagement_job_function', 'nurse') },
    ],
    manager: [
      'Manager',
      {
        person: null,
        org_unit: unit,
        manager_type: cls('manager_type', 'team_leader'),
        manager_level: cls('manager_level', 'level_4'),
        responsibility: [cls('responsibility', 'budget')],
      },
      { person: worker.person },
    ],
    owner: ['Owner', { person: worker.person, owner: null, inference_priority: 'ASSOCIATION' }, {}],
    address: [
      'Address',
      {
        person: worker.person,
        address_type: cls('employee_address_type', 'employee_email'),
        value: 'nobody@example.org',
        visibility: cls('visibility', 'internal'),
      },
      { value: 'nobody@example.net' },
    ],
    association: [
      'Association',
      { person: worker.person, org_unit: unit, association_type: cls('association_type', 'member') },
      {},
    ],
    ituser: ['ITUser', { org_unit: unit, itsystem, user_key: 'denied-account' }, {}],
    kle: [
      'KLE',
      {
        org_unit: unit,
        kle_number: cls('kle_number', '00.01'),
        kle_aspects: [cls('kle_aspect', 'responsible')],
      },
      {},
    ],
    leave: [
      'Leave',
      { person: worker.person, engagement: worker.engagement, leave_type: cls('leave_type', 'parental') },
      {},
    ],
  };
  const entries: Record<string, [string, unknown]> = {
    org_unit_create: [
      'OrganisationUnitCreateInput!',
      { name: 'Denied', parent: unit, org_unit_type: cls('org_unit_type', 'team'), validity },
    ],
    org_unit_update: ['OrganisationUnitUpdateInput!', { uuid: unit, name: 'Denied', validity }],
    org_unit_terminate: ['OrganisationUnitTerminateInput!', { uuid: unit, to: '2030-01-01' }],
    employee_create: ['EmployeeCreateInput!', { given_name: 'No', surname: 'Body' }],
    employee_update: ['EmployeeUpdateInput!', { uuid: worker.person, surname: 'Denied', validity }],
    employee_terminate: ['EmployeeTerminateInput!', { uuid: worker.person, to: '2030-01-01' }],
    related_units_update: [
      'RelatedUnitsUpdateInput!',
      { origin: unit, destination: [unitUuid(6)], validity },
    ],
    class_create: [
      'ClassCreateInput!',
      {
        name: 'Denied',
        user_key: 'denied',
        facet_uuid: stableUuid('facet:engagement_job_function'),
        validity,
      },
    ],
    class_update: [
      'ClassUpdateInput!',
      {
        uuid: cls('engagement_job_function', 'teacher'),
        name: 'Denied',
        user_key: 'teacher',
        facet_uuid: stableUuid('facet:engagement_job_function'),
        validity,
      },
    ],
  };
  for (const [prefix, [input, create, update]] of Object.entries(detail)) {
    entries[`${prefix}_create`] = [`${input}CreateInput!`, { ...create, validity }];
    entries[`${prefix}_update`] = [`${input}UpdateInput!`, { uuid: worker.engagement, ...update, validity }];
    entries[`${prefix}_terminate`] = [
      `${input}TerminateInput!`,
      { uuid: worker.engagement, to: '2030-01-01' },
    ];
  }
  const create = (prefix: string) => entries[`${prefix}_create`]![1];
  entries.engagements_create = ['[EngagementCreateInput!]!', [create('engagement')]];
  entries.engagements_update = ['[EngagementUpdateInput!]!', [entries.engagement_update![1]]];
  entries.managers_create = ['[ManagerCreateInput!]!', [create('manager')]];
  entries.addresses_create = ['[AddressCreateInput!]!', [create('address')]];
  entries.itusers_create = ['[ITUserCreateInput!]!', [create('ituser')]];
  return entries;
}

/** The version's writes: its Mutation fields less the event system's (`*_refresh`, `event_*`; test/events.test.ts). */
const mutationFields = async (version: string) => {
  const mutation = (await servedSchema(version)).getMutationType();
  const events = new Set(eventMutationFields(Number(version.slice(1))));
  return isObjectType(mutation)
    ? Object.keys(mutation.getFields())
        .filter((field) => !events.has(field))
        .sort()
    : [];
};

describe("the served OS2mo versions print OS2mo's Mutation", () => {
  it('v30 serves every mutation the module backs, and v21 leaves out the list mutations (its printout has none)', async () => {
    const v30 = await mutationFields('v30');
    expect(v30).toEqual(Object.keys(inputs()).sort());
    expect(await mutationFields('v22')).toEqual(v30);
    const v21 = await mutationFields('v21');
    expect(v21).toContain('org_unit_update');
    expect(v21).not.toContain('engagements_create');
  });
});

describe('RBAC holds on the OS2mo versions (the same policy as /service)', () => {
  it.each(['v30', 'v22'])(
    '%s: refuses nora every mutation with FORBIDDEN, before any write reaches the legacy service',
    async (version) => {
      const served = new Set(await mutationFields(version));
      const { result, writes } = await legacyWrites(async () => {
        const codes: Record<string, unknown> = {};
        for (const [field, [type, input]] of Object.entries(inputs())) {
          if (!served.has(field)) continue;
          const answer = await ask(
            'nora',
            version,
            `mutation($input: ${type}) { ${field}(input: $input) { uuid } }`,
            { input },
          );
          codes[field] = answer.errors?.[0]?.extensions?.code;
        }
        return codes;
      });
      expect(Object.keys(result).length).toBe(served.size);
      expect(Object.entries(result).filter(([, code]) => code !== 'FORBIDDEN')).toEqual([]);
      expect(writes).toEqual([]);
    },
  );

  it('lets oscar write in the unit he owns and refuses him the top unit, with no write', async () => {
    const update = (uuid: string, name: string) =>
      ask(
        'oscar',
        'v30',
        'mutation($input: OrganisationUnitUpdateInput!) { org_unit_update(input: $input) { uuid current { name } } }',
        { input: { uuid, name, validity: { from: '2025-01-01' } } },
      );
    const mine = await update(unit, 'Oscar renamed');
    expect(mine.errors).toBeUndefined();
    expect(mine.data!.org_unit_update).toEqual({ uuid: unit, current: { name: 'Oscar renamed' } });
    const { result: top, writes } = await legacyWrites(() => update(unitUuid(0), 'Not oscars'));
    expect(top.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(writes).toEqual([]);
  });
});

describe('mutation results read back through the version', () => {
  it('alice creates a unit and an address on v30; `current` reads each back', async () => {
    const uuid = randomUUID();
    const created = await ask(
      'alice',
      'v30',
      'mutation($input: OrganisationUnitCreateInput!) { org_unit_create(input: $input) { uuid current { uuid name parent { uuid } } } }',
      {
        input: {
          uuid,
          name: 'Served unit',
          parent: unit,
          org_unit_type: cls('org_unit_type', 'team'),
          validity: { from: '2020-01-01' },
        },
      },
    );
    expect(created.errors).toBeUndefined();
    expect(created.data!.org_unit_create).toEqual({
      uuid,
      current: { uuid, name: 'Served unit', parent: { uuid: unit } },
    });
    const address = await ask(
      'alice',
      'v30',
      'mutation($input: AddressCreateInput!) { address_create(input: $input) { uuid current { value org_unit_uuid } } }',
      {
        input: {
          org_unit: uuid,
          address_type: cls('org_unit_address_type', 'unit_email'),
          value: 'served@example.org',
          visibility: cls('visibility', 'internal'),
          validity: { from: '2020-01-01' },
        },
      },
    );
    expect(address.errors).toBeUndefined();
    expect(address.data!.address_create.current).toEqual({
      value: 'served@example.org',
      org_unit_uuid: uuid,
    });
  });

  it('v22 patches (a field left out is kept; null for a held level is refused) and v21 drops null, on org_unit_update', async () => {
    const create = async (version: string) => {
      const answer = await ask(
        'alice',
        version,
        'mutation($input: OrganisationUnitCreateInput!) { org_unit_create(input: $input) { uuid } }',
        {
          input: {
            name: `Patch ${version}`,
            parent: unit,
            org_unit_type: cls('org_unit_type', 'team'),
            org_unit_level: cls('org_unit_level', 'level_4'),
            validity: { from: '2024-01-01' },
          },
        },
      );
      expect(answer.errors).toBeUndefined();
      return answer.data!.org_unit_create.uuid as string;
    };
    const v22 = await create('v22');
    const patched = await ask(
      'alice',
      'v22',
      'mutation($input: OrganisationUnitUpdateInput!) { org_unit_update(input: $input) { current { name org_unit_level { uuid } } } }',
      { input: { uuid: v22, name: 'Patched', validity: { from: '2024-06-01' } } },
    );
    expect(patched.errors).toBeUndefined();
    expect(patched.data!.org_unit_update.current).toEqual({
      name: 'Patched',
      org_unit_level: { uuid: cls('org_unit_level', 'level_4') },
    });
    // v22 asks to clear with null (migration.md "Version 22"); 2.4.0 `service/orgunit.py` line 248 cannot, and
    // the unit holds a level, so the gateway refuses (`test/os2mo-unit-clears.test.ts` has the cases).
    const nulled = await ask(
      'alice',
      'v22',
      'mutation($input: OrganisationUnitUpdateInput!) { org_unit_update(input: $input) { current { org_unit_level { uuid } } } }',
      { input: { uuid: v22, org_unit_level: null, validity: { from: '2024-07-01' } } },
    );
    expect(nulled.errors?.[0]?.extensions?.code).toBe('NOT_SERVED_BY_THIS_BACKEND');
    const v21 = await create('v21');
    const kept = await ask(
      'alice',
      'v21',
      'mutation($input: OrganisationUnitUpdateInput!) { org_unit_update(input: $input) { current { org_unit_level { uuid } } } }',
      { input: { uuid: v21, name: 'Replaced', org_unit_level: null, validity: { from: '2024-07-01' } } },
    );
    expect(kept.errors).toBeUndefined();
    expect(kept.data!.org_unit_update.current).toEqual({
      org_unit_level: { uuid: cls('org_unit_level', 'level_4') },
    });
  });

  it('v28 takes `validity.to` as the last day (inclusive); v30 as the day after (exclusive)', async () => {
    const ends: Record<string, unknown> = {};
    for (const version of ['v28', 'v30']) {
      const uuid = randomUUID();
      const answer = await ask(
        'alice',
        version,
        'mutation($input: OrganisationUnitCreateInput!) { org_unit_create(input: $input) { uuid } }',
        {
          input: {
            uuid,
            name: `Ends ${version}`,
            parent: unit,
            org_unit_type: cls('org_unit_type', 'team'),
            validity: { from: '2021-01-01', to: '2023-03-03' },
          },
        },
      );
      expect(answer.errors).toBeUndefined();
      const stored = (await (await stack.legacyFetch(`/service/ou/${uuid}/?at=2022-01-01`)).json()) as Json;
      ends[version] = stored.validity.to;
    }
    expect(ends).toEqual({ v28: '2023-03-03', v30: '2023-03-02' });
  });
});
