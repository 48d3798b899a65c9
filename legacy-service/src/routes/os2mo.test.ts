import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCprNumber } from '../cpr.js';
import { readDevUsers } from '../fixture/dev-users.js';
import {
  classUuid,
  organisationUuid,
  oscarOwnedUnitUuid,
  referenceUnitUuids,
  unitUuid,
} from '../fixture/organisation.js';
import { unitConfiguration } from '../frontend-settings.js';
import { darAddressOf } from '../fixture/os2mo-records.js';
import { detailTypes } from '../model.js';
import { addressPresentation, darAddressText } from '../views.js';
import { openTestLegacy, type TestLegacy } from '../testing.js';

/** Reads and writes held against OS2mo 2.4.0's shapes (`handler/impl/*.py`, `test_integration_*.py`). */

let legacy: TestLegacy;
beforeAll(async () => {
  legacy = await openTestLegacy();
});
afterAll(() => legacy.cleanup());

/**
 * Gives the suite that calls it a store of its own for its tests: the writes change data that the reads hold
 * to the seed (a person created without a CPR number among the first 50), and the order is shuffled.
 */
function writesOnTheirOwnStore(): void {
  let seeded: TestLegacy;
  beforeAll(async () => {
    seeded = legacy;
    legacy = await openTestLegacy();
  });
  afterAll(async () => {
    await legacy.cleanup();
    legacy = seeded;
  });
}

const get = async (path: string) => {
  const response = await legacy.request(path);
  return { status: response.status, body: (await response.json()) as any };
};
const post = async (path: string, body: unknown) => {
  const response = await legacy.post(path, body);
  return { status: response.status, body: (await response.json()) as any };
};

const [alice] = readDevUsers();
const aliceUuid = alice!.uuid;
const fullClassKeys = [
  'example',
  'facet',
  'full_name',
  'name',
  'owner',
  'scope',
  'top_level_facet',
  'user_key',
  'uuid',
];
const personKeys = [
  'givenname',
  'name',
  'nickname',
  'nickname_givenname',
  'nickname_surname',
  'seniority',
  'surname',
  'uuid',
];
const unitKeys = ['name', 'user_key', 'uuid', 'validity'];
const keys = (value: object) => Object.keys(value).sort();

/** The first record of a type on units 0–99 (the fixture has each kind somewhere). */
async function firstOnUnits(type: string, query = '') {
  for (let index = 0; index < 100; index += 1) {
    const { body } = await get(`/service/ou/${unitUuid(index)}/details/${type}${query}`);
    if (body.length > 0) return { unit: unitUuid(index), record: body[0] };
  }
  throw new Error(`no ${type} on any unit`);
}

describe('detail reads with OS2mo key sets', () => {
  it('lists which detail types exist, as OS2mo /details/ does', async () => {
    const unit = await get(`/service/ou/${unitUuid(0)}/details/`);
    expect(keys(unit.body)).toEqual([...detailTypes, 'org_unit'].sort());
    expect(unit.body).toMatchObject({ org_unit: true, address: true, manager: true, it: true });
    const person = await get(`/service/e/${aliceUuid}/details/`);
    expect(person.body).toMatchObject({ org_unit: false, engagement: true, address: true });
  });

  it('shows addresses with address_type, href, name, value and visibility', async () => {
    const { body } = await get(`/service/ou/${unitUuid(0)}/details/address`);
    const email = body.find((address: any) => address.address_type.scope === 'EMAIL');
    expect(keys(email)).toEqual(
      [
        'address_type',
        'href',
        'name',
        'org_unit',
        'user_key',
        'uuid',
        'validity',
        'value',
        'value2',
        'visibility',
      ].sort(),
    );
    expect(email.href).toBe(`mailto:${email.value}`);
    expect(keys(email.address_type)).toEqual(fullClassKeys);
    expect(email.address_type.facet.user_key).toBe('org_unit_address_type');
    expect(keys(email.org_unit)).toEqual(unitKeys);
    // A DAR address is rendered from the register, with a map link (2.4.0 test_integration_address.py::
    // AddressTests::test_reading: 'Nordre Ringgade 1, 8000 Aarhus C' and an openstreetmap.org link).
    const postal = body.find((address: any) => address.address_type.scope === 'DAR');
    expect(postal).toMatchObject({
      name: 'Town Hall Square 1, 0. th, Old Harbour, 9990 Northbay',
      href: 'https://www.openstreetmap.org/?mlon=10.5&mlat=57.4&zoom=16',
      value: darAddressOf(0).uuid,
      value2: null,
    });
    const people = await get(`/service/e/${aliceUuid}/details/address`);
    const phone = people.body.find((address: any) => address.address_type.scope === 'PHONE');
    expect(phone.href).toBe(`tel:${phone.value}`);
    expect(keys(phone.person)).toEqual(personKeys);
  });

  // 2.4.0 test_integration_address.py::AddressTests::test_missing_address: a DAR value DAWA does not know
  // reads as 'Ukendt' without a link (`service/address_handler/dar.py`, `from_effect`).
  it("shows a DAR address the register does not know as OS2mo's Ukendt, without a link", async () => {
    const unknownDar = '7ea0e3e9-1d27-4b9b-9b8a-59a5b1a6c0de';
    const created = await post('/service/details/create', {
      type: 'address',
      org_unit: { uuid: unitUuid(5) },
      address_type: { uuid: classUuid('org_unit_address_type', 'unit_postal') },
      value: unknownDar,
      user_key: 'Nordre Ringgade 1, 8000 Aarhus C',
      validity: { from: '2026-01-01' },
    });
    expect(created.status).toBe(201);
    const { body } = await get(`/service/ou/${unitUuid(5)}/details/address`);
    expect(body.find((address: any) => address.value === unknownDar)).toMatchObject({
      href: null,
      name: 'Ukendt',
      value: unknownDar,
      value2: null,
    });
  });

  it('renders floors, doors and a supplementary town name as 2.4.0 does, and no link without coordinates', () => {
    expect(darAddressText({ ...darAddressOf(1), etage: null, dør: null })).toBe(
      'Town Hall Square 2, 9990 Northbay',
    );
    expect(darAddressText({ ...darAddressOf(1), etage: 'st', dør: null })).toBe(
      'Town Hall Square 2, st., 9990 Northbay',
    );
    expect(addressPresentation('DAR', darAddressOf(4).uuid, () => darAddressOf(4)).href).toBeNull();
  });

  // DIPEX's rollekatalog exporter keeps a unit's KLE numbers by their aspects' scopes (INDSIGT, UDFOERENDE):
  // seeded aspects without a scope made it drop every unit's KLE.
  it("gives KLE aspects OS2mo's scopes, so exporters can tell interest from performing", async () => {
    const { body } = await get('/service/f/kle_aspect/');
    const scopes = body.data.items.map((item: { scope: string | null }) => item.scope).sort();
    expect(scopes).toEqual(['ANSVARLIG', 'INDSIGT', 'UDFOERENDE']);
    const { record } = await firstOnUnits('kle');
    for (const aspect of record.kle_aspect) expect(scopes).toContain(aspect.scope);
  });

  it('shows engagements with primary, is_primary, fraction and extension fields', async () => {
    const { body } = await get(`/service/e/${aliceUuid}/details/engagement`);
    const [engagement] = body;
    for (const key of ['primary', 'is_primary', 'fraction', 'extension_1', 'extension_10', 'job_function']) {
      expect(engagement).toHaveProperty(key);
    }
    expect(engagement.is_primary).toBeNull();
    expect(engagement.primary.user_key).toBe('primary');
    expect(engagement.extension_1).toMatch(/^CC-\d{4}$/);
    const calculated = await get(`/service/e/${aliceUuid}/details/engagement?calculate_primary=1`);
    expect(calculated.body[0].is_primary).toBe(true);
  });

  it('shows only UUIDs of embedded objects with only_primary_uuid', async () => {
    const { body } = await get(`/service/e/${aliceUuid}/details/engagement?only_primary_uuid=1`);
    for (const key of ['person', 'org_unit', 'job_function', 'engagement_type', 'primary']) {
      expect(keys(body[0][key])).toEqual(['uuid']);
    }
  });

  it.each([
    ['association', ['association_type', 'dynamic_classes', 'org_unit', 'person', 'primary', 'substitute']],
    ['role', ['org_unit', 'person', 'role_type']],
    ['kle', ['kle_aspect', 'kle_number', 'org_unit']],
    ['related_unit', ['org_unit']],
    ['engagement_association', ['engagement', 'engagement_association_type', 'org_unit']],
    ['it', ['itsystem', 'org_unit', 'person']],
  ])('shows %s records with their fields', async (type, fields) => {
    const { record } = await firstOnUnits(type);
    expect(keys(record)).toEqual([...fields, 'user_key', 'uuid', 'validity'].sort());
  });

  it('joins related units and lists both, sorted by name', async () => {
    const { unit, record } = await firstOnUnits('related_unit');
    expect(record.org_unit).toHaveLength(2);
    expect(record.org_unit.map((item: any) => item.uuid)).toContain(unit);
  });

  it('shows owners with owner_inference_priority, of units and of people', async () => {
    const { body } = await get(`/service/ou/${oscarOwnedUnitUuid}/details/owner`);
    expect(body[0]).toMatchObject({
      owner_inference_priority: null,
      person: null,
      org_unit: { uuid: oscarOwnedUnitUuid },
    });
    expect(body[0].owner.uuid).toBe(readDevUsers()[1]!.uuid);
  });

  it('searches units below a root, with paths when asked', async () => {
    const below = await get(`/service/o/${organisationUuid}/ou/?root=${referenceUnitUuids[0]}&details=path`);
    expect(below.body.total).toBeGreaterThan(1);
    for (const item of below.body.items)
      expect(item.location === '' || item.location.startsWith('Northbay Municipality')).toBe(true);
    const nowhere = await get(`/service/o/${organisationUuid}/ou/?root=${organisationUuid}`);
    expect(nowhere.body).toEqual({ items: [], offset: 0, total: 0 });
  });

  it('shows a person their associations from their own side with first_party_perspective', async () => {
    const { record } = await firstOnUnits('association');
    const person = record.person.uuid;
    const { body } = await get(`/service/e/${person}/details/association?first_party_perspective=1`);
    expect(body[0]).toMatchObject({
      first_party_association_type: body[0].association_type,
      third_party_associated: null,
      third_party_association_type: null,
    });
    const onUnit = await get(`/service/ou/${unitUuid(0)}/details/association?first_party_perspective=1`);
    expect(onUnit.body.error_key).toBe('E_INVALID_INPUT');
  });

  it('reads at a date-time as its date, and inherits managers up the tree', async () => {
    const byDate = await get(`/service/ou/${referenceUnitUuids[0]}/details/manager?at=2024-05-01`);
    const byDateTime = await get(
      `/service/ou/${referenceUnitUuids[0]}/details/manager?at=2024-05-01T10:00:00%2B02:00`,
    );
    expect(byDateTime.body).toEqual(byDate.body);
    const { unit } = await firstOnUnits('manager');
    expect(unit).toBeDefined();
  });

  it('shows people with CPR numbers that pass OS2mo check, and nicknames', async () => {
    const { body } = await get(`/service/e/${aliceUuid}/`);
    expect(body).toMatchObject({ cpr_no: expect.stringMatching(/^\d{10}$/), nickname: '', seniority: '' });
    expect(isCprNumber(body.cpr_no)).toBe(true);
    const page = await get(`/service/o/${organisationUuid}/e/?limit=50`);
    for (const item of page.body.items) expect(isCprNumber(item.cpr_no)).toBe(true);
    expect(new Set(page.body.items.map((item: any) => item.cpr_no)).size).toBe(50);
  });

  it('reads a unit and a person themselves as details/org_unit and details/employee', async () => {
    const unit = await get(`/service/ou/${oscarOwnedUnitUuid}/details/org_unit`);
    expect(unit.body).toHaveLength(1);
    expect(unit.body[0]).toMatchObject({
      uuid: oscarOwnedUnitUuid,
      location: "Northbay Municipality\\Mayor's Office",
      user_settings: { orgunit: unitConfiguration },
      time_planning: null,
    });
    const person = await get(`/service/e/${aliceUuid}/details/employee`);
    expect(person.body[0]).toMatchObject({
      uuid: aliceUuid,
      cpr_no: expect.any(String),
      validity: expect.any(Object),
    });
    expect((await get(`/service/e/${aliceUuid}/details/org_unit`)).body.error_key).toBe(
      'E_INVALID_ROLE_TYPE',
    );
    expect((await get(`/service/ou/${organisationUuid}/details/org_unit`)).body).toEqual([]);
  });

  it('locates a unit by its ancestors joined with a backslash', async () => {
    const { body } = await get(`/service/ou/${oscarOwnedUnitUuid}/`);
    expect(body.location).toBe("Northbay Municipality\\Mayor's Office");
    expect(keys(body.org_unit_type)).toEqual(fullClassKeys);
  });
});

describe('lookups', () => {
  it('autocompletes units with their path and people by name', async () => {
    const units = await get('/service/ou/autocomplete/?query=mayor');
    expect(units.body.items.length).toBeGreaterThan(0);
    expect(units.body.items[0]).toEqual({
      uuid: expect.any(String),
      name: expect.any(String),
      path: expect.any(Array),
      attrs: [],
    });
    const people = await get(`/service/e/autocomplete/?query=alice%20andersen`);
    expect(people.body.items.map((item: any) => item.uuid)).toContain(aliceUuid);
    expect((await get('/service/e/autocomplete/?query=')).body).toEqual({ items: [] });
  });

  it('autocompletes a person by CPR number, as LoRa’s person autocomplete (OS2mo HEAD `_get_cte_cpr_hits`)', async () => {
    const alice = await get(`/service/e/${aliceUuid}/`);
    expect(alice.body.cpr_no).toMatch(/^\d{10}$/);
    const people = await get(`/service/e/autocomplete/?query=${alice.body.cpr_no}`);
    expect(people.body.items.map((item: any) => item.uuid)).toEqual([aliceUuid]);
  });

  it('answers the tree down to the units asked for', async () => {
    const { body } = await get(`/service/o/${organisationUuid}/ou/tree?uuid=${oscarOwnedUnitUuid}`);
    expect(body).toHaveLength(1);
    expect(body[0].uuid).toBe(unitUuid(0));
    expect(body[0].children[0].children[0]).toMatchObject({
      uuid: oscarOwnedUnitUuid,
      child_count: expect.any(Number),
    });
  });

  it('answers the ancestor tree with every sibling of each ancestor', async () => {
    const { body } = await get(`/service/ou/ancestor-tree?uuid=${oscarOwnedUnitUuid}`);
    expect(body).toHaveLength(1);
    const departments = body[0].children;
    expect(departments.length).toBe(6);
    const mayor = departments.find((unit: any) => unit.children);
    expect(mayor.children.map((unit: any) => unit.uuid)).toContain(oscarOwnedUnitUuid);
    expect(mayor.children[0]).toEqual(expect.objectContaining({ child_count: expect.any(Number) }));
    expect((await get('/service/ou/ancestor-tree')).body.error_key).toBe('E_INVALID_INPUT');
  });

  it('lists a facet top-level classes with child counts', async () => {
    const { body } = await get('/service/f/manager_type/children');
    expect(body[0]).toEqual({
      uuid: expect.any(String),
      name: expect.any(String),
      user_key: expect.any(String),
      child_count: 0,
    });
    expect((await get('/service/f/no_such_facet/children')).body.error_key).toBe('E_NOT_FOUND');
  });

  it('filters by an interval FROM/TO and refuses an unknown validity', async () => {
    const all = await get(`/service/e/${aliceUuid}/details/engagement?validity=2000-01-01/infinity`);
    expect(all.body).toHaveLength(1);
    const before = await get(`/service/e/${aliceUuid}/details/engagement?validity=2000-01-01/2010-12-31`);
    expect(before.body).toEqual([]);
    expect((await get(`/service/e/${aliceUuid}/details/engagement?validity=someday`)).body.error_key).toBe(
      'V_INVALID_VALIDITY',
    );
  });

  it('looks up known CPR numbers offline and refuses malformed ones', async () => {
    const person = await get(`/service/e/${aliceUuid}/`);
    const found = await get(`/service/e/cpr_lookup/?q=${person.body.cpr_no}`);
    expect(found).toEqual({ status: 200, body: { name: 'Alice Andersen', cpr_no: person.body.cpr_no } });
    expect((await get('/service/e/cpr_lookup/?q=3213001234')).body.error_key).toBe('V_CPR_NOT_VALID');
    expect((await get('/service/e/cpr_lookup/?q=0101011234')).status).toBe(404);
  });

  it('serves classes with the details asked for, and children', async () => {
    const uuid = classUuid('manager_type', 'director');
    const plain = await get(`/service/c/${uuid}/`);
    expect(plain.body).toEqual({
      uuid,
      name: 'Director',
      user_key: 'director',
      example: null,
      scope: null,
      owner: null,
    });
    const withFacet = await get(`/service/c/${uuid}/?facet=1`);
    expect(withFacet.body.facet).toMatchObject({ user_key: 'manager_type' });
    const full = await get(`/service/c/${uuid}/?full_name=1&top_level_facet=1`);
    expect(full.body).toMatchObject({ full_name: 'Director', top_level_facet: { user_key: 'manager_type' } });
    expect((await get(`/service/c/${uuid}/?nonsense=1`)).body.error_key).toBe('E_INVALID_INPUT');
    expect((await get(`/service/c/${uuid}/children`)).body).toEqual([]);
    const facet = await get(`/service/o/${organisationUuid}/f/org_unit_address_type/?facet=1`);
    expect(facet.body.data.items[0].facet.user_key).toBe('org_unit_address_type');
  });
});

describe('writes for every detail type', () => {
  writesOnTheirOwnStore();
  const person = () => ({ uuid: aliceUuid });
  const unit = { uuid: unitUuid(5) };
  const validity = { from: '2026-01-01', to: null };

  it('creates, reads back, edits and terminates records of the new kinds', async () => {
    const created = await post('/service/details/create', [
      {
        type: 'address',
        org_unit: unit,
        address_type: { uuid: classUuid('org_unit_address_type', 'unit_email') },
        value: 'new@northbay.example',
        validity,
      },
      {
        type: 'association',
        person: person(),
        org_unit: unit,
        association_type: { uuid: classUuid('association_type', 'member') },
        validity,
      },
      {
        type: 'role',
        person: person(),
        org_unit: unit,
        role_type: { uuid: classUuid('role_type', 'first_aider') },
        validity,
      },
      {
        type: 'kle',
        org_unit: unit,
        kle_number: { uuid: classUuid('kle_number', '00.01') },
        kle_aspect: [{ uuid: classUuid('kle_aspect', 'insight') }],
        validity,
      },
      {
        type: 'leave',
        person: person(),
        leave_type: { uuid: classUuid('leave_type', 'sabbatical') },
        validity,
      },
    ]);
    expect(created.status).toBe(201);
    expect(created.body).toHaveLength(5);
    const roles = await get(`/service/ou/${unit.uuid}/details/role?at=2026-02-01`);
    expect(roles.body.map((role: any) => role.uuid)).toContain(created.body[2]);
    const edited = await post('/service/details/edit', {
      type: 'address',
      uuid: created.body[0],
      data: { value: 'changed@northbay.example', validity: { from: '2026-03-01' } },
    });
    expect(edited.status).toBe(200);
    const addresses = await get(`/service/ou/${unit.uuid}/details/address?at=2026-03-02`);
    expect(addresses.body.find((address: any) => address.uuid === created.body[0]).value).toBe(
      'changed@northbay.example',
    );
    const ended = await post('/service/details/terminate', {
      type: 'leave',
      uuid: created.body[4],
      validity: { to: '2026-06-30' },
    });
    expect(ended.status).toBe(200);
    const leaves = await get(`/service/e/${aliceUuid}/details/leave?at=2026-07-01`);
    expect(leaves.body.map((leave: any) => leave.uuid)).not.toContain(created.body[4]);
  });

  it('maps related units with /ou/{uuid}/map', async () => {
    const mapped = await post(`/service/ou/${unitUuid(4)}/map`, {
      destination: [unitUuid(6)],
      validity: { from: '2026-01-01' },
    });
    expect(mapped.status).toBe(200);
    expect(mapped.body.added).toHaveLength(1);
    const again = await post(`/service/ou/${unitUuid(4)}/map`, {
      destination: [],
      validity: { from: '2026-02-01' },
    });
    expect(again.body.deleted).toEqual(mapped.body.added);
  });

  it('edits a unit named by data.uuid, as OS2mo reads it', async () => {
    const uuid = unitUuid(8);
    const edited = await post('/service/details/edit', {
      type: 'org_unit',
      data: { uuid, name: 'Renamed Unit', validity: { from: '2026-01-01' } },
    });
    expect(edited).toEqual({ status: 200, body: uuid });
    expect((await get(`/service/ou/${uuid}/?at=2026-01-02`)).body.name).toBe('Renamed Unit');
  });

  it('creates a person from a full name, refusing a name together with given name and surname', async () => {
    const created = await post('/service/e/create', { name: 'Anna Marie Holm' });
    const person = await get(`/service/e/${created.body}/`);
    expect(person.body).toMatchObject({ givenname: 'Anna Marie', surname: 'Holm', user_key: created.body });
    const both = await post('/service/e/create', { name: 'A B', givenname: 'A' });
    expect(both.body.error_key).toBe('E_INVALID_INPUT');
  });

  it('keeps the top unit at the top and no other unit can get there', async () => {
    const root = await post('/service/details/edit', {
      type: 'org_unit',
      data: { uuid: unitUuid(0), parent: { uuid: unitUuid(1) }, validity: { from: '2026-01-01' } },
    });
    expect(root.body.error_key).toBe('V_CANNOT_MOVE_ROOT_ORG_UNIT');
    const toTop = await post('/service/details/edit', {
      type: 'org_unit',
      data: { uuid: unitUuid(1), parent: { uuid: organisationUuid }, validity: { from: '2026-01-01' } },
    });
    expect(toTop.body.error_key).toBe('V_CANNOT_MOVE_UNIT_TO_ROOT_LEVEL');
    const withoutDataUuid = await post('/service/details/edit', {
      type: 'org_unit',
      uuid: unitUuid(1),
      data: { name: 'X', validity: { from: '2026-01-01' } },
    });
    expect(withoutDataUuid.body).toMatchObject({ error_key: 'V_MISSING_REQUIRED_VALUE', key: 'uuid' });
    const contradicting = await post('/service/details/edit', {
      type: 'org_unit',
      uuid: unitUuid(2),
      data: { uuid: unitUuid(3), name: 'X', validity: { from: '2026-01-01' } },
    });
    expect(contradicting.body.error_key).toBe('E_INVALID_INPUT');
  });

  it('dates a person from the CPR birth date and creates their details with them, all or nothing', async () => {
    const born = await post('/service/e/create', { name: 'Born Late', cpr_no: '0101174234' });
    const versions = await get(`/service/e/${born.body}/details/employee?validity=0001-01-01/infinity`);
    expect(versions.body[0].validity.from).toBe('2017-01-01');
    const before = legacy.store.sequence;
    const tooEarly = await post('/service/e/create', {
      name: 'Also Late',
      cpr_no: '0201174234',
      details: [
        {
          type: 'engagement',
          org_unit: { uuid: unitUuid(5) },
          job_function: { uuid: classUuid('engagement_job_function', 'teacher') },
          engagement_type: { uuid: classUuid('engagement_type', 'permanent') },
          validity: { from: '2016-12-01' },
        },
      ],
    });
    expect(tooEarly.body.error_key).toBe('V_DATE_OUTSIDE_EMPL_RANGE');
    expect(legacy.store.sequence).toBe(before);
  });

  it('keeps manager roles and associations without the person when terminating with vacate', async () => {
    const person = await post('/service/e/create', { name: 'Leaving Soon', cpr_no: '0303801234' });
    await post('/service/details/create', [
      {
        type: 'engagement',
        person: { uuid: person.body },
        org_unit: { uuid: unitUuid(5) },
        job_function: { uuid: classUuid('engagement_job_function', 'teacher') },
        engagement_type: { uuid: classUuid('engagement_type', 'permanent') },
        validity: { from: '2026-01-01' },
      },
      {
        type: 'association',
        person: { uuid: person.body },
        org_unit: { uuid: unitUuid(6) },
        association_type: { uuid: classUuid('association_type', 'chair') },
        validity: { from: '2026-01-01' },
      },
    ]);
    const [association] = (await get(`/service/e/${person.body}/details/association?at=2026-02-01`)).body;
    const ended = await post(`/service/e/${person.body}/terminate`, {
      validity: { to: '2026-03-31' },
      vacate: true,
    });
    expect(ended.status).toBe(200);
    const after = await get(`/service/ou/${unitUuid(6)}/details/association?at=2026-04-01`);
    expect(after.body.find((item: any) => item.uuid === association.uuid)).toMatchObject({ person: null });
    expect((await get(`/service/e/${person.body}/details/engagement?at=2026-04-01`)).body).toEqual([]);
  });

  it('creates a person with a CPR number, refusing a taken or malformed one', async () => {
    const created = await post('/service/e/create', {
      givenname: 'Ny',
      surname: 'Person',
      cpr_no: '0101902345',
    });
    expect(created.status).toBe(201);
    expect((await get(`/service/e/${created.body}/`)).body.cpr_no).toBe('0101902345');
    const taken = await post('/service/e/create', {
      givenname: 'Other',
      surname: 'Person',
      cpr_no: '0101902345',
    });
    expect(taken.body).toMatchObject({ status: 409, error_key: 'V_EXISTING_CPR' });
    const malformed = await post('/service/e/create', {
      givenname: 'Other',
      surname: 'Person',
      cpr_no: '3302901234',
    });
    expect(malformed.body).toMatchObject({ status: 400, error_key: 'V_CPR_NOT_VALID' });
  });

  it('terminates a unit from validity.from when both dates are given', async () => {
    const created = await post('/service/ou/create', {
      name: 'Short-lived',
      parent: { uuid: unitUuid(0) },
      org_unit_type: { uuid: classUuid('org_unit_type', 'team') },
      validity: { from: '2026-01-01' },
    });
    const ended = await post(`/service/ou/${created.body}/terminate`, {
      validity: { from: '2026-05-01', to: null },
    });
    expect(ended.status).toBe(200);
    expect((await get(`/service/ou/${created.body}/?at=2026-04-30`)).status).toBe(200);
    expect((await get(`/service/ou/${created.body}/?at=2026-05-01`)).status).toBe(404);
  });
});

describe('OS2mo error keys; a refused body changes nothing', () => {
  writesOnTheirOwnStore();
  const engagement = {
    type: 'engagement',
    person: { uuid: aliceUuid },
    org_unit: { uuid: unitUuid(5) },
    job_function: { uuid: classUuid('engagement_job_function', 'teacher') },
    engagement_type: { uuid: classUuid('engagement_type', 'permanent') },
    validity: { from: '2026-01-01' },
  };

  it.each([
    ['no validity', { ...engagement, validity: undefined }, 400, 'V_MISSING_START_DATE'],
    ['no start date', { ...engagement, validity: { to: '2026-12-31' } }, 400, 'V_MISSING_START_DATE'],
    ['a missing reference', { ...engagement, job_function: undefined }, 400, 'V_MISSING_REQUIRED_VALUE'],
    ['a name of the wrong type', { ...engagement, user_key: 7 }, 400, 'E_INVALID_TYPE'],
    ['an unknown unit', { ...engagement, org_unit: { uuid: organisationUuid } }, 404, 'E_ORG_UNIT_NOT_FOUND'],
    [
      'an unknown type in a list',
      [engagement, { ...engagement, type: 'salary' }],
      400,
      'E_UNKNOWN_ROLE_TYPE',
    ],
    [
      'a malformed e-mail address',
      {
        type: 'address',
        org_unit: { uuid: unitUuid(5) },
        address_type: { uuid: classUuid('org_unit_address_type', 'unit_email') },
        value: 'not an address',
        validity: { from: '2026-01-01' },
      },
      400,
      'V_INVALID_ADDRESS_EMAIL',
    ],
  ])('refuses %s', async (_name, body, status, key) => {
    const before = legacy.store.sequence;
    const response = await post('/service/details/create', body);
    expect(response.body).toMatchObject({ error: true, status, error_key: key });
    expect(legacy.store.sequence).toBe(before);
  });

  it('refuses a second association with the same unit and a leave without an engagement', async () => {
    const association = {
      type: 'association',
      person: { uuid: aliceUuid },
      org_unit: { uuid: unitUuid(9) },
      association_type: { uuid: classUuid('association_type', 'member') },
      validity: { from: '2026-01-01' },
    };
    expect((await post('/service/details/create', association)).status).toBe(201);
    const again = await post('/service/details/create', association);
    expect(again.body).toMatchObject({
      error_key: 'V_MORE_THAN_ONE_ASSOCIATION',
      existing: [expect.any(String)],
    });
    const person = await post('/service/e/create', { name: 'Not Engaged' });
    const leave = await post('/service/details/create', {
      type: 'leave',
      person: { uuid: person.body },
      leave_type: { uuid: classUuid('leave_type', 'sabbatical') },
      validity: { from: '2026-01-01' },
    });
    expect(leave.body).toMatchObject({ error_key: 'V_NO_ACTIVE_ENGAGEMENT', employee: person.body });
  });

  it('lists the units a mapping cannot use', async () => {
    const unknown = await post(`/service/ou/${unitUuid(4)}/map`, {
      destination: [organisationUuid],
      validity: { from: '2026-01-01' },
    });
    expect(unknown.body).toMatchObject({
      status: 404,
      error_key: 'E_ORG_UNIT_NOT_FOUND',
      org_unit_uuid: [organisationUuid],
    });
  });

  it('names every unknown type of a list', async () => {
    const response = await post('/service/details/create', [
      { type: 'salary' },
      { type: 'bonus' },
      engagement,
    ]);
    expect(response.body).toMatchObject({ error_key: 'E_UNKNOWN_ROLE_TYPE', types: ['salary', 'bonus'] });
  });
});

describe('unit hierarchies (org_unit_hierarchy)', () => {
  const line = classUuid('org_unit_hierarchy', 'line_management');
  const safety = classUuid('org_unit_hierarchy', 'safety_organisation');
  const childrenIn = async (parent: string, hierarchy?: string) =>
    (
      await get(`/service/ou/${parent}/children${hierarchy ? `?org_unit_hierarchy=${hierarchy}` : ''}`)
    ).body.map((child: { uuid: string }) => child.uuid);

  // 2.4.0 test_integration_service.py::Tests::test_children_filtered: a hierarchy no child has lists none.
  it('lists no children for a hierarchy none of them is in', async () => {
    expect(await childrenIn(unitUuid(0), '321f1a2f-e185-42ef-a5f3-bebb2c69f1ba')).toEqual([]);
    expect((await childrenIn(unitUuid(0))).length).toBeGreaterThan(0);
  });

  it("keeps the children in the hierarchy asked for, from the seed's units", async () => {
    const all = await childrenIn(unitUuid(0));
    const inLine = await childrenIn(unitUuid(0), line);
    const inSafety = await childrenIn(unitUuid(0), safety);
    expect(inLine.length + inSafety.length).toBeGreaterThan(0);
    expect([...inLine, ...inSafety].every((uuid: string) => all.includes(uuid))).toBe(true);
    expect(inLine.filter((uuid: string) => inSafety.includes(uuid))).toEqual([]);
  });

  // 2.4.0 test_integration_org_unit.py::Tests::test_create_org_unit: ou/create stores `org_unit_hierarchy`
  // (LoRa's `opmærkning`); an edit that names another moves the unit (`service/orgunit.py` line 255).
  it('stores the hierarchy on ou/create and on a unit edit, and filters children by it', async () => {
    const parent = oscarOwnedUnitUuid;
    const created = await post('/service/ou/create', {
      name: 'Safety Committee',
      parent: { uuid: parent },
      org_unit_type: { uuid: classUuid('org_unit_type', 'office') },
      org_unit_hierarchy: { uuid: safety },
      validity: { from: '2024-01-01' },
    });
    expect(created.status).toBe(201);
    expect(await childrenIn(parent, safety)).toContain(created.body);
    expect(await childrenIn(parent, line)).not.toContain(created.body);
    const edited = await post('/service/details/edit', {
      type: 'org_unit',
      data: { uuid: created.body, org_unit_hierarchy: { uuid: line }, validity: { from: '2025-01-01' } },
    });
    expect(edited.status).toBe(200);
    expect(await childrenIn(parent, line)).toContain(created.body);
    expect(await childrenIn(parent, safety)).not.toContain(created.body);
  });

  it('refuses a hierarchy that is not a class of the org_unit_hierarchy facet', async () => {
    const refused = await post('/service/ou/create', {
      name: 'Wrong Hierarchy',
      parent: { uuid: oscarOwnedUnitUuid },
      org_unit_type: { uuid: classUuid('org_unit_type', 'office') },
      org_unit_hierarchy: { uuid: classUuid('org_unit_type', 'office') },
      validity: { from: '2024-01-01' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error_key).toBe('E_CLASS_WRONG_FACET');
  });
});
