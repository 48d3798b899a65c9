import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { classUuid, oscarOwnedUnitUuid, unitUuid } from '../fixture/organisation.js';
import { collections } from '../model.js';
import { openTestLegacy, type TestLegacy } from '../testing.js';

let legacy: TestLegacy;
beforeEach(async () => {
  legacy = await openTestLegacy();
});
afterEach(() => legacy.cleanup());

const read = async (path: string) => (await (await legacy.request(path)).json()) as any;
const created = async (path: string, body: unknown) => {
  const response = await legacy.post(path, body);
  const result = (await response.json()) as any;
  expect(response.status, JSON.stringify(result)).toBe(201);
  return result as string;
};
const ok = async (path: string, body: unknown) => {
  const response = await legacy.post(path, body);
  const result = (await response.json()) as any;
  expect(response.status, JSON.stringify(result)).toBe(200);
  return result;
};

const cls = {
  office: { uuid: classUuid('org_unit_type', 'office') },
  caseworker: { uuid: classUuid('engagement_job_function', 'caseworker') },
  engineer: { uuid: classUuid('engagement_job_function', 'engineer') },
  permanent: { uuid: classUuid('engagement_type', 'permanent') },
  teamLeader: { uuid: classUuid('manager_type', 'team_leader') },
  level4: { uuid: classUuid('manager_level', 'level_4') },
  budget: { uuid: classUuid('responsibility', 'budget') },
};

describe('writes through time', () => {
  // 2.4.0 `service/employee.py` line 64 (`prepare_create`) reads no `validity`: DIPEX's MoraHelper sends
  // `{"from": null, "to": null}` with every person it creates, and 2.4.0 answers 201.
  it.each([
    ['validity without dates, as DIPEX sends it', { from: null, to: null }],
    ['a validity that is no interval', { from: 'soon' }],
    ['a validity that is not an object', 'always'],
  ])('e/create ignores %s and dates the person from the CPR number', async (_name, validity) => {
    const employee = await created('/service/e/create', {
      givenname: 'Dipex',
      surname: 'Person',
      cpr_no: '0101850123',
      validity,
    });
    const response = await legacy.request(
      `/service/e/${employee}/details/employee?validity=-infinity/infinity`,
    );
    const [version] = (await response.json()) as { validity: { from: string; to: string | null } }[];
    expect(version!.validity).toEqual({ from: '1985-01-01', to: null });
  });

  it('e/create keeps a dated validity (the gateway creates people for a period)', async () => {
    const employee = await created('/service/e/create', {
      givenname: 'Dated',
      surname: 'Person',
      validity: { from: '2024-03-01', to: '2030-12-31' },
    });
    const response = await legacy.request(
      `/service/e/${employee}/details/employee?validity=-infinity/infinity`,
    );
    const [version] = (await response.json()) as { validity: { from: string; to: string | null } }[];
    expect(version!.validity).toEqual({ from: '2024-03-01', to: '2030-12-31' });
  });

  it('creates a unit, employee, engagement, manager and owner; edits and terminates with history', async () => {
    const unit = await created('/service/ou/create', {
      name: 'Bridge Office',
      parent: { uuid: oscarOwnedUnitUuid },
      org_unit_type: cls.office,
      validity: { from: '2024-01-01' },
    });
    const employee = await created('/service/e/create', { givenname: 'Testa', surname: 'Person' });
    const [engagement, manager, owner] = await created('/service/details/create', [
      {
        type: 'engagement',
        person: { uuid: employee },
        org_unit: { uuid: unit },
        job_function: cls.caseworker,
        engagement_type: cls.permanent,
        validity: { from: '2024-02-01' },
      },
      {
        type: 'manager',
        person: { uuid: employee },
        org_unit: { uuid: unit },
        manager_type: cls.teamLeader,
        manager_level: cls.level4,
        responsibility: [cls.budget],
        validity: { from: '2024-02-01' },
      },
      {
        type: 'owner',
        owner: { uuid: employee },
        org_unit: { uuid: unit },
        validity: { from: '2024-02-01' },
      },
    ]);
    expect((await read(`/service/ou/${unit}/`)).parent.uuid).toBe(oscarOwnedUnitUuid);
    expect((await read(`/service/ou/${oscarOwnedUnitUuid}/children`)).map((c: any) => c.uuid)).toContain(
      unit,
    );
    expect((await read(`/service/ou/${unit}/details/owner`))[0]).toMatchObject({
      uuid: owner,
      owner: { uuid: employee },
    });

    // An edit from a future date starts a new validity; the present one ends the day before.
    await ok('/service/details/edit', {
      type: 'engagement',
      uuid: engagement,
      data: { job_function: cls.engineer, validity: { from: '2027-01-01' } },
    });
    const present = await read(`/service/e/${employee}/details/engagement`);
    expect(present).toHaveLength(1);
    expect(present[0]).toMatchObject({
      uuid: engagement,
      job_function: { user_key: 'caseworker' },
      validity: { from: '2024-02-01', to: '2026-12-31' },
    });
    const future = await read(`/service/e/${employee}/details/engagement?validity=future`);
    expect(future).toMatchObject([
      { job_function: { user_key: 'engineer' }, validity: { from: '2027-01-01', to: null } },
    ]);
    const later = await read(`/service/e/${employee}/details/engagement?at=2027-06-01`);
    expect(later[0].job_function.user_key).toBe('engineer');

    await ok('/service/details/terminate', {
      type: 'manager',
      uuid: manager,
      validity: { to: '2026-03-31' },
    });
    expect(await read(`/service/ou/${unit}/details/manager`)).toEqual([]);
    const past = await read(`/service/ou/${unit}/details/manager?validity=past`);
    expect(past).toMatchObject([
      { uuid: manager, person: { uuid: employee }, validity: { from: '2024-02-01', to: '2026-03-31' } },
    ]);
    expect(await read(`/service/ou/${unit}/details/manager?at=2025-01-01`)).toHaveLength(1);
  });

  it('renames and moves a unit from a date, keeping the old name and parent before it', async () => {
    const unit = unitUuid(20);
    const before = await read(`/service/ou/${unit}/`);
    await ok('/service/details/edit', {
      type: 'org_unit',
      // OS2mo reads the unit from data.uuid.
      data: {
        uuid: unit,
        name: 'Renamed Unit',
        parent: { uuid: oscarOwnedUnitUuid },
        validity: { from: '2026-07-01' },
      },
    });
    expect((await read(`/service/ou/${unit}/`)).name).toBe(before.name);
    const after = await read(`/service/ou/${unit}/?at=2026-07-01`);
    expect(after).toMatchObject({ name: 'Renamed Unit', parent: { uuid: oscarOwnedUnitUuid } });
  });

  // OS2mo 2.4.0 backend/mora/service/orgunit.py: ou/create and the unit's edit take `time_planning`, and the
  // unit's read gives it as a class.
  it("keeps a unit's time planning from create, changes it by edit, keeps it on null, and refuses another facet's class", async () => {
    const plans = { uuid: classUuid('time_planning', 'working_time_plans') };
    const duty = { uuid: classUuid('time_planning', 'duty_planning') };
    const unit = await created('/service/ou/create', {
      name: 'Planned Unit',
      parent: { uuid: unitUuid(20) },
      org_unit_type: cls.office,
      time_planning: plans,
      validity: { from: '2026-01-01' },
    });
    expect((await read(`/service/ou/${unit}/?at=2026-01-01`)).time_planning).toMatchObject({
      uuid: plans.uuid,
      name: 'Working-time plans',
    });
    const edit = (time_planning: unknown, from: string) =>
      legacy.post('/service/details/edit', {
        type: 'org_unit',
        data: { uuid: unit, time_planning, validity: { from } },
      });
    expect((await edit(duty, '2026-03-01')).status).toBe(200);
    expect((await edit(null, '2026-06-01')).status).toBe(200);
    expect((await read(`/service/ou/${unit}/?at=2026-02-01`)).time_planning.uuid).toBe(plans.uuid);
    expect((await read(`/service/ou/${unit}/?at=2026-04-01`)).time_planning.uuid).toBe(duty.uuid);
    // 2.4.0 `service/orgunit.py` line 262: a null time planning is not stored, so the unit keeps its own.
    expect((await read(`/service/ou/${unit}/?at=2026-07-01`)).time_planning.uuid).toBe(duty.uuid);
    const wrong = await edit(cls.office, '2026-08-01');
    expect(wrong.status).toBe(400);
    expect((await read(`/service/ou/${unit}/?at=2026-09-01`)).time_planning.uuid).toBe(duty.uuid);
  });

  // 2.4.0 `service/orgunit.py` lines 248, 255 and 262 store the level, hierarchy and time planning only
  // behind `if data.get(…)`: a falsy value (null, {}) leaves the unit's class as it was, and no Service API
  // write clears one.
  describe.each([
    ['org_unit_level', classUuid('org_unit_level', 'level_2')],
    ['org_unit_hierarchy', classUuid('org_unit_hierarchy', 'safety_organisation')],
    ['time_planning', classUuid('time_planning', 'working_time_plans')],
  ])('an edit giving a falsy %s', (field, held) => {
    it.each([
      ['null', null],
      ['{}', {}],
      ['""', ''],
    ])('keeps the class on %s and still writes the rest of the edit', async (_, given) => {
      const unit = await created('/service/ou/create', {
        name: 'Classed Unit',
        parent: { uuid: unitUuid(20) },
        org_unit_type: cls.office,
        [field]: { uuid: held },
        validity: { from: '2026-01-01' },
      });
      await ok('/service/details/edit', {
        type: 'org_unit',
        data: { uuid: unit, name: 'Renamed', [field]: given, validity: { from: '2026-03-01' } },
      });
      const [after] = await read(`/service/ou/${unit}/details/org_unit?at=2026-04-01`);
      expect(after.name).toBe('Renamed');
      if (field === 'org_unit_hierarchy') {
        // 2.4.0 reads a unit's hierarchy only as the children's filter (`service/orgunit.py` line 912).
        const children = await read(
          `/service/ou/${unitUuid(20)}/children?org_unit_hierarchy=${held}&at=2026-04-01`,
        );
        expect(children.map((child: { uuid: string }) => child.uuid)).toContain(unit);
      } else {
        expect(after[field].uuid).toBe(held);
      }
    });
  });

  // 2.4.0 `service/orgunit.py` line 245 indexes `org_unit_type['uuid']` unguarded, so null or {} is a 500 there
  // (TypeError, KeyError); the stand-in answers the clear 400 instead, and keeps the type.
  it.each([
    ['null', null],
    ['{}', {}],
  ])('refuses an org_unit_type of %s with 400 V_MISSING_REQUIRED_VALUE', async (_, given) => {
    const unit = unitUuid(20);
    const before = await read(`/service/ou/${unit}/?at=2026-04-01`);
    const response = await legacy.post('/service/details/edit', {
      type: 'org_unit',
      data: { uuid: unit, org_unit_type: given, validity: { from: '2026-03-01' } },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).error_key).toBe('V_MISSING_REQUIRED_VALUE');
    expect((await read(`/service/ou/${unit}/?at=2026-04-01`)).org_unit_type).toEqual(before.org_unit_type);
  });

  // 2.4.0 `service/orgunit.py` line 273 reads the parent with `util.get_mapping_uuid` (`util.py` line 533),
  // None for any falsy value: `{}` names the top as `null` does, and `validator.py` line 305 refuses a move there.
  it.each([
    ['null', null],
    ['{}', {}],
  ])(
    'refuses a parent of %s for a unit below the top: it cannot move to the top level',
    async (_, parent) => {
      const unit = unitUuid(20);
      const response = await legacy.post('/service/details/edit', {
        type: 'org_unit',
        data: { uuid: unit, parent, validity: { from: '2026-03-01' } },
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as any).error_key).toBe('V_CANNOT_MOVE_UNIT_TO_ROOT_LEVEL');
    },
  );

  // `checked_get` (`util.py` lines 465-486 at tag 2.4.0) refuses a parent that is neither None nor a dict.
  it.each([
    ['""', ''],
    ['false', false],
    ['0', 0],
    ['[]', []],
  ])('refuses a parent of %s as no object, for a unit at the top too', async (_, parent) => {
    const [top] = (await read('/service/o/')) as { uuid: string }[];
    const roots = (await read(`/service/o/${top!.uuid}/children`)) as { uuid: string }[];
    for (const unit of [unitUuid(20), roots[0]!.uuid]) {
      const response = await legacy.post('/service/details/edit', {
        type: 'org_unit',
        data: { uuid: unit, parent, validity: { from: '2026-03-01' } },
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as any).error_key).toBe('E_INVALID_TYPE');
    }
  });

  it('vacates manager roles when an employee is terminated with vacate', async () => {
    const managers = await read(`/service/ou/${oscarOwnedUnitUuid}/details/manager`);
    const person = managers[0].person.uuid as string;
    await ok(`/service/e/${person}/terminate`, { validity: { to: '2026-06-30' }, vacate: true });
    expect(
      (await read(`/service/ou/${oscarOwnedUnitUuid}/details/manager?at=2026-07-01`))[0].person,
    ).toBeNull();
    expect(await read(`/service/e/${person}/details/engagement?at=2026-07-01`)).toEqual([]);
    expect(await read(`/service/e/${person}/details/engagement?at=2026-06-30`)).toHaveLength(1);
  });
});

describe('a create sent again with its own uuid (issue 20: a retry after a broken connection)', () => {
  // OS2mo 2.4.0 takes a client's `uuid` on ou/create, e/create and details/create
  // (backend/mora/service/orgunit.py, employee.py, engagement.py: `util.get_uuid(req, required=False)`).
  const creates: [string, (uuid: string) => unknown][] = [
    [
      '/service/ou/create',
      (uuid) => ({
        uuid,
        name: 'Retry Office',
        parent: { uuid: oscarOwnedUnitUuid },
        org_unit_type: cls.office,
        validity: { from: '2024-01-01' },
      }),
    ],
    ['/service/e/create', (uuid) => ({ uuid, givenname: 'Retry', surname: 'Person' })],
    [
      '/service/details/create',
      (uuid) => ({
        uuid,
        type: 'engagement',
        person: { uuid: '0dbddb2e-6dd2-4081-bf5a-484b7018914f' },
        org_unit: { uuid: oscarOwnedUnitUuid },
        job_function: cls.caseworker,
        engagement_type: cls.permanent,
        validity: { from: '2024-02-01' },
      }),
    ],
  ];

  it.each(creates)('%s makes one object and answers the retry 409 E_ALREADY_EXISTS', async (path, body) => {
    const uuid = '7c1a3f3e-2f1d-4d6e-9a53-5a1f0c2e9b01';
    expect(await created(path, body(uuid))).toBe(uuid);
    const sequence = legacy.store.sequence;
    const retry = await legacy.post(path, body(uuid));
    expect(retry.status).toBe(409);
    expect(await retry.json()).toMatchObject({ error_key: 'E_ALREADY_EXISTS', uuid });
    expect(legacy.store.sequence).toBe(sequence);
  });

  it('refuses a detail whose uuid another detail type already has (one table in OS2mo)', async () => {
    // Issue 28: a KLE number created with an engagement's UUID was written, two records under one UUID.
    const [engagement] = await read(`/service/ou/${oscarOwnedUnitUuid}/details/engagement`);
    const sequence = legacy.store.sequence;
    const response = await legacy.post('/service/details/create', {
      uuid: engagement.uuid,
      type: 'kle',
      org_unit: { uuid: oscarOwnedUnitUuid },
      kle_number: { uuid: classUuid('kle_number', '00.01') },
      kle_aspect: [{ uuid: classUuid('kle_aspect', 'responsible') }],
      validity: { from: '2024-01-01' },
    });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error_key: 'E_ALREADY_EXISTS', uuid: engagement.uuid });
    expect(legacy.store.sequence).toBe(sequence);
  });
});

describe('bad input changes nothing', () => {
  const snapshot = () => {
    const state: Record<string, unknown[]> = {};
    for (const collection of Object.values(collections))
      state[collection] = [...legacy.store.all(collection)];
    return JSON.stringify({ state, sequence: legacy.store.sequence });
  };
  const engagement = (overrides: Record<string, unknown>) => ({
    type: 'engagement',
    person: { uuid: '0dbddb2e-6dd2-4081-bf5a-484b7018914f' },
    org_unit: { uuid: oscarOwnedUnitUuid },
    job_function: cls.caseworker,
    engagement_type: cls.permanent,
    validity: { from: '2024-01-01' },
    ...overrides,
  });
  const unknownUuid = '00000000-0000-4000-8000-000000000000';

  it.each([
    ['malformed JSON', '/service/ou/create', '{"name": ', 400, 'E_INVALID_INPUT'],
    ['body not an object', '/service/ou/create', '"unit"', 400, 'E_INVALID_INPUT'],
    [
      'missing name',
      '/service/ou/create',
      { org_unit_type: cls.office, validity: { from: '2024-01-01' } },
      400,
      'V_MISSING_REQUIRED_VALUE',
    ],
    [
      'bad parent UUID',
      '/service/ou/create',
      { name: 'X', parent: { uuid: 'nope' }, org_unit_type: cls.office, validity: { from: '2024-01-01' } },
      400,
      'E_INVALID_UUID',
    ],
    [
      'unknown parent',
      '/service/ou/create',
      {
        name: 'X',
        parent: { uuid: unknownUuid },
        org_unit_type: cls.office,
        validity: { from: '2024-01-01' },
      },
      404,
      'E_ORG_UNIT_NOT_FOUND',
    ],
    [
      'unknown class',
      '/service/ou/create',
      { name: 'X', org_unit_type: { uuid: unknownUuid }, validity: { from: '2024-01-01' } },
      404,
      'E_CLASS_NOT_FOUND',
    ],
    [
      'class of another facet',
      '/service/ou/create',
      { name: 'X', org_unit_type: cls.caseworker, validity: { from: '2024-01-01' } },
      400,
      'E_CLASS_WRONG_FACET',
    ],
    [
      'to before from',
      '/service/ou/create',
      { name: 'X', org_unit_type: cls.office, validity: { from: '2024-01-01', to: '2023-01-01' } },
      400,
      'V_END_BEFORE_START',
    ],
    [
      'bad date',
      '/service/ou/create',
      { name: 'X', org_unit_type: cls.office, validity: { from: '2024-02-30' } },
      400,
      'E_INVALID_INPUT',
    ],
    ['no name at all', '/service/e/create', { user_key: 'nameless' }, 400, 'V_MISSING_REQUIRED_VALUE'],
    [
      'unknown detail type',
      '/service/details/create',
      engagement({ type: 'salary' }),
      400,
      'E_UNKNOWN_ROLE_TYPE',
    ],
    [
      'missing detail type',
      '/service/details/create',
      engagement({ type: undefined }),
      400,
      'E_UNKNOWN_ROLE_TYPE',
    ],
    [
      'unknown person',
      '/service/details/create',
      engagement({ person: { uuid: unknownUuid } }),
      404,
      'E_USER_NOT_FOUND',
    ],
    [
      'engagement before its unit',
      '/service/details/create',
      engagement({ validity: { from: '2001-01-01' } }),
      400,
      'V_DATE_OUTSIDE_ORG_UNIT_RANGE',
    ],
    [
      'one bad item in a list',
      '/service/details/create',
      [engagement({}), engagement({ job_function: { uuid: unknownUuid } })],
      404,
      'E_CLASS_NOT_FOUND',
    ],
    [
      'edit of an unknown detail',
      '/service/details/edit',
      { type: 'engagement', uuid: unknownUuid, data: { validity: { from: '2025-01-01' } } },
      404,
      'E_NOT_FOUND',
    ],
    [
      'move below its own child',
      '/service/details/edit',
      {
        type: 'org_unit',
        data: { uuid: unitUuid(1), parent: { uuid: oscarOwnedUnitUuid }, validity: { from: '2025-01-01' } },
      },
      400,
      'V_ORG_UNIT_MOVE_TO_CHILD',
    ],
    [
      'terminate a unit with children',
      `/service/ou/${unitUuid(1)}/terminate`,
      { validity: { to: '2026-12-31' } },
      400,
      'V_TERMINATE_UNIT_WITH_CHILDREN_AND_ROLES',
    ],
    ['terminate without a date', `/service/ou/${unitUuid(1)}/terminate`, {}, 400, 'V_MISSING_REQUIRED_VALUE'],
    [
      'create with a taken UUID',
      '/service/e/create',
      { uuid: '0dbddb2e-6dd2-4081-bf5a-484b7018914f', givenname: 'A', surname: 'B' },
      409,
      'E_ALREADY_EXISTS',
    ],
  ])('%s → %i %s', async (_name, path, body, status, key) => {
    const before = snapshot();
    const response = await legacy.post(path, body);
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({
      error: true,
      status,
      error_key: key,
      description: expect.any(String),
    });
    expect(snapshot()).toBe(before);
  });

  it('refuses an oversized body with 413 and writes nothing', async () => {
    const before = snapshot();
    const response = await legacy.post('/service/e/create', {
      givenname: 'x'.repeat(2 * 1024 * 1024),
      surname: 'y',
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error_key: 'E_PAYLOAD_TOO_LARGE' });
    expect(snapshot()).toBe(before);
  });
});

describe('bodies nested too deeply', () => {
  // Issue 20, item 8: a 50,000-deep body made a recursive walk overflow the stack, a 500 E_UNKNOWN.
  const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;

  it.each([
    ['/service/ou/create', `{"name": ${deep}}`],
    ['/service/e/create', `{"givenname": ${deep}}`],
    ['/service/details/create', `{"type": "engagement", "person": ${deep}}`],
    ['/service/details/edit', `{"type": "engagement", "uuid": "x", "data": ${deep}}`],
    ['/service/details/terminate', `{"type": "engagement", "uuid": "x", "validity": ${deep}}`],
  ])('%s answers 400 E_INVALID_INPUT, per the error contract', async (path, body) => {
    const response = await legacy.post(path, body);
    const answer = (await response.json()) as any;
    expect(response.status).toBe(400);
    expect(answer).toMatchObject({ error: true, status: 400, error_key: 'E_INVALID_INPUT' });
    expect(answer.description).toMatch(/nested more than \d+ levels deep/);
  });
});
