import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classUuid as cls, oscarOwnedUnitUuid as unit } from '../legacy-service/src/fixture/organisation.js';
import { nullFactsOf } from '../gateway/src/graphql/os2mo/ledger/index.js';
import { signIn, startTestStack, type TestStack } from './stack.js';

/**
 * `org_unit_update` giving `null` for a unit's level, hierarchy or time planning, through the whole stack. OS2mo
 * (v22 on, migration.md "Version 22") clears the field; OS2mo 2.4.0's Service API cannot (its unit edit stores
 * each only when given a value: `backend/mora/service/orgunit.py`@2.4.0 lines 248, 255 and 262). So the
 * gateway refuses a level's or hierarchy's clear, before anything is written, when the unit holds a class for the field somewhere in
 * the edit's period, and writes as before when it holds none. A time planning given as `null` is kept, as
 * 2.4.0 keeps it: OS2mo's UI sends `time_planning: null` with every rename while its time-planning field is
 * hidden (its default). v21 ignores `null`, as a field left out. This gateway's v1 and v2 refuse a held
 * level's clear as v22 on does. Read through 2.4.0's reading API, and without it.
 */
type Json = Record<string, any>;
type Answer = { data?: Json | null; errors?: { message: string; extensions?: Json }[] };

const classes: Record<string, string> = {
  org_unit_level: cls('org_unit_level', 'level_2'),
  org_unit_hierarchy: cls('org_unit_hierarchy', 'safety_organisation'),
  time_planning: cls('time_planning', 'duty_planning'),
};
/** The fields whose clear is refused; a time planning is kept (`unit-clears.ts` says why). */
const fields = ['org_unit_level', 'org_unit_hierarchy'];

let reading: TestStack;
let withoutReadingApi: TestStack;

beforeAll(async () => {
  [reading, withoutReadingApi] = await Promise.all([
    startTestStack({ legacyProxy: true }),
    startTestStack({ legacyProxy: { notFound: /^\/api\/v1\// } }),
  ]);
});
afterAll(() => Promise.all([reading?.close(), withoutReadingApi?.close()]));

async function ask(
  stack: TestStack,
  version: string,
  query: string,
  variables: Json,
  who = 'alice',
): Promise<Answer> {
  return (await (await signIn(stack, who)).ask(version, query, variables)) as Answer;
}

/** A new unit below Oscar's, from 2024-01-01, holding the classes given. */
async function createUnit(stack: TestStack, held: Json = {}): Promise<string> {
  const answer = await ask(
    stack,
    'v30',
    'mutation($input: OrganisationUnitCreateInput!) { org_unit_create(input: $input) { uuid } }',
    {
      input: {
        name: 'Before',
        parent: unit,
        org_unit_type: cls('org_unit_type', 'team'),
        validity: { from: '2024-01-01' },
        ...held,
      },
    },
  );
  expect(answer.errors).toBeUndefined();
  return answer.data!.org_unit_create.uuid as string;
}

/** The update, and the writes (anything but GET) and reads the gateway sent to the legacy service for it. */
async function update(stack: TestStack, version: string, input: Json, who = 'alice') {
  const proxy = stack.legacyProxy!;
  const before = proxy.requests.length;
  // This gateway's v1 and v2 name the input `OrgUnitUpdateInput`.
  const inputType = /^v[12]$/.test(version) ? 'OrgUnitUpdateInput' : 'OrganisationUnitUpdateInput';
  const answer = await ask(
    stack,
    version,
    `mutation($input: ${inputType}!) { org_unit_update(input: $input) { uuid } }`,
    { input },
    who,
  );
  const sent = proxy.requests.slice(before);
  const writes = sent.filter((request) => request.method !== 'GET');
  const reads = sent.filter((request) => request.method === 'GET').map((request) => request.path);
  return { answer, writes, reads };
}

/** The unit as the Service API reads it on a day (`hierarchy`: whether its parent's listing in it holds it). */
async function unitOn(stack: TestStack, uuid: string, day: string) {
  const record = (await (await stack.legacyFetch(`/service/ou/${uuid}/?at=${day}`)).json()) as Json;
  const inHierarchy = (await (
    await stack.legacyFetch(
      `/service/ou/${unit}/children?at=${day}&org_unit_hierarchy=${classes.org_unit_hierarchy}`,
    )
  ).json()) as Json[];
  return {
    name: record.name as string,
    org_unit_level: (record.org_unit_level?.uuid ?? null) as string | null,
    time_planning: (record.time_planning?.uuid ?? null) as string | null,
    org_unit_hierarchy: inHierarchy.some((child) => child.uuid === uuid) ? classes.org_unit_hierarchy : null,
  };
}

function expectRefused(answer: Answer, field: string, inputType = 'OrganisationUnitUpdateInput') {
  expect(answer.data?.org_unit_update ?? null).toBeNull();
  expect(answer.errors).toHaveLength(1);
  const [error] = answer.errors!;
  expect(error!.extensions).toMatchObject({
    code: 'NOT_SERVED_BY_THIS_BACKEND',
    coordinate: `${inputType}.${field}`,
  });
  expect(error!.message).toMatch(/^The Service API \(OS2mo 2\.4\.0\) cannot clear a unit's /);
  expect(error!.message).toContain(`Leave \`${field}\` out to keep`);
  expect(error!.message).not.toMatch(/http|127\.0\.0\.1|localhost|\/service\//);
}

/** The edit went through: no error, the unit's UUID back, and the one Service API write. */
function expectWritten(answer: Answer, writes: readonly { path: string }[], uuid: string) {
  expect(answer.errors).toBeUndefined();
  expect(answer.data!.org_unit_update.uuid).toBe(uuid);
  expect(writes.map((write) => write.path)).toEqual(['/service/details/edit']);
}

describe.each([
  ['v30', 'with the reading API', () => reading],
  ['v22', 'with the reading API', () => reading],
  ['v30', 'without the reading API', () => withoutReadingApi],
])('%s, %s: null for a level, hierarchy or time planning in org_unit_update', (version, _, stackOf) => {
  it('writes as before for a unit holding none of them: the name changes, nothing else', async () => {
    const stack = stackOf();
    const uuid = await createUnit(stack);
    const { answer, writes } = await update(stack, version, {
      uuid,
      name: 'Renamed',
      org_unit_level: null,
      org_unit_hierarchy: null,
      time_planning: null,
      validity: { from: '2024-06-01' },
    });
    // One write, with the nulls in it (as judged; `test/os2mo-mutations.test.ts` holds the body), which 2.4.0 ignores.
    expectWritten(answer, writes, uuid);
    expect(await unitOn(stack, uuid, '2024-06-01')).toEqual({
      name: 'Renamed',
      org_unit_level: null,
      org_unit_hierarchy: null,
      time_planning: null,
    });
  });

  it.each(fields)(
    'refuses to clear a %s the unit holds, and writes nothing (the name stays)',
    async (field) => {
      const stack = stackOf();
      const uuid = await createUnit(stack, { [field]: classes[field] });
      const { answer, writes, reads } = await update(stack, version, {
        uuid,
        name: 'Renamed',
        [field]: null,
        validity: { from: '2024-06-01' },
      });
      expectRefused(answer, field);
      expect(writes).toEqual([]);
      expect(await unitOn(stack, uuid, '2024-06-01')).toMatchObject({
        name: 'Before',
        [field]: classes[field],
      });
      // The unit's versions over the period: one reading-API call, else its Service API listings (past,
      // present and future of today); a hierarchy then reads the organisation, its facet and the parent's
      // filtered listings.
      const versionReads = reads.filter((path) => !/^\/service\/o\/|\/children\?/.test(path));
      if (stack === reading) {
        expect(versionReads).toEqual([expect.stringMatching(/^\/api\/v1\/org_unit\/by_uuid\?uuid=/)]);
      } else {
        expect(versionReads).toContainEqual(expect.stringMatching(/^\/api\/v1\/org_unit\/by_uuid\?/));
        expect(
          versionReads.filter((path) => path.startsWith(`/service/ou/${uuid}/details/org_unit`)),
        ).toHaveLength(3);
      }
    },
  );

  it.each(fields)('refuses to clear a %s the unit holds only later in the period', async (field) => {
    const stack = stackOf();
    const uuid = await createUnit(stack);
    const later = await update(stack, version, {
      uuid,
      [field]: classes[field],
      validity: { from: '2025-01-01' },
    });
    expect(later.answer.errors).toBeUndefined();
    // Open-ended from 2024-06-01: the period holds the class from 2025 on.
    const { answer, writes } = await update(stack, version, {
      uuid,
      name: 'Renamed',
      [field]: null,
      validity: { from: '2024-06-01' },
    });
    expectRefused(answer, field);
    expect(writes).toEqual([]);
    expect(await unitOn(stack, uuid, '2024-06-01')).toMatchObject({ name: 'Before', [field]: null });
    // Ending before the class starts, the period holds none: the edit is written.
    const before = await update(stack, version, {
      uuid,
      name: 'Renamed',
      [field]: null,
      validity: { from: '2024-06-01', to: '2024-10-01' },
    });
    expect(before.answer.errors).toBeUndefined();
    expect(await unitOn(stack, uuid, '2024-06-01')).toMatchObject({ name: 'Renamed', [field]: null });
    expect(await unitOn(stack, uuid, '2025-01-01')).toMatchObject({
      name: 'Before',
      [field]: classes[field],
    });
  });
});

describe.each(['v30', 'v22'])('%s: null for a time planning the unit holds', (version) => {
  it("writes the rename and keeps the time planning, as OS2mo's UI renames a unit (its field hidden)", async () => {
    const uuid = await createUnit(reading, { time_planning: classes.time_planning });
    const { answer, writes } = await update(reading, version, {
      uuid,
      name: 'Renamed',
      time_planning: null,
      validity: { from: '2024-06-01' },
    });
    expectWritten(answer, writes, uuid);
    expect(await unitOn(reading, uuid, '2024-06-01')).toMatchObject({
      name: 'Renamed',
      time_planning: classes.time_planning,
    });
  });
});

describe('a hierarchy over several versions', () => {
  it('is looked for one version at a time, stopping at the first that holds one', async () => {
    const uuid = await createUnit(reading, { org_unit_hierarchy: classes.org_unit_hierarchy });
    // Two renames: three versions, from 2024-01-01, 2024-03-01 and 2024-05-01, each holding the hierarchy.
    for (const [name, from] of [
      ['March', '2024-03-01'],
      ['May', '2024-05-01'],
    ]) {
      const renamed = await update(reading, 'v30', { uuid, name, validity: { from } });
      expect(renamed.answer.errors).toBeUndefined();
    }
    const { answer, reads } = await update(reading, 'v30', {
      uuid,
      org_unit_hierarchy: null,
      validity: { from: '2024-01-01' },
    });
    expectRefused(answer, 'org_unit_hierarchy');
    // The first version holds it: the parent's filtered listings are read on its first day only.
    const listings = reads.filter((path) => path.startsWith(`/service/ou/${unit}/children?`));
    expect(listings.length).toBeGreaterThan(0);
    expect(listings.every((path) => path.includes('at=2024-01-01'))).toBe(true);
  });
});

describe('RBAC before the reads', () => {
  it('refuses a user without a write role with FORBIDDEN, reading nothing of the unit', async () => {
    const uuid = await createUnit(reading, { org_unit_level: classes.org_unit_level });
    const { answer, writes, reads } = await update(
      reading,
      'v30',
      { uuid, name: 'Renamed', org_unit_level: null, validity: { from: '2024-06-01' } },
      'nora',
    );
    expect(answer.errors?.map((error) => error.extensions?.code)).toEqual(['FORBIDDEN']);
    expect(writes).toEqual([]);
    expect(reads.filter((path) => path.includes(uuid))).toEqual([]);
  });
});

describe('v21: null is ignored, as a field left out', () => {
  it.each(Object.keys(classes))('writes the rename and keeps the %s the unit holds', async (field) => {
    const uuid = await createUnit(reading, { [field]: classes[field] });
    const { answer, writes } = await update(reading, 'v21', {
      uuid,
      name: 'Renamed',
      [field]: null,
      validity: { from: '2024-06-01' },
    });
    expectWritten(answer, writes, uuid);
    expect(await unitOn(reading, uuid, '2024-06-01')).toMatchObject({
      name: 'Renamed',
      [field]: classes[field],
    });
  });
});

/**
 * The fields refused and kept are the ledger's value facts on `OrganisationUnitUpdateInput`
 * (`ledger/organisation-unit.ts`), which `unit-clears.ts` reads; the refusal's words for each, whole.
 */
describe("the ledger's value facts", () => {
  it('refuse the fields this file refuses and keep a time planning', () => {
    const fieldsOf = (answer: 'refused when held' | 'kept') =>
      nullFactsOf('OrganisationUnitUpdateInput', answer).map(([field]) => field);
    expect(fieldsOf('refused when held')).toEqual(fields);
    expect(fieldsOf('kept')).toEqual(['time_planning']);
  });

  it.each([
    ['org_unit_level', 'level'],
    ['org_unit_hierarchy', 'hierarchy'],
  ])('word the refusal to clear %s with the ledger\'s "%s"', async (field, what) => {
    const uuid = await createUnit(reading, { [field]: classes[field] });
    const { answer } = await update(reading, 'v30', {
      uuid,
      [field]: null,
      validity: { from: '2024-06-01' },
    });
    expect(answer.errors?.[0]?.message).toBe(
      `The Service API (OS2mo 2.4.0) cannot clear a unit's ${what}, and this unit has one in the period of the edit, so nothing was written. Leave \`${field}\` out to keep the unit's ${what}, or give a class to change it.`,
    );
  });
});

/**
 * This gateway's v1 and v2: their `org_unit_update` has always sent a `null` on as a clear (`resolvers/
 * mutations.ts`, `nullInUpdate: 'clear'`), and their input has a level (no hierarchy or time planning). A held
 * level's clear is refused as on v22+, rather than answered with success while 2.4.0 keeps the level.
 */
describe.each(['v2', 'v1'])('%s: null for a level in org_unit_update', (version) => {
  it('refuses to clear a level the unit holds, and writes nothing (the name stays)', async () => {
    const uuid = await createUnit(reading, { org_unit_level: classes.org_unit_level });
    const { answer, writes } = await update(reading, version, {
      uuid,
      name: 'Renamed',
      org_unit_level: null,
      validity: { from: '2024-06-01' },
    });
    expectRefused(answer, 'org_unit_level', 'OrgUnitUpdateInput');
    expect(writes).toEqual([]);
    expect(await unitOn(reading, uuid, '2024-06-01')).toMatchObject({
      name: 'Before',
      org_unit_level: classes.org_unit_level,
    });
  });

  it('writes the rename for a unit holding no level, the null sent on as judged', async () => {
    const uuid = await createUnit(withoutReadingApi);
    const { answer, writes } = await update(withoutReadingApi, version, {
      uuid,
      name: 'Renamed',
      org_unit_level: null,
      validity: { from: '2024-06-01' },
    });
    expectWritten(answer, writes, uuid);
    expect(await unitOn(withoutReadingApi, uuid, '2024-06-01')).toMatchObject({
      name: 'Renamed',
      org_unit_level: null,
    });
  });

  it('refuses a user without a write role with FORBIDDEN, reading nothing of the unit', async () => {
    const uuid = await createUnit(reading, { org_unit_level: classes.org_unit_level });
    const { answer, writes, reads } = await update(
      reading,
      version,
      { uuid, name: 'Renamed', org_unit_level: null, validity: { from: '2024-06-01' } },
      'nora',
    );
    expect(answer.errors?.map((error) => error.extensions?.code)).toEqual(['FORBIDDEN']);
    expect(writes).toEqual([]);
    expect(reads.filter((path) => path.includes(uuid))).toEqual([]);
  });
});
