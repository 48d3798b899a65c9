import { randomUUID } from 'node:crypto';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenVerifier } from '../gateway/src/auth/token-verifier.js';
import { readGatewayConfig } from '../gateway/src/config.js';
import { os2moMutations, referencedTypes } from '../gateway/src/graphql/os2mo/mutations/index.js';
import { scalarResolvers } from '../gateway/src/graphql/scalars.js';
import { createVersionServer, type VersionServer } from '../gateway/src/graphql/yoga.js';
import { createLegacyClient, type LegacyClient } from '../gateway/src/legacy/legacy-client.js';
import { createRbacPolicy } from '../gateway/src/rbac/rbac-policy.js';
import {
  classUuid,
  organisationUuid,
  oscarOwnedUnitUuid,
  unitUuid,
} from '../legacy-service/src/fixture/organisation.js';
import { stableUuid } from '../legacy-service/src/fixture/stable-uuid.js';
import { startTestStack, type TestStack } from './stack.js';

/**
 * OS2mo's mutations (graphql/os2mo/mutations) against the real stand-in, with RBAC on: each sends the
 * Service API write its mapping says (seen at the gateway's legacy client) and the legacy service then holds
 * what OS2mo's own tests expect. The response types are stubbed here as `{ uuid }`: the read side defines them.
 */
type Json = Record<string, unknown>;
interface Answer {
  data?: Json | null;
  errors?: { message: string; path?: string[]; extensions: Json }[];
}

let stack: TestStack;
let legacy: LegacyClient;
let server: VersionServer;
/** Every write the gateway sent to the legacy service, in order. */
const writes: { path: string; body: unknown }[] = [];
let worker: { person: string; engagement: string };

let itsystem: string;

const cls = classUuid;
const unit = oscarOwnedUnitUuid;
/** The stand-in's job-function facet, by UUID as OS2mo's `facet_uuid` names it. */
const jobFunctions = stableUuid('facet:engagement_job_function');

/** The module's SDL with the types it references stubbed, as the read side would define them. */
function testTypeDefs(): string {
  const stubs = referencedTypes.map((name) =>
    name.endsWith('Response')
      ? `type ${name} { uuid: UUID! }`
      : name === 'OwnerInferencePriority'
        ? `enum ${name} { ENGAGEMENT ASSOCIATION }`
        : `scalar ${name}`,
  );
  return [...stubs, 'type Query { ok: Boolean }', os2moMutations().typeDefs].join('\n');
}

async function ask(who: string, query: string, variables: Json = {}): Promise<Answer> {
  const token = await stack.token(who);
  const principal = await tokens.verify(token);
  const response = await server.fetch(
    new Request('http://gateway.test/graphql/v30', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify({ query, variables }),
    }),
    { principal },
  );
  expect(response.status).toBe(200);
  return (await response.json()) as Answer;
}

/** Runs `field(input: $input) { uuid }` (a list for plural fields) and answers the UUID(s). */
async function mutate(who: string, field: string, inputType: string, input: unknown): Promise<Answer> {
  return ask(who, `mutation Write($input: ${inputType}) { ${field}(input: $input) { uuid } }`, { input });
}

async function written(field: string, inputType: string, input: unknown): Promise<string> {
  const answer = await mutate('alice', field, inputType, input);
  expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
  return (answer.data![field] as { uuid: string }).uuid;
}

const lastWrite = () => writes[writes.length - 1]!;

async function legacyGet<T>(path: string): Promise<T> {
  const response = await stack.legacyFetch(path);
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

const listed = async (kind: 'ou' | 'e', owner: string, type: string, at: string) =>
  (await legacyGet<Json[]>(`/service/${kind}/${owner}/details/${type}?at=${at}`)).map(
    (record) => record.uuid,
  );

let tokens: ReturnType<typeof createTokenVerifier>;

beforeAll(async () => {
  stack = await startTestStack();
  tokens = createTokenVerifier({
    issuer: stack.idp.issuer,
    jwksUrl: new URL(stack.idp.jwksUri),
    clockToleranceSeconds: 5,
    cooldownMs: 0,
  });
  const client = createLegacyClient({
    url: new URL(stack.legacyUrl),
    connectTimeoutMs: 2000,
    responseTimeoutMs: 10_000,
  });
  legacy = client;
  const recording: LegacyClient = {
    ...client,
    json: (request) => {
      if (request.method === 'POST') writes.push({ path: request.path, body: request.body });
      return client.json(request);
    },
  };
  const mutations = os2moMutations();
  const typeDefs = testTypeDefs();
  const schema = makeExecutableSchema({
    typeDefs,
    resolvers: { UUID: scalarResolvers.UUID, Date: scalarResolvers.Date, Mutation: mutations.resolvers },
  });
  const defaults = readGatewayConfig({});
  server = createVersionServer(
    { name: 'v30', typeDefs, schema },
    {
      legacy: recording,
      legacyCallBudget: defaults.graphqlLimits.maxLegacyCalls,
      upstreamTrace: false,
      introspection: true,
      hardening: { limits: defaults.graphqlLimits, fieldSuggestions: false },
      rbac: createRbacPolicy({ enabled: true }),
    },
  );
  const engagements = await legacyGet<{ uuid: string; person: { uuid: string } }[]>(
    `/service/ou/${unit}/details/engagement`,
  );
  worker = { person: engagements[0]!.person.uuid, engagement: engagements[0]!.uuid };
  itsystem = (await legacyGet<{ uuid: string }[]>(`/service/o/${organisationUuid}/it/`))[0]!.uuid;
});
afterAll(async () => {
  await legacy?.close();
  await stack?.close();
});

describe('class_create, class_update (OS2mo tests/graphapi/test_classes.py)', () => {
  it("creates a class with the UUID the client chose, as one POST /service/f/{facet}/ of 2.4.0's MOClass", async () => {
    // test_integration_create_class (HEAD), in a facet the stand-in holds.
    const uuid = randomUUID();
    const created = await written('class_create', 'ClassCreateInput!', {
      uuid,
      user_key: 'test_class',
      facet_uuid: jobFunctions,
      name: 'Test Class',
      validity: { from: '2021-01-01T00:00:00+01:00', to: null },
    });
    expect(created).toBe(uuid);
    expect(lastWrite()).toEqual({
      path: `/service/f/${jobFunctions}/`,
      body: { uuid, name: 'Test Class', user_key: 'test_class', scope: null, org_uuid: organisationUuid },
    });
    const stored = await legacyGet<Json>(`/service/c/${uuid}/`);
    expect(stored).toMatchObject({ uuid, name: 'Test Class', user_key: 'test_class' });
  });

  it('writes a class anew under its UUID, keeping its user key and facet', async () => {
    // test_update_class (HEAD): renames a seeded class, read back by UUID.
    const uuid = cls('engagement_job_function', 'nurse');
    const updated = await written('class_update', 'ClassUpdateInput!', {
      uuid,
      name: 'Postal Address',
      user_key: 'nurse',
      facet_uuid: jobFunctions,
      validity: { from: '2024-01-01' },
    });
    expect(updated).toBe(uuid);
    expect(lastWrite().path).toBe(`/service/f/${jobFunctions}/`);
    expect(await legacyGet<Json>(`/service/c/${uuid}/`)).toMatchObject({ name: 'Postal Address' });
  });
});

describe('org_unit_* (OS2mo tests/graphapi/test_organisation_units.py)', () => {
  it('creates a unit with the UUID the client chose, and the Service API day of each DateTime (to exclusive)', async () => {
    // test_create_org_unit_integration_test; the dates are migration.md's "Version 29" example.
    const uuid = randomUUID();
    const created = await written('org_unit_create', 'OrganisationUnitCreateInput!', {
      uuid,
      name: 'Integ Unit',
      user_key: 'integ_unit_key',
      parent: unit,
      org_unit_type: cls('org_unit_type', 'office'),
      org_unit_level: cls('org_unit_level', 'level_3'),
      validity: { from: '2021-01-01T00:00:00+01:00', to: '2023-03-03T00:00:00+01:00' },
    });
    expect(created).toBe(uuid);
    expect(lastWrite()).toEqual({
      path: '/service/ou/create',
      body: {
        uuid,
        name: 'Integ Unit',
        user_key: 'integ_unit_key',
        parent: { uuid: unit },
        org_unit_type: { uuid: cls('org_unit_type', 'office') },
        org_unit_level: { uuid: cls('org_unit_level', 'level_3') },
        validity: { from: '2021-01-01', to: '2023-03-02' },
      },
    });
    const stored = await legacyGet<Json>(`/service/ou/${uuid}/?at=2022-01-01`);
    expect(stored).toMatchObject({ name: 'Integ Unit', validity: { from: '2021-01-01', to: '2023-03-02' } });
  });

  it("keys a unit without a user key by its UUID, as OS2mo's create does", async () => {
    const keyless = await written('org_unit_create', 'OrganisationUnitCreateInput!', {
      name: 'No key',
      org_unit_type: cls('org_unit_type', 'team'),
      parent: unit,
      validity: { from: '2024-01-01' },
    });
    expect(lastWrite().body).toMatchObject({ uuid: keyless, user_key: keyless });
    expect(await legacyGet<Json>(`/service/ou/${keyless}/?at=2024-01-01`)).toMatchObject({
      user_key: keyless,
    });
  });

  it('updates with PATCH semantics: a field left out is kept; null for a level the unit holds is refused', async () => {
    // test_update_org_unit_mutation_integration_test and test_parent_changes; migration.md "Version 22".
    const uuid = await written('org_unit_create', 'OrganisationUnitCreateInput!', {
      name: 'Patch me',
      parent: unit,
      org_unit_type: cls('org_unit_type', 'team'),
      org_unit_level: cls('org_unit_level', 'level_4'),
      validity: { from: '2024-01-01' },
    });
    await written('org_unit_update', 'OrganisationUnitUpdateInput!', {
      uuid,
      name: 'Patched',
      validity: { from: '2024-02-01' },
    });
    expect(lastWrite().body).toEqual({
      type: 'org_unit',
      uuid,
      data: { uuid, name: 'Patched', validity: { from: '2024-02-01', to: null } },
    });
    expect(await legacyGet<Json>(`/service/ou/${uuid}/?at=2024-02-01`)).toMatchObject({
      name: 'Patched',
      org_unit_level: { uuid: cls('org_unit_level', 'level_4') },
    });
    // OS2mo (v22 on) clears the level; 2.4.0 `service/orgunit.py` line 248 (`if data.get(…)`) cannot, so the
    // gateway refuses before writing (`mutations/unit-clears.ts`).
    const before = writes.length;
    const refused = await mutate('alice', 'org_unit_update', 'OrganisationUnitUpdateInput!', {
      uuid,
      name: 'Cleared',
      org_unit_level: null,
      validity: { from: '2024-03-01' },
    });
    expect(refused.errors?.[0]?.extensions).toMatchObject({
      code: 'NOT_SERVED_BY_THIS_BACKEND',
      coordinate: 'OrganisationUnitUpdateInput.org_unit_level',
    });
    expect(writes).toHaveLength(before);
    expect(await legacyGet<Json>(`/service/ou/${uuid}/?at=2024-03-01`)).toMatchObject({
      name: 'Patched',
      org_unit_level: { uuid: cls('org_unit_level', 'level_4') },
    });
  });

  // OS2mo's UI sends `time_planning` with every unit form (os2mo-naldo web/src/routes/(app)/organisation/
  // [uuid]/edit/unit/+page.svelte); OS2mo 2.4.0's ou/create and unit edit take it.
  it("writes a unit's time planning through to the Service API; null keeps it, as 2.4.0 does", async () => {
    const planned = cls('time_planning', 'working_time_plans');
    const uuid = await written('org_unit_create', 'OrganisationUnitCreateInput!', {
      name: 'Planned',
      parent: unit,
      org_unit_type: cls('org_unit_type', 'team'),
      time_planning: planned,
      validity: { from: '2024-01-01' },
    });
    expect(lastWrite().body).toMatchObject({ time_planning: { uuid: planned } });
    expect(await legacyGet<Json>(`/service/ou/${uuid}/?at=2024-01-01`)).toMatchObject({
      time_planning: { uuid: planned },
    });
    // 2.4.0 `service/orgunit.py` line 262 cannot clear it, and OS2mo's UI sends the null with every rename
    // (`unit-clears.ts`): the edit is written, the null forwarded as judged, and the time planning stays.
    await written('org_unit_update', 'OrganisationUnitUpdateInput!', {
      uuid,
      name: 'Renamed planned',
      time_planning: null,
      validity: { from: '2024-02-01' },
    });
    expect(lastWrite().body).toMatchObject({ data: { uuid, name: 'Renamed planned', time_planning: null } });
    expect(await legacyGet<Json>(`/service/ou/${uuid}/?at=2024-02-01`)).toMatchObject({
      name: 'Renamed planned',
      time_planning: { uuid: planned },
    });
    // The rename form sends `time_planning: null` whenever its time-planning field is hidden (the UI's
    // default, `PUBLIC_SHOW_TIME_PLANNING`): for a unit without one it is written, null and all.
    const unplanned = await written('org_unit_create', 'OrganisationUnitCreateInput!', {
      name: 'Unplanned',
      parent: unit,
      org_unit_type: cls('org_unit_type', 'team'),
      validity: { from: '2024-01-01' },
    });
    await written('org_unit_update', 'OrganisationUnitUpdateInput!', {
      uuid: unplanned,
      name: 'Renamed',
      time_planning: null,
      validity: { from: '2024-02-01' },
    });
    expect(lastWrite().body).toMatchObject({
      data: { uuid: unplanned, name: 'Renamed', time_planning: null },
    });
    expect(await legacyGet<Json>(`/service/ou/${unplanned}/?at=2024-02-01`)).toMatchObject({
      name: 'Renamed',
      time_planning: null,
    });
  });

  // OS2mo 2.4.0 `backend/tests/test_integration_org_unit.py`, `test_create_org_unit` (ou/create stores
  // `org_unit_hierarchy`), and OS2mo's `tests/graphapi/test_organisation_units.py`@HEAD,
  // `test_update_org_unit_mutation_integration_test` (its case that sets `org_unit_hierarchy`). 2.4.0 gives a
  // unit's hierarchy back through the children reads filtered by it (`service/orgunit.py`, line 746).
  it("writes a unit's hierarchy through ou/create and the unit edit, where the filtered children read finds it", async () => {
    const safety = cls('org_unit_hierarchy', 'safety_organisation');
    const line = cls('org_unit_hierarchy', 'line_management');
    const childrenIn = async (hierarchy: string, at: string) =>
      (await legacyGet<Json[]>(`/service/ou/${unit}/children?at=${at}&org_unit_hierarchy=${hierarchy}`)).map(
        (child) => child.uuid,
      );
    const uuid = await written('org_unit_create', 'OrganisationUnitCreateInput!', {
      name: 'In a hierarchy',
      parent: unit,
      org_unit_type: cls('org_unit_type', 'team'),
      org_unit_hierarchy: safety,
      validity: { from: '2024-01-01' },
    });
    expect(lastWrite().body).toMatchObject({ org_unit_hierarchy: { uuid: safety } });
    expect(await childrenIn(safety, '2024-01-01')).toContain(uuid);
    await written('org_unit_update', 'OrganisationUnitUpdateInput!', {
      uuid,
      org_unit_hierarchy: line,
      validity: { from: '2024-02-01' },
    });
    expect(lastWrite().body).toMatchObject({ data: { uuid, org_unit_hierarchy: { uuid: line } } });
    expect(await childrenIn(line, '2024-02-01')).toContain(uuid);
    expect(await childrenIn(safety, '2024-02-01')).not.toContain(uuid);
    expect(await childrenIn(safety, '2024-01-15')).toContain(uuid);
  });

  it('terminates at `to` (exclusive), and with `from` leaves a gap up to `to`', async () => {
    const make = () =>
      written('org_unit_create', 'OrganisationUnitCreateInput!', {
        name: 'Short-lived',
        parent: unit,
        org_unit_type: cls('org_unit_type', 'team'),
        validity: { from: '2024-01-01' },
      });
    const ended = await make();
    await written('org_unit_terminate', 'OrganisationUnitTerminateInput!', {
      uuid: ended,
      to: '2025-01-01T00:00:00+01:00',
    });
    expect(lastWrite()).toEqual({
      path: `/service/ou/${ended}/terminate`,
      body: { validity: { to: '2024-12-31' } },
    });
    expect(await legacyGet<Json>(`/service/ou/${ended}/?at=2024-12-31`)).toMatchObject({ uuid: ended });
    expect((await stack.legacyFetch(`/service/ou/${ended}/?at=2025-01-01`)).status).toBe(404);

    // migration.md "Version 29": from 2021-12-12 to 2022-12-12 is inactive [from, to).
    const paused = await make();
    await written('org_unit_terminate', 'OrganisationUnitTerminateInput!', {
      uuid: paused,
      from: '2024-06-01',
      to: '2024-09-01',
    });
    expect(lastWrite().body).toEqual({ validity: { from: '2024-06-01', to: '2024-08-31' } });
    expect((await stack.legacyFetch(`/service/ou/${paused}/?at=2024-08-31`)).status).toBe(404);
    expect(await legacyGet<Json>(`/service/ou/${paused}/?at=2024-09-01`)).toMatchObject({ uuid: paused });
  });
});

describe('employee_* (OS2mo tests/graphapi/test_employees.py)', () => {
  it("creates with OS2mo's names, updates keeping what is null or left out, and terminates", async () => {
    const uuid = randomUUID();
    expect(
      await written('employee_create', 'EmployeeCreateInput!', {
        uuid,
        given_name: 'Anne',
        surname: 'Hansen',
        nickname_given_name: 'Annie',
        seniority: '2001-02-03',
      }),
    ).toBe(uuid);
    expect(lastWrite()).toEqual({
      path: '/service/e/create',
      body: {
        uuid,
        givenname: 'Anne',
        surname: 'Hansen',
        nickname_givenname: 'Annie',
        seniority: '2001-02-03',
      },
    });
    await written('employee_update', 'EmployeeUpdateInput!', {
      uuid,
      surname: 'Jensen',
      given_name: null,
      validity: { from: '2025-01-01' },
    });
    expect(lastWrite().body).toEqual({
      type: 'employee',
      uuid,
      data: { surname: 'Jensen', validity: { from: '2025-01-01', to: null } },
    });
    expect(await legacyGet<Json>(`/service/e/${uuid}/?at=2025-01-01`)).toMatchObject({
      givenname: 'Anne',
      surname: 'Jensen',
    });
    await written('employee_terminate', 'EmployeeTerminateInput!', { uuid, to: '2026-01-01' });
    expect(lastWrite()).toEqual({
      path: `/service/e/${uuid}/terminate`,
      body: { validity: { to: '2025-12-31' }, vacate: false },
    });
  });
});

interface DetailCase {
  /** The mutation prefix and OS2mo's input type prefix. */
  prefix: string;
  input: string;
  type: string;
  where: () => ['ou' | 'e', string];
  create: () => Json;
  /** The Service API fields the create must send (beside `type` and `validity`). */
  sent: () => Json;
  update: () => Json;
  /** The Service API fields the update must send (beside `validity`): only what it changes. */
  updated: () => Json;
  /** A field of the stored record after the update. */
  changed: () => Json;
  /** The OS2mo test the case follows. */
  source: string;
}

const chosenKle = randomUUID();

const detailCases: DetailCase[] = [
  {
    prefix: 'engagement',
    input: 'Engagement',
    type: 'engagement',
    source: 'test_engagements.py',
    where: () => ['ou', unit],
    create: () => ({
      person: worker.person,
      org_unit: unit,
      job_function: cls('engagement_job_function', 'teacher'),
      engagement_type: cls('engagement_type', 'permanent'),
      fraction: 37,
      extension_1: 'first',
    }),
    sent: () => ({
      person: { uuid: worker.person },
      org_unit: { uuid: unit },
      job_function: { uuid: cls('engagement_job_function', 'teacher') },
      engagement_type: { uuid: cls('engagement_type', 'permanent') },
      fraction: 37,
      extension_1: 'first',
    }),
    update: () => ({ job_function: cls('engagement_job_function', 'nurse') }),
    updated: () => ({ job_function: { uuid: cls('engagement_job_function', 'nurse') } }),
    changed: () => ({ job_function: { uuid: cls('engagement_job_function', 'nurse') } }),
  },
  {
    prefix: 'manager',
    input: 'Manager',
    type: 'manager',
    source: 'test_managers.py (a vacant position: person null)',
    where: () => ['ou', unit],
    create: () => ({
      person: null,
      org_unit: unit,
      manager_type: cls('manager_type', 'team_leader'),
      manager_level: cls('manager_level', 'level_4'),
      responsibility: [cls('responsibility', 'budget')],
    }),
    sent: () => ({
      person: null,
      org_unit: { uuid: unit },
      manager_type: { uuid: cls('manager_type', 'team_leader') },
      manager_level: { uuid: cls('manager_level', 'level_4') },
      responsibility: [{ uuid: cls('responsibility', 'budget') }],
    }),
    update: () => ({ person: worker.person }),
    updated: () => ({ person: { uuid: worker.person } }),
    changed: () => ({ person: expect.objectContaining({ uuid: worker.person }) }),
  },
  {
    prefix: 'owner',
    input: 'Owner',
    type: 'owner',
    source: "test_owners.py (a person's owner, whose inference priority OS2mo's enum names)",
    where: () => ['e', worker.person],
    // Without an owner, the owner is inferred by the priority (OS2mo's owner inference).
    create: () => ({ person: worker.person, owner: null, inference_priority: 'ASSOCIATION' }),
    sent: () => ({ person: { uuid: worker.person }, owner_inference_priority: 'association_priority' }),
    update: () => ({ inference_priority: 'ENGAGEMENT' }),
    updated: () => ({ owner_inference_priority: 'engagement_priority' }),
    changed: () => ({ owner_inference_priority: 'engagement_priority' }),
  },
  {
    prefix: 'address',
    input: 'Address',
    type: 'address',
    source: "test_addresses.py (OS2mo's deprecated `employee` still names the person)",
    where: () => ['e', worker.person],
    create: () => ({
      employee: worker.person,
      address_type: cls('employee_address_type', 'employee_email'),
      value: 'anne@example.org',
      visibility: cls('visibility', 'internal'),
    }),
    sent: () => ({
      person: { uuid: worker.person },
      address_type: { uuid: cls('employee_address_type', 'employee_email') },
      value: 'anne@example.org',
      visibility: { uuid: cls('visibility', 'internal') },
    }),
    update: () => ({ value: 'anne@example.net' }),
    updated: () => ({ value: 'anne@example.net' }),
    changed: () => ({ value: 'anne@example.net' }),
  },
  {
    prefix: 'association',
    input: 'Association',
    type: 'association',
    source: 'test_associations.py',
    where: () => ['ou', unit],
    create: () => ({
      person: worker.person,
      org_unit: unit,
      association_type: cls('association_type', 'member'),
    }),
    sent: () => ({
      person: { uuid: worker.person },
      org_unit: { uuid: unit },
      association_type: { uuid: cls('association_type', 'member') },
    }),
    update: () => ({ association_type: cls('association_type', 'chair') }),
    updated: () => ({ association_type: { uuid: cls('association_type', 'chair') } }),
    changed: () => ({
      association_type: expect.objectContaining({ uuid: cls('association_type', 'chair') }),
    }),
  },
  {
    prefix: 'ituser',
    input: 'ITUser',
    type: 'it',
    source: 'test_itusers.py',
    where: () => ['ou', unit],
    create: () => ({ org_unit: unit, itsystem, user_key: 'unit-account' }),
    sent: () => ({ org_unit: { uuid: unit }, itsystem: { uuid: itsystem }, user_key: 'unit-account' }),
    update: () => ({ user_key: 'unit-account-2' }),
    updated: () => ({ user_key: 'unit-account-2' }),
    changed: () => ({ user_key: 'unit-account-2' }),
  },
  {
    prefix: 'kle',
    input: 'KLE',
    type: 'kle',
    source: 'test_kles.py',
    where: () => ['ou', unit],
    // The UUID the client chose goes to the Service API's create, as OS2mo's `uuid` input says.
    create: () => ({
      uuid: chosenKle,
      org_unit: unit,
      kle_number: cls('kle_number', '00.01'),
      kle_aspects: [cls('kle_aspect', 'responsible')],
    }),
    sent: () => ({
      uuid: chosenKle,
      org_unit: { uuid: unit },
      kle_number: { uuid: cls('kle_number', '00.01') },
      kle_aspect: [{ uuid: cls('kle_aspect', 'responsible') }],
    }),
    update: () => ({ kle_aspects: [cls('kle_aspect', 'insight')] }),
    updated: () => ({ kle_aspect: [{ uuid: cls('kle_aspect', 'insight') }] }),
    changed: () => ({ kle_aspect: [expect.objectContaining({ uuid: cls('kle_aspect', 'insight') })] }),
  },
  {
    prefix: 'leave',
    input: 'Leave',
    type: 'leave',
    source: 'test_leaves.py',
    where: () => ['e', worker.person],
    create: () => ({
      person: worker.person,
      engagement: worker.engagement,
      leave_type: cls('leave_type', 'parental'),
    }),
    sent: () => ({
      person: { uuid: worker.person },
      engagement: { uuid: worker.engagement },
      leave_type: { uuid: cls('leave_type', 'parental') },
    }),
    update: () => ({ leave_type: cls('leave_type', 'sabbatical') }),
    updated: () => ({ leave_type: { uuid: cls('leave_type', 'sabbatical') } }),
    changed: () => ({ leave_type: expect.objectContaining({ uuid: cls('leave_type', 'sabbatical') }) }),
  },
];

describe('detail mutations: create, update (null keeps) and terminate (to exclusive)', () => {
  it.each(detailCases.map((c) => [c.prefix, c] as const))('%s', async (_prefix, c) => {
    const [kind, owner] = c.where();
    const uuid = await written(`${c.prefix}_create`, `${c.input}CreateInput!`, {
      ...c.create(),
      validity: { from: '2025-01-01T00:00:00+01:00' },
    });
    expect(lastWrite(), c.source).toEqual({
      path: '/service/details/create',
      body: { type: c.type, ...c.sent(), validity: { from: '2025-01-01', to: null } },
    });
    expect(await listed(kind, owner, c.type, '2025-01-01')).toContain(uuid);
    if (c.create().uuid) expect(uuid).toBe(c.create().uuid);

    // Every other field of OS2mo's update input defaults to null, which keeps the stored value.
    await written(`${c.prefix}_update`, `${c.input}UpdateInput!`, {
      uuid,
      ...c.update(),
      validity: { from: '2025-06-01' },
    });
    expect(lastWrite().body).toEqual({
      type: c.type,
      uuid,
      data: { ...c.updated(), validity: { from: '2025-06-01', to: null } },
    });
    const records = await legacyGet<Json[]>(`/service/${kind}/${owner}/details/${c.type}?at=2025-06-01`);
    expect(records.find((record) => record.uuid === uuid)).toMatchObject(c.changed());

    await written(`${c.prefix}_terminate`, `${c.input}TerminateInput!`, { uuid, to: '2026-01-01' });
    expect(lastWrite().body).toEqual({ type: c.type, uuid, validity: { to: '2025-12-31' } });
    expect(await listed(kind, owner, c.type, '2025-12-31')).toContain(uuid);
    expect(await listed(kind, owner, c.type, '2026-01-01')).not.toContain(uuid);
  });

  it('writes a list mutation as one Service API write of every item (engagements_create, engagements_update)', async () => {
    const before = writes.length;
    const answer = await mutate('alice', 'engagements_create', '[EngagementCreateInput!]!', [
      { ...detailCases[0]!.create(), validity: { from: '2025-01-01' } },
      { ...detailCases[0]!.create(), extension_1: 'second', validity: { from: '2025-02-01' } },
    ]);
    expect(answer.errors).toBeUndefined();
    const uuids = (answer.data!.engagements_create as { uuid: string }[]).map(({ uuid }) => uuid);
    expect(uuids).toHaveLength(2);
    expect(writes.length - before).toBe(1);
    expect((lastWrite().body as unknown[]).length).toBe(2);
    const listedNow = await listed('ou', unit, 'engagement', '2025-02-01');
    for (const uuid of uuids) expect(listedNow).toContain(uuid);

    const updated = await mutate(
      'alice',
      'engagements_update',
      '[EngagementUpdateInput!]!',
      uuids.map((uuid) => ({ uuid, extension_2: 'both', validity: { from: '2025-03-01' } })),
    );
    expect(updated.errors).toBeUndefined();
    expect(lastWrite()).toEqual({
      path: '/service/details/edit',
      body: uuids.map((uuid) => ({
        type: 'engagement',
        uuid,
        data: { extension_2: 'both', validity: { from: '2025-03-01', to: null } },
      })),
    });
    const records = await legacyGet<Json[]>(`/service/ou/${unit}/details/engagement?at=2025-03-01`);
    for (const uuid of uuids) {
      expect(records.find((record) => record.uuid === uuid)).toMatchObject({ extension_2: 'both' });
    }
  });
});

describe('related_units_update (OS2mo tests/graphapi/test_related_units.py)', () => {
  it('relates the origin to exactly the destinations from validity.from, and answers the origin', async () => {
    const other = unitUuid(6);
    const answered = await written('related_units_update', 'RelatedUnitsUpdateInput!', {
      origin: unit,
      destination: [other],
      validity: { from: '2025-01-01T00:00:00+01:00', to: '2025-05-01' },
    });
    expect(answered).toBe(unit);
    expect(lastWrite()).toEqual({
      path: `/service/ou/${unit}/map`,
      body: { destination: [other], validity: { from: '2025-01-01' } },
    });
    const relations = await legacyGet<{ org_unit: { uuid: string }[] }[]>(
      `/service/ou/${unit}/details/related_unit?at=2025-01-01`,
    );
    expect(relations.some((relation) => relation.org_unit.some(({ uuid }) => uuid === other))).toBe(true);
  });
});

describe("business errors in OS2mo's shape (OS2mo tests/graphapi/test_exception_context.py)", () => {
  it('holds the Service API error body in extensions.error_context', async () => {
    const missing = randomUUID();
    const answer = await mutate('alice', 'engagement_update', 'EngagementUpdateInput!', {
      uuid: missing,
      fraction: 10,
      validity: { from: '2025-01-01' },
    });
    // The result type is non-null, as in OS2mo: the error nulls the whole answer.
    expect(answer.data).toBeNull();
    const [error] = answer.errors!;
    expect(error!.path).toEqual(['engagement_update']);
    const context = error!.extensions.error_context as Json;
    expect(context).toMatchObject({ error: true, status: 404 });
    expect(context.error_key).toBe(error!.extensions.error_key);
    expect(error!.message).toBe(context.description);
    expect(JSON.stringify(answer)).not.toContain(stack.legacyUrl);
  });
});

describe('RBAC decides every OS2mo mutation (the same policy as /service)', () => {
  /** One valid input per Mutation field of the module. */
  const inputs = (): Record<string, [string, unknown]> => {
    const validity = { from: '2025-01-01' };
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
        { name: 'Denied', user_key: 'denied', facet_uuid: jobFunctions, validity },
      ],
      class_update: [
        'ClassUpdateInput!',
        {
          uuid: cls('engagement_job_function', 'teacher'),
          name: 'Denied',
          user_key: 'teacher',
          facet_uuid: jobFunctions,
          validity,
        },
      ],
    };
    for (const c of detailCases) {
      entries[`${c.prefix}_create`] = [`${c.input}CreateInput!`, { ...c.create(), validity }];
      entries[`${c.prefix}_update`] = [
        `${c.input}UpdateInput!`,
        { uuid: worker.engagement, ...c.update(), validity },
      ];
      entries[`${c.prefix}_terminate`] = [
        `${c.input}TerminateInput!`,
        { uuid: worker.engagement, to: '2030-01-01' },
      ];
    }
    const create = (prefix: string) => entries[`${prefix}_create`]!;
    entries.engagements_create = ['[EngagementCreateInput!]!', [create('engagement')[1]]];
    entries.engagements_update = ['[EngagementUpdateInput!]!', [entries.engagement_update![1]]];
    entries.managers_create = ['[ManagerCreateInput!]!', [create('manager')[1]]];
    entries.addresses_create = ['[AddressCreateInput!]!', [create('address')[1]]];
    entries.itusers_create = ['[ITUserCreateInput!]!', [create('ituser')[1]]];
    return entries;
  };

  it('covers every Mutation field of the module', () => {
    expect(Object.keys(inputs()).sort()).toEqual(Object.keys(os2moMutations().resolvers).sort());
  });

  it('refuses each one for a user without a role, before any write reaches the legacy service', async () => {
    const before = writes.length;
    for (const [field, [type, input]] of Object.entries(inputs())) {
      const answer = await mutate('nora', field, type, input);
      expect(answer.errors?.[0]?.extensions.code, field).toBe('FORBIDDEN');
    }
    expect(writes.length).toBe(before);
  });

  it("lets an owner write in the unit they own and not elsewhere (oscar's unit, and the top unit)", async () => {
    const mine = await mutate('oscar', 'org_unit_update', 'OrganisationUnitUpdateInput!', {
      uuid: unit,
      user_key: 'oscar-owned',
      validity: { from: '2025-01-01' },
    });
    expect(mine.errors).toBeUndefined();
    const before = writes.length;
    const top = await mutate('oscar', 'org_unit_update', 'OrganisationUnitUpdateInput!', {
      uuid: unitUuid(0),
      user_key: 'not-oscars',
      validity: { from: '2025-01-01' },
    });
    expect(top.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
    expect(writes.length).toBe(before);
  });
});
