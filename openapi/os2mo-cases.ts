import {
  classUuid,
  closedUnitUuid,
  oscarOwnedUnitUuid,
  referenceUnitUuids,
  unitUuid,
} from '../legacy-service/src/fixture/organisation.js';
import type { TestLegacy } from '../legacy-service/src/testing.js';
import type { ContractCase } from './contract-case.js';
import {
  activeDirectory,
  alice,
  cls,
  findFixture,
  newUuid,
  org,
  oscar,
  oscarsEngagement,
  ref,
  unknown,
  uuidOr,
  write,
} from './contract-fixture.js';
import { anything, bool, keys, list, literal, num, orNull, str, type Shape } from './response-shape.js';

/**
 * Cases taken from OS2mo 2.4.0's own test expectations (`backend/tests/` at tag 2.4.0 of OS2mo/os2mo),
 * each citing the test it comes from. The request is OS2mo's, adapted to the stand-in's fixture (its
 * UUIDs and dates); the expectation is OS2mo's status, error key and key sets with their nesting, never
 * OS2mo's sample values. A failing case here is a difference from OS2mo.
 */

const tests = (file: string, test: string, testClass = 'Tests') =>
  `OS2mo 2.4.0 backend/tests/${file}::${testClass}::${test}`;

// The shapes OS2mo's expectations have.
const validity = keys({ from: orNull(str), to: orNull(str) });
const uuidOnly = keys({ uuid: str });
const facet = keys({ description: str, user_key: str, uuid: str });
const classMembers = {
  example: orNull(str),
  name: str,
  owner: orNull(str),
  scope: orNull(str),
  user_key: str,
  uuid: str,
};
const classBase = keys(classMembers);
/** A class embedded in a record: `get_one_class_full` (backend/mora/service/facet.py). */
const classFull = keys({ ...classMembers, full_name: str, facet, top_level_facet: facet });
const organisation = keys({ name: str, user_key: str, uuid: str });
const unitRef = keys({ name: str, user_key: str, uuid: str, validity });
const childUnit = keys({ child_count: num, name: str, user_key: str, uuid: str, validity });
const personMembers = {
  givenname: str,
  name: str,
  nickname: str,
  nickname_givenname: str,
  nickname_surname: str,
  seniority: orNull(str),
  surname: str,
  uuid: str,
};
const person = keys(personMembers);
/** Absent for a person without a CPR number. */
const employee = keys({ ...personMembers, cpr_no: str, org: organisation, user_key: str }, ['cpr_no']);
const detailTypes = keys(
  Object.fromEntries(
    [
      'address',
      'association',
      'engagement',
      'engagement_association',
      'it',
      'kle',
      'leave',
      'manager',
      'org_unit',
      'owner',
      'related_unit',
      'role',
    ].map((type) => [type, bool]),
  ),
);
/** A detail record: OS2mo adds `integration_data` only to records that have some. */
const record = (members: Record<string, Shape>, optional: string[] = []): Shape =>
  keys({ uuid: str, user_key: str, validity, integration_data: anything, ...members }, [
    'integration_data',
    ...optional,
  ]);
const extensions = Object.fromEntries(
  Array.from({ length: 10 }, (_, index) => [`extension_${index + 1}`, orNull(str)]),
);
const engagementWithUuids = record({
  person: uuidOnly,
  org_unit: uuidOnly,
  job_function: uuidOnly,
  engagement_type: uuidOnly,
  primary: orNull(uuidOnly),
  is_primary: orNull(bool),
  fraction: orNull(num),
  ...extensions,
});
/** `employee_uuid` is the stand-in's addition (x-deviations). */
const manager = (embedded: { person: Shape; unit: Shape; cls: Shape }): Shape =>
  record(
    {
      person: orNull(embedded.person),
      org_unit: embedded.unit,
      manager_type: orNull(embedded.cls),
      manager_level: orNull(embedded.cls),
      responsibility: list(embedded.cls, { nonEmpty: false }),
      employee_uuid: orNull(str),
    },
    ['employee_uuid'],
  );
const owner = record({
  owner: orNull(person),
  org_unit: orNull(unitRef),
  person: orNull(person),
  owner_inference_priority: orNull(str),
});
const itSystemEmbedded = keys({
  name: orNull(str),
  reference: orNull(str),
  system_type: orNull(str),
  user_key: str,
  uuid: str,
  validity,
});
/** The full unit of `GET /service/ou/{uuid}/`, its parent in full `depth` levels up. */
const unitFull = (depth: number): Shape =>
  keys({
    location: str,
    name: str,
    org: organisation,
    org_unit_level: orNull(classFull),
    org_unit_type: orNull(classFull),
    parent: depth > 0 ? orNull(unitFull(depth - 1)) : anything,
    time_planning: orNull(classFull),
    user_key: str,
    user_settings: keys({ orgunit: anything }),
    uuid: str,
    validity,
  });
const page = (item: Shape): Shape => keys({ items: list(item), offset: num, total: num });
/** OS2mo's error body: the four members and the context the error names. */
const error = (...context: string[]): Shape =>
  keys({
    error: literal(true),
    status: num,
    error_key: str,
    description: str,
    ...Object.fromEntries(context.map((key) => [key, anything])),
  });

// Fixture records the cases read.
const seeded = (collection: string, matches?: (value: Record<string, unknown>) => boolean) =>
  findFixture(collection, matches);
const personWithCpr = seeded('employee', (version) => typeof version.cpr_no === 'string')?.match;
const personAddress = seeded('address', (version) => typeof version.person === 'string')?.match;
const unitAddress = seeded('address', (version) => typeof version.org_unit === 'string')?.match;
const role = seeded('role')?.match;
const association = seeded('association', (version) => typeof version.person === 'string')?.match;
/** A day the seeded association holds on: its first. */
const associationDay = String(association?.from ?? '2026-06-01');
const unitEan = ref(classUuid('org_unit_address_type', 'unit_ean'));
const unitEmail = ref(classUuid('org_unit_address_type', 'unit_email'));
const addressCase = (name: string, address: Record<string, unknown>) => ({
  os2mo: tests('test_integration_address.py', 'test_create_errors', 'Writing'),
  name,
  body: [{ type: 'address', validity: { from: '2024-01-01', to: null }, ...address }],
});
const oscarsPosition = seeded('manager', (version) => version.person === oscar);
const seededAssociation = seeded('association', (version) => typeof version.person === 'string');
/** After ending a person with `vacate`, whether the record `uuid` listed at `path` on the next day has no person. */
const vacatedAfter =
  (path: string, uuid: string | undefined, vacate: boolean) =>
  async (legacy: TestLegacy): Promise<string[]> => {
    const records = (await (await legacy.request(`${path}?at=2026-07-01&only_primary_uuid=1`)).json()) as {
      uuid: string;
      person: unknown;
    }[];
    const record = records.find((candidate) => candidate.uuid === uuid);
    if (!vacate) return record ? [`${uuid} still holds after the person ended`] : [];
    return record?.person === null ? [] : [`${uuid} is not kept without the person`];
  };
/** A second, non-primary engagement for oscar, so that `calculate_primary` has two to choose from. */
const secondEngagement = {
  type: 'engagement',
  person: ref(oscar),
  org_unit: ref(oscarOwnedUnitUuid),
  job_function: cls.engineer,
  engagement_type: cls.permanent,
  primary: ref(classUuid('primary_type', 'non_primary')),
  validity: { from: '2024-01-01' },
};
/** A person created by a case's setup, with no engagement. */
const newPerson = { uuid: newUuid(60), givenname: 'Ida', surname: 'Krog' };
/** After a refused create of `uuid`: no person, and no engagement of theirs. */
const nothingWrittenFor =
  (uuid: string) =>
  async (legacy: TestLegacy): Promise<string[]> => {
    const person = await legacy.request(`/service/e/${uuid}/`);
    const engagements = (await (
      await legacy.request(`/service/e/${uuid}/details/engagement`)
    ).json()) as unknown[];
    return [
      ...(person.status === 404 ? [] : [`the person was written (GET answers ${person.status})`]),
      ...(engagements.length === 0 ? [] : ['an engagement was written']),
    ];
  };
const personWithEngagement = (cpr: string, from: string) => ({
  name: 'Torkild Testperson',
  cpr_no: cpr,
  org: ref(org),
  uuid: newUuid(61),
  details: [
    {
      type: 'engagement',
      org_unit: ref(oscarOwnedUnitUuid),
      job_function: cls.caseworker,
      engagement_type: cls.permanent,
      validity: { from, to: '2017-12-01' },
    },
  ],
});
const leave = seeded('leave')?.match;
const kle = seeded('kle')?.match;
const relatedUnits = seeded('related_unit')?.match.org_units as string[] | undefined;
/** A unit below oscar's, without managers or owners of its own. */
const leafUnit = {
  uuid: newUuid(50),
  name: 'Harbour Desk',
  parent: ref(oscarOwnedUnitUuid),
  org_unit_type: cls.office,
  validity: { from: '2024-01-01' },
};
const createLeafUnit = (legacy: TestLegacy) => write(legacy, '/service/ou/create', leafUnit);
const newEngagement = {
  type: 'engagement',
  person: ref(oscar),
  org_unit: ref(oscarOwnedUnitUuid),
  job_function: cls.caseworker,
  engagement_type: cls.permanent,
  validity: { from: '2024-01-01', to: '2024-12-31' },
};

/** Keyed by operationId, like `contractCases`; every case has `os2mo`. */
export const os2moCases: Record<string, ContractCase[]> = {
  listOrganisations: [
    {
      os2mo: tests('test_integration_service.py', 'test_organisation'),
      name: 'the organisations',
      status: 200,
      shape: list(organisation),
    },
  ],
  getOrganisation: [
    {
      os2mo: tests('test_integration_service.py', 'test_organisation'),
      name: 'the organisation with its counts',
      params: { org },
      status: 200,
      shape: keys({
        name: str,
        uuid: str,
        user_key: str,
        unit_count: num,
        person_count: num,
        engagement_count: num,
        association_count: num,
        leave_count: num,
        role_count: num,
        manager_count: num,
        child_count: num,
      }),
    },
  ],
  listRootOrgUnits: [
    {
      os2mo: tests('test_integration_service.py', 'test_children'),
      name: 'the top-level units',
      params: { org },
      status: 200,
      shape: list(childUnit),
    },
    {
      os2mo: tests('test_integration_service.py', 'test_children'),
      name: 'a unit taken for an organisation',
      params: { org: unitUuid(0) },
      status: 404,
      errorKey: 'E_ORG_UNIT_NOT_FOUND',
      shape: error('org_unit_uuid'),
    },
  ],
  listOrgUnitChildren: [
    {
      os2mo: tests('test_integration_service.py', 'test_children'),
      name: 'the children of the top unit',
      params: { uuid: unitUuid(0) },
      status: 200,
      shape: list(childUnit),
    },
    {
      os2mo: tests('test_integration_service.py', 'test_children'),
      name: 'an organisation taken for a unit',
      params: { uuid: org },
      status: 404,
      errorKey: 'E_ORG_UNIT_NOT_FOUND',
      shape: error('org_unit_uuid'),
    },
  ],
  listOrgUnits: [
    {
      os2mo: tests('test_integration_service.py', 'test_orgunit_search'),
      name: 'every unit',
      params: { org },
      status: 200,
      shape: page(unitRef),
    },
    {
      os2mo: tests('test_integration_service.py', 'test_orgunit_search'),
      name: 'a page with a limit and a start',
      params: { org },
      query: { limit: '3', start: '1' },
      status: 200,
      shape: page(unitRef),
    },
    {
      os2mo: tests('test_integration_service.py', 'test_orgunit_search'),
      name: 'a search below an unknown root',
      params: { org },
      query: { query: 'office', root: unknown },
      status: 200,
      empty: true,
      shape: literal({ items: [], offset: 0, total: 0 }),
    },
    {
      os2mo: tests('test_integration_service.py', 'test_orgunit_search'),
      name: 'a search returning paths',
      params: { org },
      query: { query: 'office', details: 'path' },
      status: 200,
      shape: page(keys({ location: str, name: str, user_key: str, uuid: str, validity })),
    },
  ],
  getOrgUnit: [
    {
      os2mo: tests('test_integration_service.py', 'test_orgunit'),
      name: 'the top unit: no parent, empty location',
      params: { uuid: unitUuid(0) },
      status: 200,
      shape: unitFull(0),
      verify: (body) => {
        const unit = body as { parent?: unknown; location?: unknown };
        return unit.parent === null && unit.location === ''
          ? []
          : ['the top unit has a parent or a location'];
      },
    },
    {
      os2mo: tests('test_integration_org_unit.py', 'test_read_root'),
      name: 'the top unit read as the root',
      params: { uuid: unitUuid(0) },
      status: 200,
      shape: unitFull(0),
    },
    {
      // The location joins the ancestors' names with a backslash (backend/mora/service/orgunit.py, get_one_orgunit).
      os2mo: tests('test_integration_service.py', 'test_orgunit'),
      name: 'a unit three levels down, its parents in full',
      params: { uuid: oscarOwnedUnitUuid },
      status: 200,
      shape: unitFull(4),
      verify: (body) =>
        String((body as { location?: unknown }).location).includes('\\')
          ? []
          : ['location is not joined by a backslash'],
    },
    {
      os2mo: tests('test_integration_service.py', 'test_orgunit'),
      name: 'an unknown unit',
      params: { uuid: unknown },
      status: 404,
      errorKey: 'E_ORG_UNIT_NOT_FOUND',
      shape: error('org_unit_uuid'),
    },
    {
      os2mo: tests('test_integration_service.py', 'test_orgunit'),
      name: 'at a date-time before the unit existed',
      params: { uuid: unitUuid(0) },
      query: { at: '1900-01-01T00:00:00Z' },
      status: 404,
      errorKey: 'E_ORG_UNIT_NOT_FOUND',
    },
  ],
  listOrgUnitVersions: [
    {
      os2mo: tests('test_integration_service.py', 'test_orgunit'),
      name: "the top unit's own record",
      params: { uuid: unitUuid(0) },
      status: 200,
      shape: list(unitFull(0)),
    },
  ],
  listEmployees: [
    {
      os2mo: tests('test_integration_service.py', 'test_employee'),
      name: 'every person, in full',
      params: { org },
      query: { limit: '20' },
      status: 200,
      shape: page(employee),
    },
    {
      os2mo: tests('test_integration_service.py', 'test_employee'),
      name: 'a search by a whole CPR number',
      params: { org },
      query: { query: uuidOr(personWithCpr?.cpr_no) },
      status: 200,
      shape: page(employee),
      verify: (body) =>
        (body as { total: number }).total === 1
          ? []
          : ['a whole CPR number does not find exactly one person'],
    },
    {
      os2mo: tests('test_integration_service.py', 'test_employee'),
      name: 'a search by part of a CPR number finds nobody',
      params: { org },
      query: { query: String(personWithCpr?.cpr_no ?? '').slice(0, 6) },
      status: 200,
      empty: true,
      shape: literal({ items: [], offset: 0, total: 0 }),
    },
    {
      os2mo: tests('test_integration_service.py', 'test_employee'),
      name: 'a search by an unknown CPR number',
      params: { org },
      query: { query: '0000000000' },
      status: 200,
      empty: true,
      shape: literal({ items: [], offset: 0, total: 0 }),
    },
    {
      os2mo: tests('test_integration_service.py', 'test_employee'),
      name: 'only people with an association',
      params: { org },
      query: { associated: 'true', limit: '5' },
      status: 200,
      shape: page(employee),
    },
    {
      os2mo: tests('test_integration_service.py', 'test_employee'),
      name: 'an organisation the listing does not check',
      params: { org: unknown },
      query: { limit: '5' },
      status: 200,
      shape: page(employee),
    },
  ],
  getEmployee: [
    {
      os2mo: tests('test_integration_service.py', 'test_employee'),
      name: 'a person in full, with the CPR number',
      params: { uuid: oscar },
      status: 200,
      shape: keys({ ...personMembers, cpr_no: str, org: organisation, user_key: str }),
    },
    {
      os2mo: tests('test_integration_service.py', 'test_employee'),
      name: 'at a date-time before the person existed',
      params: { uuid: oscar },
      query: { at: '1800-01-01T00:00:00Z' },
      status: 404,
      errorKey: 'E_USER_NOT_FOUND',
    },
  ],
  getEmployeeDetailTypes: [
    {
      os2mo: tests('test_integration_service.py', 'test_detail_list'),
      name: "a person's detail types",
      params: { uuid: oscar },
      status: 200,
      shape: detailTypes,
      verify: (body) =>
        (body as { org_unit?: unknown }).org_unit === false ? [] : ['org_unit is not false for a person'],
    },
  ],
  getOrgUnitDetailTypes: [
    {
      os2mo: tests('test_integration_service.py', 'test_detail_list'),
      name: "a unit's detail types",
      params: { uuid: oscarOwnedUnitUuid },
      status: 200,
      shape: detailTypes,
      verify: (body) =>
        (body as { org_unit?: unknown }).org_unit === true ? [] : ['org_unit is not true for a unit'],
    },
  ],
  listEmployeeEngagements: [
    {
      os2mo: tests('test_integration_service.py', 'test_engagement'),
      name: 'with UUIDs only',
      params: { uuid: oscar },
      query: { only_primary_uuid: '1' },
      status: 200,
      shape: list(engagementWithUuids),
    },
    {
      os2mo: tests('test_integration_service.py', 'test_engagement'),
      name: 'future, from a date before it started',
      params: { uuid: oscar },
      query: { at: '2000-01-01', validity: 'future', only_primary_uuid: '1' },
      status: 200,
      shape: list(engagementWithUuids),
    },
    {
      os2mo: tests('test_integration_service.py', 'test_engagement'),
      name: 'of an unknown person',
      params: { uuid: unknown },
      status: 200,
      empty: true,
      shape: literal([]),
    },
    {
      os2mo: tests('test_integration_engagement.py', 'test_reading_engagement_calculate_primary'),
      name: 'of someone with several engagements: exactly one is primary',
      params: { uuid: oscar },
      query: { calculate_primary: '1', only_primary_uuid: '1' },
      setup: (legacy) => write(legacy, '/service/details/create', secondEngagement),
      status: 200,
      verify: (body) => {
        const flags = (body as { is_primary: unknown }[]).map((record) => record.is_primary);
        return flags.length >= 2 &&
          flags.filter((flag) => flag === true).length === 1 &&
          flags.every((flag) => typeof flag === 'boolean')
          ? []
          : [`is_primary of the engagements: ${JSON.stringify(flags)}`];
      },
    },
    {
      // The full form: backend/mora/handler/impl/engagement.py and the example in
      // backend/mora/service/detail_reading.py (get_detail).
      os2mo: tests('test_integration_service.py', 'test_engagement'),
      name: 'in full, with the primary one marked',
      params: { uuid: oscar },
      query: { calculate_primary: '1' },
      status: 200,
      shape: list(
        record({
          person,
          org_unit: unitRef,
          job_function: classFull,
          engagement_type: classFull,
          primary: orNull(classFull),
          is_primary: bool,
          fraction: orNull(num),
          ...extensions,
        }),
      ),
    },
  ],
  listOrgUnitEngagements: [
    {
      os2mo: tests('test_integration_service.py', 'test_engagement'),
      name: 'the engagements in a unit',
      params: { uuid: oscarOwnedUnitUuid },
      query: { only_primary_uuid: '1' },
      status: 200,
      shape: list(engagementWithUuids),
    },
  ],
  listOrgUnitManagers: [
    {
      os2mo: tests('test_integration_manager.py', 'test_create_vacant_manager'),
      name: 'a vacant position in full',
      params: { uuid: oscarOwnedUnitUuid },
      query: { at: '2025-01-01' },
      setup: (legacy) =>
        write(legacy, '/service/details/create', [
          {
            type: 'manager',
            org_unit: ref(oscarOwnedUnitUuid),
            responsibility: [cls.budget],
            manager_type: cls.teamLeader,
            manager_level: cls.level4,
            validity: { from: '2024-12-01', to: '2025-12-02' },
          },
        ]),
      status: 200,
      shape: list(manager({ person, unit: unitRef, cls: classFull })),
      verify: (body) =>
        (body as { person: unknown }[]).some((position) => position.person === null)
          ? []
          : ['no vacant position listed'],
    },
    {
      os2mo: tests('test_integration_manager.py', 'test_read_no_inherit_manager'),
      name: 'a unit without managers, not inheriting',
      params: { uuid: leafUnit.uuid },
      setup: createLeafUnit,
      status: 200,
      empty: true,
      shape: literal([]),
    },
    {
      os2mo: tests('test_integration_manager.py', 'test_read_inherit_manager_one_level'),
      name: "a unit without managers, inheriting its parent's",
      params: { uuid: leafUnit.uuid },
      query: { inherit_manager: '1' },
      setup: createLeafUnit,
      status: 200,
      shape: list(manager({ person, unit: unitRef, cls: classFull })),
      verify: (body) =>
        (body as { org_unit: { uuid: string } }[]).every(
          (position) => position.org_unit.uuid !== leafUnit.uuid,
        )
          ? []
          : ['an inherited manager names the unit asked about, not the ancestor'],
    },
    {
      os2mo: tests('test_integration_manager.py', 'test_edit_manager_on_unit'),
      name: 'with UUIDs only',
      params: { uuid: referenceUnitUuids[0] as string },
      query: { only_primary_uuid: '1' },
      status: 200,
      shape: list(manager({ person: uuidOnly, unit: uuidOnly, cls: uuidOnly })),
    },
  ],
  listEmployeeManagerRoles: [
    {
      os2mo: tests('test_integration_manager.py', 'test_create_manager'),
      name: 'a person’s positions with UUIDs only',
      params: { uuid: oscar },
      query: { only_primary_uuid: '1' },
      status: 200,
      shape: list(manager({ person: uuidOnly, unit: uuidOnly, cls: uuidOnly })),
    },
  ],
  listOrgUnitOwners: [
    {
      os2mo: tests('test_integration_owner.py', 'test_create_no_owner', 'OrgUnitCreateTests'),
      name: 'a unit owner record without an owner',
      params: { uuid: leafUnit.uuid },
      setup: async (legacy) => {
        await createLeafUnit(legacy);
        await write(legacy, '/service/details/create', {
          type: 'owner',
          org_unit: ref(leafUnit.uuid),
          validity: { from: '2024-01-01' },
        });
      },
      status: 200,
      shape: list(owner),
    },
    {
      os2mo: tests('test_integration_owner.py', 'test_inherit', 'OrgUnitInheritTests'),
      name: "a unit without owners, inheriting its parent's",
      params: { uuid: leafUnit.uuid },
      query: { inherit_owner: '1' },
      setup: createLeafUnit,
      status: 200,
      shape: list(owner),
    },
  ],
  listEmployeeOwners: [
    {
      os2mo: tests(
        'test_integration_owner.py',
        'test_create_with_engagement_priority_and_engagement',
        'OwnerPersonTestInheritCase',
      ),
      name: "a person's owner inferred from the primary engagement's unit",
      params: { uuid: oscar },
      query: { validity: 'present', at: '2026-07-01', inherit_owner: '1' },
      setup: (legacy) =>
        write(legacy, '/service/details/create', {
          type: 'owner',
          person: ref(oscar),
          owner_inference_priority: 'engagement_priority',
          validity: { from: '2026-01-01' },
        }),
      status: 200,
      shape: list(owner),
      verify: (body) =>
        (body as { owner_inference_priority: unknown }[]).some(
          (record) => record.owner_inference_priority === 'engagement_priority',
        )
          ? []
          : ['no record keeps its owner_inference_priority'],
    },
  ],
  listEmployeeItUsers: [
    {
      os2mo: tests('test_integration_itsystem.py', 'test_reading_employee', 'Reading'),
      name: "a person's accounts with UUIDs only",
      params: { uuid: oscar },
      query: { only_primary_uuid: '1' },
      status: 200,
      shape: list(record({ itsystem: uuidOnly, org_unit: orNull(uuidOnly), person: orNull(uuidOnly) })),
    },
  ],
  listOrgUnitItUsers: [
    {
      os2mo: tests('test_integration_itsystem.py', 'test_reading_unit', 'Reading'),
      name: "a unit's account in full",
      params: { uuid: oscarOwnedUnitUuid },
      setup: (legacy) =>
        write(legacy, '/service/details/create', {
          type: 'it',
          user_key: 'harbour-mailbox',
          itsystem: ref(activeDirectory),
          org_unit: ref(oscarOwnedUnitUuid),
          validity: { from: '2024-01-01' },
        }),
      status: 200,
      shape: list(record({ itsystem: itSystemEmbedded, org_unit: orNull(unitRef), person: orNull(person) })),
    },
    {
      os2mo: tests('test_integration_itsystem.py', 'test_reading_unit', 'Reading'),
      name: 'past, of a unit without accounts',
      params: { uuid: closedUnitUuid() },
      query: { validity: 'past' },
      status: 200,
      empty: true,
      shape: literal([]),
    },
  ],
  listItSystems: [
    {
      os2mo: tests('test_integration_itsystem.py', 'test_reading_organisation', 'Reading'),
      name: 'the IT systems',
      params: { org },
      status: 200,
      shape: list(keys({ name: str, system_type: orNull(str), user_key: str, uuid: str })),
    },
  ],
  listEmployeeAddresses: [
    {
      os2mo: tests('test_integration_address.py', 'test_reading', 'Reading'),
      name: "a person's addresses with UUIDs only",
      params: { uuid: uuidOr(personAddress?.person) },
      query: { validity: 'present', only_primary_uuid: '1' },
      status: 200,
      shape: list(
        record(
          {
            address_type: uuidOnly,
            href: orNull(str),
            name: orNull(str),
            value: str,
            value2: orNull(str),
            person: uuidOnly,
            engagement: uuidOnly,
            visibility: uuidOnly,
          },
          // Present only when set (backend/mora/handler/impl/address.py).
          ['engagement', 'visibility'],
        ),
      ),
    },
  ],
  listOrgUnitAddresses: [
    {
      os2mo: tests('test_integration_address.py', 'test_missing_address', 'Reading'),
      name: "a unit's addresses in full",
      params: { uuid: uuidOr(unitAddress?.org_unit) },
      status: 200,
      shape: list(
        record(
          {
            address_type: classFull,
            href: orNull(str),
            name: orNull(str),
            value: str,
            value2: orNull(str),
            org_unit: unitRef,
            engagement: anything,
            // The visibility is a plain class (`get_one_class`), the address type a full one.
            visibility: classBase,
          },
          ['engagement', 'visibility'],
        ),
      ),
    },
  ],
  listEmployeeRoles: [
    {
      os2mo: tests('test_integration_role.py', 'test_reading'),
      name: "a person's roles with UUIDs only",
      params: { uuid: uuidOr(role?.person) },
      query: { only_primary_uuid: '1' },
      status: 200,
      shape: list(record({ org_unit: uuidOnly, person: uuidOnly, role_type: uuidOnly })),
    },
  ],
  listEmployeeAssociations: [
    {
      os2mo: tests('test_integration_association.py', 'test_create_association'),
      name: "a person's associations with UUIDs only, from the person's side",
      params: { uuid: uuidOr(association?.person) },
      query: { only_primary_uuid: '1', first_party_perspective: '1' },
      status: 200,
      shape: list(
        record({
          association_type: orNull(uuidOnly),
          dynamic_classes: list(uuidOnly, { nonEmpty: false }),
          org_unit: uuidOnly,
          person: orNull(uuidOnly),
          primary: orNull(uuidOnly),
          substitute: orNull(uuidOnly),
          first_party_association_type: anything,
          third_party_associated: orNull(uuidOnly),
          third_party_association_type: anything,
        }),
      ),
    },
  ],
  listEmployeeLeaves: [
    {
      os2mo: tests('test_integration_leave.py', 'test_create_leave'),
      name: "a person's leaves with UUIDs only",
      params: { uuid: uuidOr(leave?.person) },
      query: { only_primary_uuid: '1' },
      status: 200,
      shape: list(record({ engagement: orNull(uuidOnly), leave_type: uuidOnly, person: uuidOnly })),
    },
  ],
  listOrgUnitKles: [
    {
      os2mo: tests('test_integration_kle.py', 'test_create_kle'),
      name: "a unit's KLE numbers in full",
      params: { uuid: uuidOr(kle?.org_unit) },
      status: 200,
      shape: list(record({ kle_aspect: list(classFull), kle_number: classFull, org_unit: unitRef })),
    },
  ],
  listOrgUnitRelatedUnits: [
    {
      os2mo: tests('test_integration_related_units.py', 'test_reading'),
      name: 'the units related to a unit, both in each record',
      params: { uuid: uuidOr(relatedUnits?.[0]) },
      status: 200,
      shape: list(record({ org_unit: list(unitRef) })),
      verify: (body) =>
        (body as { org_unit: unknown[] }[]).every((relation) => relation.org_unit.length === 2)
          ? []
          : ['a related-unit record does not hold both units'],
    },
    {
      os2mo: tests('test_integration_related_units.py', 'test_reading'),
      name: 'of an unknown unit',
      params: { uuid: unknown },
      status: 200,
      empty: true,
      shape: literal([]),
    },
  ],
  mapOrgUnits: [
    {
      os2mo: tests('test_integration_related_units.py', 'test_validation'),
      name: 'to a unit that has closed by then',
      params: { uuid: oscarOwnedUnitUuid },
      body: { destination: [closedUnitUuid()], validity: { from: '2026-07-01' } },
      status: 400,
      errorKey: 'V_DATE_OUTSIDE_ORG_UNIT_RANGE',
      shape: error('org_unit_uuid'),
    },
    {
      os2mo: tests('test_integration_related_units.py', 'test_validation'),
      name: 'from an unknown unit',
      params: { uuid: unknown },
      body: { destination: [oscarOwnedUnitUuid], validity: { from: '2026-07-01' } },
      status: 404,
      errorKey: 'E_ORG_UNIT_NOT_FOUND',
      shape: error('org_unit_uuid'),
      verify: (body) =>
        Array.isArray((body as { org_unit_uuid?: unknown }).org_unit_uuid)
          ? []
          : ['org_unit_uuid is not the list of units not found'],
    },
  ],
  listFacets: [
    {
      os2mo: tests('test_integration_service.py', 'test_facet'),
      name: 'the facets',
      params: { org },
      status: 200,
      shape: list(keys({ description: str, path: str, user_key: str, uuid: str })),
      // The path is below /service, as OS2mo's router names it: `/o/{org}/f/{user_key}/`.
      verify: (body) =>
        (body as { path: string }[])
          .filter((item) => !/^\/o\/[0-9a-f-]{36}\/f\/[^/]+\/$/.test(item.path))
          .map((item) => `path ${item.path} is not /o/{org}/f/{facet}/`),
    },
    {
      os2mo: tests('test_integration_service.py', 'test_facet'),
      name: 'of an unknown organisation',
      params: { org: unknown },
      status: 200,
      empty: true,
      shape: literal([]),
    },
  ],
  getFacet: [
    {
      os2mo: tests('test_integration_service.py', 'test_facet'),
      name: 'the unit types',
      params: { org, facet: 'org_unit_type' },
      status: 200,
      shape: keys({ data: page(classBase), description: str, path: str, user_key: str, uuid: str }),
    },
    {
      os2mo: tests('test_integration_service.py', 'test_facet'),
      name: 'the unit types with every class option',
      params: { org, facet: 'org_unit_type' },
      query: { full_name: '', facet: '', top_level_facet: '' },
      status: 200,
      shape: keys({ data: page(classFull), description: str, path: str, user_key: str, uuid: str }),
    },
    {
      os2mo: tests('test_integration_service.py', 'test_facet'),
      name: 'an unknown facet',
      params: { org, facet: 'kaflaflibob' },
      status: 404,
      errorKey: 'E_NOT_FOUND',
    },
  ],
  getClass: [
    {
      os2mo: tests('test_integration_service.py', 'test_facet'),
      name: 'a class',
      params: { uuid: cls.office.uuid },
      status: 200,
      shape: classBase,
    },
    {
      os2mo: tests('test_integration_service.py', 'test_facet'),
      name: 'a class with every option',
      params: { uuid: cls.office.uuid },
      query: { full_name: '', facet: '', top_level_facet: '' },
      status: 200,
      shape: classFull,
    },
  ],
  listFacetChildren: [
    {
      os2mo: tests('test_integration_service.py', 'test_facet_children'),
      name: "a facet's classes",
      params: { facet: 'engagement_job_function' },
      status: 200,
      shape: list(keys({ child_count: num, name: str, user_key: str, uuid: str })),
    },
  ],
  lookupCpr: [
    ...['1234/', '1234', '1234567890123'].map((q): ContractCase => ({
      os2mo: tests('test_integration_employee.py', 'test_cpr_lookup_raises_on_wrong_length'),
      name: `a number of the wrong length (${q})`,
      query: { q },
      status: 400,
      errorKey: 'V_CPR_NOT_VALID',
      shape: error('cpr'),
    })),
  ],
  createEmployee: [
    {
      os2mo: tests('test_integration_employee.py', 'test_create_employee_with_details_fails_atomically'),
      name: 'with an engagement before its unit existed: nothing written',
      body: personWithEngagement('0101501234', '1960-12-01'),
      status: 400,
      errorKey: 'V_DATE_OUTSIDE_ORG_UNIT_RANGE',
      shape: error('org_unit_uuid', 'valid_from', 'valid_to', 'wanted_valid_from', 'wanted_valid_to'),
      after: nothingWrittenFor(newUuid(61)),
    },
    {
      os2mo: tests('test_integration_employee.py', 'test_create_employee_with_details_fails_atomically'),
      name: 'with an engagement before the person was born: nothing written',
      body: personWithEngagement('0101174234', '2016-12-01'),
      status: 400,
      errorKey: 'V_DATE_OUTSIDE_EMPL_RANGE',
      shape: error('valid_from', 'valid_to', 'wanted_valid_from', 'wanted_valid_to'),
      after: nothingWrittenFor(newUuid(61)),
    },
    {
      os2mo: tests('test_integration_employee.py', 'test_create_employee_fails_on_empty_payload'),
      name: 'an empty body',
      body: {},
      status: 400,
      errorKey: 'V_MISSING_REQUIRED_VALUE',
      shape: error('name'),
    },
    {
      os2mo: tests('test_integration_employee.py', 'test_create_employee_fails_on_invalid_cpr'),
      name: 'an invalid CPR number',
      body: { name: 'Torkild Testperson', cpr_no: '1', org: ref(org) },
      status: 400,
      errorKey: 'V_CPR_NOT_VALID',
      shape: error('cpr'),
    },
    {
      os2mo: tests('test_integration_employee.py', 'test_create_employee_existing_cpr_existing_org'),
      name: 'a CPR number already in use',
      body: {
        givenname: 'Torkild',
        surname: 'Testperson',
        cpr_no: uuidOr(personWithCpr?.cpr_no),
        org: ref(org),
      },
      status: 409,
      errorKey: 'V_EXISTING_CPR',
      shape: error('cpr'),
    },
    {
      os2mo: tests('test_integration_employee.py', 'test_fail_on_double_naming'),
      name: 'both a name and a given name and surname',
      body: { givenname: 'Torkild', surname: 'Testperson', name: 'Torkild Testperson', org: ref(org) },
      status: 400,
      errorKey: 'E_INVALID_INPUT',
      shape: error('name'),
    },
  ],
  createOrgUnit: [
    {
      os2mo: tests('test_integration_org_unit.py', 'test_create_org_unit_fails_validation_outside_org_unit'),
      name: 'starting before its parent existed',
      body: {
        name: 'Fake Corp',
        parent: ref(oscarOwnedUnitUuid),
        org_unit_type: cls.office,
        validity: { from: '2005-02-04', to: '2017-10-21' },
      },
      status: 400,
      errorKey: 'V_DATE_OUTSIDE_ORG_UNIT_RANGE',
      shape: error('org_unit_uuid', 'valid_from', 'valid_to', 'wanted_valid_from', 'wanted_valid_to'),
    },
    {
      os2mo: tests('test_integration_org_unit.py', 'test_create_missing_parent'),
      name: 'an unknown parent',
      body: {
        name: 'Fake Corp',
        parent: ref(unknown),
        org_unit_type: cls.office,
        addresses: [],
        validity: { from: '2024-01-01', to: '2025-01-01' },
      },
      status: 404,
      errorKey: 'E_ORG_UNIT_NOT_FOUND',
      shape: error('org_unit_uuid'),
    },
  ],
  createDetails: [
    {
      os2mo: tests('test_integration_engagement.py', 'test_create_engagement_fails_on_empty_payload'),
      name: 'an engagement without fields',
      body: [{ type: 'engagement' }],
      status: 400,
      errorKey: 'V_MISSING_REQUIRED_VALUE',
      shape: error('key', 'obj'),
    },
    {
      os2mo: tests('test_integration_engagement.py', 'test_create_engagement_fails_on_missing_unit'),
      name: 'an engagement in an unknown unit',
      body: [{ ...newEngagement, org_unit: ref(unknown) }],
      status: 404,
      errorKey: 'E_ORG_UNIT_NOT_FOUND',
      shape: error('org_unit_uuid'),
    },
    {
      os2mo: tests('test_integration_engagement.py', 'test_create_engagement_fails_on_missing_person'),
      name: 'an engagement of an unknown person',
      body: [{ ...newEngagement, person: ref(unknown) }],
      status: 404,
      errorKey: 'E_USER_NOT_FOUND',
      shape: error('employee_uuid'),
    },
    {
      os2mo: tests('test_integration_itsystem.py', 'test_errors', 'Writing'),
      name: 'an IT account without an IT system',
      body: [{ type: 'it', itsystem: null, person: ref(oscar), validity: { from: '2024-12-01', to: null } }],
      status: 400,
      errorKey: 'V_MISSING_REQUIRED_VALUE',
      shape: error('key', 'obj'),
    },
    {
      os2mo: tests('test_integration_itsystem.py', 'test_errors', 'Writing'),
      name: 'an IT account in an unknown IT system',
      body: [
        {
          type: 'it',
          itsystem: ref(unknown),
          person: ref(oscar),
          validity: { from: '2024-12-01', to: null },
        },
      ],
      status: 404,
      errorKey: 'E_NOT_FOUND',
      shape: error(),
    },
    {
      os2mo: tests('test_integration_itsystem.py', 'test_errors', 'Writing'),
      name: 'an IT account without a start date',
      body: [
        {
          type: 'it',
          itsystem: ref(activeDirectory),
          person: ref(oscar),
          validity: { from: null, to: null },
        },
      ],
      status: 400,
      errorKey: 'V_MISSING_START_DATE',
      shape: error('obj'),
    },
    {
      os2mo: tests('test_integration_itsystem.py', 'test_errors', 'Writing'),
      name: 'an IT system named by a malformed UUID',
      body: [
        {
          type: 'it',
          itsystem: { uuid: '42' },
          person: ref(oscar),
          validity: { from: '2024-12-01', to: null },
        },
      ],
      status: 400,
      errorKey: 'E_INVALID_UUID',
      shape: error('obj'),
    },
    {
      os2mo: tests('test_integration_role.py', 'test_create_role_missing_unit'),
      name: 'a role in an unknown unit',
      body: [
        {
          type: 'role',
          person: ref(oscar),
          org_unit: ref(unknown),
          role_type: cls.teamLeader,
          validity: { from: '2024-12-01', to: '2024-12-01' },
        },
      ],
      status: 404,
      errorKey: 'E_ORG_UNIT_NOT_FOUND',
      shape: error('org_unit_uuid'),
    },
    {
      os2mo: tests('test_integration_role.py', 'test_create_role_missing_user'),
      name: 'a role of an unknown person',
      body: [
        {
          type: 'role',
          person: ref(unknown),
          org_unit: ref(oscarOwnedUnitUuid),
          role_type: cls.teamLeader,
          validity: { from: '2024-12-01', to: '2024-12-01' },
        },
      ],
      status: 404,
      errorKey: 'E_USER_NOT_FOUND',
      shape: error('employee_uuid'),
    },
    {
      ...addressCase('an address of nobody', { address_type: unitEan, value: '5712345000014' }),
      status: 400,
      errorKey: 'E_INVALID_INPUT',
      shape: error('obj'),
    },
    {
      ...addressCase('an address of both a person and a unit', {
        address_type: unitEan,
        value: '5712345000014',
        person: ref(oscar),
        org_unit: ref(oscarOwnedUnitUuid),
      }),
      status: 400,
      errorKey: 'E_INVALID_INPUT',
      shape: error('obj'),
    },
    {
      ...addressCase('an address without a value', {
        address_type: unitEmail,
        org_unit: ref(oscarOwnedUnitUuid),
      }),
      status: 400,
      errorKey: 'V_MISSING_REQUIRED_VALUE',
      shape: error('key', 'obj'),
    },
    {
      ...addressCase('an address without a type', {
        address_type: null,
        value: 'hallo@example.com',
        org_unit: ref(oscarOwnedUnitUuid),
      }),
      status: 400,
      errorKey: 'V_MISSING_REQUIRED_VALUE',
      shape: error('key', 'obj'),
    },
    {
      ...addressCase('an address of an unknown unit', {
        address_type: unitEmail,
        value: 'hallo@example.com',
        org_unit: ref(unknown),
      }),
      status: 404,
      errorKey: 'E_ORG_UNIT_NOT_FOUND',
      shape: error('org_unit_uuid'),
    },
    {
      os2mo: tests('test_integration_leave.py', 'test_create_leave_fails_when_no_active_engagement'),
      name: 'a leave of a person without an engagement',
      setup: (legacy) => write(legacy, '/service/e/create', newPerson),
      body: [
        {
          type: 'leave',
          person: ref(newPerson.uuid),
          leave_type: ref(uuidOr(leave?.leave_type)),
          validity: { from: '2026-07-01', to: '2026-07-01' },
        },
      ],
      status: 400,
      errorKey: 'V_NO_ACTIVE_ENGAGEMENT',
      shape: error('employee'),
    },
    {
      os2mo: tests('test_integration_leave.py', 'test_create_leave_missing_user'),
      name: 'a leave of an unknown person',
      body: [
        {
          type: 'leave',
          person: ref(unknown),
          leave_type: ref(uuidOr(leave?.leave_type)),
          validity: { from: '2026-07-01', to: '2026-07-01' },
        },
      ],
      status: 404,
      errorKey: 'E_USER_NOT_FOUND',
      shape: error('employee_uuid'),
    },
    {
      os2mo: tests('test_integration_association.py', 'test_create_association_fails_on_two_assocations'),
      name: 'a second association of a person with the same unit',
      body: [
        {
          type: 'association',
          org_unit: ref(uuidOr(association?.org_unit)),
          person: ref(uuidOr(association?.person)),
          association_type: ref(uuidOr(association?.association_type)),
          validity: { from: associationDay, to: associationDay },
        },
      ],
      status: 400,
      errorKey: 'V_MORE_THAN_ONE_ASSOCIATION',
      shape: error('existing'),
    },
    {
      os2mo: tests('test_integration_association.py', 'test_create_association_no_unit'),
      name: 'an association without a unit',
      body: [
        {
          type: 'association',
          person: ref(oscar),
          association_type: ref(uuidOr(association?.association_type)),
          validity: { from: '2026-07-01', to: '2026-07-01' },
        },
      ],
      status: 400,
      errorKey: 'V_MISSING_REQUIRED_VALUE',
      shape: error('key', 'obj'),
    },
    {
      os2mo: tests('test_integration_leave.py', 'test_create_leave_fails_on_empty_payload'),
      name: 'a leave without fields',
      body: [{ type: 'leave' }],
      status: 400,
      errorKey: 'V_MISSING_REQUIRED_VALUE',
      shape: error('key', 'obj'),
    },
    {
      os2mo: tests('test_integration_association.py', 'test_create_association_fails_on_empty_payload'),
      name: 'an association without fields',
      body: [{ type: 'association' }],
      status: 400,
      errorKey: 'V_MISSING_REQUIRED_VALUE',
      shape: error('key', 'obj'),
    },
    {
      os2mo: tests('test_integration_manager.py', 'test_create_manager_missing_unit'),
      name: 'a manager without a unit',
      body: [
        {
          type: 'manager',
          person: ref(oscar),
          manager_type: cls.teamLeader,
          manager_level: cls.level4,
          responsibility: [cls.budget],
          validity: { from: '2024-12-01', to: '2024-12-01' },
        },
      ],
      status: 400,
      errorKey: 'V_MISSING_REQUIRED_VALUE',
      shape: error('key', 'obj'),
    },
    {
      os2mo: tests('test_integration_owner.py', 'test_create_no_person_and_no_ou', 'BaseTests'),
      name: 'an owner of neither a unit nor a person',
      body: { type: 'owner', owner: ref(alice), validity: { from: '2024-01-01' } },
      status: 400,
    },
    {
      os2mo: tests('test_integration_owner.py', 'test_create_with_inference_and_owner', 'PersonTests'),
      name: 'an owner of a person both given and to be inferred',
      body: {
        type: 'owner',
        owner: ref(alice),
        person: ref(oscar),
        owner_inference_priority: 'engagement_priority',
        validity: { from: '2024-01-01' },
      },
      status: 400,
    },
    {
      os2mo: tests('test_integration_owner.py', 'test_create_owner_non_existing', 'BaseTests'),
      name: 'an unknown owner',
      body: {
        type: 'owner',
        owner: ref(unknown),
        org_unit: ref(unitUuid(0)),
        validity: { from: '2024-01-01' },
      },
      status: 404,
      errorKey: 'E_USER_NOT_FOUND',
    },
    {
      os2mo: tests('test_service_auth.py', 'test_auth_service_details_writing', 'TestAuthEndpointsReturn401'),
      name: 'without a token',
      body: [{ not: 'important' }],
      token: null,
      status: 401,
      shape: literal('Not authenticated'),
    },
  ],
  editDetails: [
    {
      os2mo: tests('test_integration_engagement.py', 'test_edit_engagement_no_overwrite'),
      name: 'an engagement moved to another job from a date, its history kept',
      body: [
        {
          type: 'engagement',
          uuid: oscarsEngagement,
          data: { job_function: cls.engineer, validity: { from: '2027-01-01' } },
        },
      ],
      status: 200,
      verify: (body) => (JSON.stringify(body) === JSON.stringify([oscarsEngagement]) ? [] : ['not [uuid]']),
      after: async (legacy) => {
        const jobOn = async (at: string) => {
          const response = await legacy.request(
            `/service/e/${oscar}/details/engagement?at=${at}&only_primary_uuid=1`,
          );
          const records = (await response.json()) as {
            uuid: string;
            job_function: { uuid: string };
            validity: { to: string | null };
          }[];
          return records.find((record) => record.uuid === oscarsEngagement);
        };
        const before = await jobOn('2026-12-31');
        const after = await jobOn('2027-01-01');
        return [
          ...(after?.job_function.uuid === cls.engineer.uuid
            ? []
            : ['the new job does not hold from the date']),
          ...(before && before.job_function.uuid !== cls.engineer.uuid ? [] : ['the old job was not kept']),
          ...(before?.validity.to === '2026-12-31' ? [] : ['the old version does not end the day before']),
        ];
      },
    },
    {
      os2mo: tests('test_integration_engagement.py', 'test_edit_engagement_fails_on_invalid_payloads'),
      name: 'an edit without data',
      body: { type: 'engagement', uuid: oscarsEngagement },
      status: 400,
      errorKey: 'V_MISSING_REQUIRED_VALUE',
      shape: error('key', 'obj'),
    },
    {
      os2mo: tests('test_integration_org_unit.py', 'test_edit_missing_org_unit'),
      name: 'a unit edit without data.uuid',
      body: [{ type: 'org_unit', data: { org_unit_type: cls.office, validity: { from: '2026-07-01' } } }],
      status: 400,
      errorKey: 'V_MISSING_REQUIRED_VALUE',
      shape: error('key', 'obj'),
    },
    {
      os2mo: tests('test_integration_itsystem.py', 'test_errors', 'Writing'),
      name: 'an edit of an unknown IT account',
      body: [{ type: 'it', uuid: unknown, data: { validity: { from: '2026-07-01', to: '2026-12-31' } } }],
      status: 404,
      errorKey: 'E_NOT_FOUND',
      shape: error(),
    },
    {
      os2mo: tests('test_integration_org_unit.py', 'test_move_org_nowhere'),
      name: 'a unit moved below an unknown unit',
      body: {
        type: 'org_unit',
        data: { parent: ref(unknown), uuid: oscarOwnedUnitUuid, validity: { from: '2026-07-01' } },
      },
      status: 404,
      errorKey: 'E_ORG_UNIT_NOT_FOUND',
      shape: error('org_unit_uuid'),
    },
    {
      os2mo: tests('test_integration_org_unit.py', 'test_move_org_unit_to_root_fails'),
      name: 'a unit moved to the top',
      body: {
        type: 'org_unit',
        data: { parent: ref(org), uuid: referenceUnitUuids[0], validity: { from: '2026-07-01T00:00:00+02' } },
      },
      status: 400,
      errorKey: 'V_CANNOT_MOVE_UNIT_TO_ROOT_LEVEL',
      shape: error(),
    },
    {
      os2mo: tests('test_integration_org_unit.py', 'test_move_org_unit_should_fail_when_moving_root_unit'),
      name: 'the top unit moved',
      body: {
        type: 'org_unit',
        data: { parent: ref(oscarOwnedUnitUuid), uuid: unitUuid(0), validity: { from: '2026-07-01' } },
      },
      status: 400,
      errorKey: 'V_CANNOT_MOVE_ROOT_ORG_UNIT',
      shape: error(),
    },
    {
      os2mo: tests('test_integration_org_unit.py', 'test_move_org_unit_should_fail_validation'),
      name: 'a unit moved below its own descendant',
      body: {
        type: 'org_unit',
        data: { parent: ref(leafUnit.uuid), uuid: oscarOwnedUnitUuid, validity: { from: '2026-07-01' } },
      },
      setup: createLeafUnit,
      status: 400,
      errorKey: 'V_ORG_UNIT_MOVE_TO_CHILD',
      shape: error('org_unit_uuid'),
    },
    {
      os2mo: tests(
        'test_integration_org_unit.py',
        'test_edit_org_unit_should_fail_validation_when_end_before_start',
      ),
      name: 'a unit edit ending before it starts',
      body: {
        type: 'org_unit',
        data: { uuid: oscarOwnedUnitUuid, validity: { from: '2026-07-01', to: '2025-07-01' } },
      },
      status: 400,
      errorKey: 'V_END_BEFORE_START',
      shape: error('obj'),
    },
  ],
  terminateDetails: [
    ...[undefined, {}, { from: '2000-12-01' }].map((validity): ContractCase => ({
      os2mo: tests('test_integration_termination.py', 'test_validation_missing_validity'),
      name: `a termination with validity ${JSON.stringify(validity)}`,
      body: { type: 'engagement', uuid: oscarsEngagement, ...(validity ? { validity } : {}) },
      status: 400,
      errorKey: 'V_MISSING_REQUIRED_VALUE',
      shape: error('key', 'obj'),
    })),
  ],
  terminateEmployee: [
    {
      os2mo: tests('test_integration_termination.py', 'test_terminate_employee'),
      name: 'with vacate: the manager position stays, vacant',
      params: { uuid: oscar },
      body: { vacate: true, validity: { to: '2026-06-30' } },
      status: 200,
      verify: (body) => (body === oscar ? [] : ["the answer is not the person's UUID"]),
      after: vacatedAfter(
        `/service/ou/${uuidOr(oscarsPosition?.match.org_unit)}/details/manager`,
        oscarsPosition?.uuid,
        true,
      ),
    },
    {
      os2mo: tests('test_integration_termination.py', 'test_terminate_employee'),
      name: 'with vacate: the association stays, without the person',
      params: { uuid: uuidOr(seededAssociation?.match.person) },
      body: { vacate: true, validity: { to: '2026-06-30' } },
      status: 200,
      after: vacatedAfter(
        `/service/ou/${uuidOr(seededAssociation?.match.org_unit)}/details/association`,
        seededAssociation?.uuid,
        true,
      ),
    },
    {
      os2mo: tests('test_integration_termination.py', 'test_terminate_employee_vacatables_full'),
      name: 'without vacate: the association ends too',
      params: { uuid: uuidOr(seededAssociation?.match.person) },
      body: { vacate: false, validity: { to: '2026-06-30' } },
      status: 200,
      after: vacatedAfter(
        `/service/ou/${uuidOr(seededAssociation?.match.org_unit)}/details/association`,
        seededAssociation?.uuid,
        false,
      ),
    },
    {
      // Ending a person ends with a history entry on the person, which fails for an unknown one.
      os2mo: tests('test_service_common.py', 'test_history_missing', 'TestClass'),
      name: 'an unknown person',
      params: { uuid: unknown },
      body: { validity: { to: '2026-06-30' } },
      status: 404,
      errorKey: 'E_NOT_FOUND',
      shape: error('path', 'uuid'),
    },
  ],
  terminateOrgUnit: [
    {
      os2mo: tests('test_integration_org_unit.py', 'test_terminate_org_unit_invalid_uuid'),
      name: 'an unknown unit',
      params: { uuid: unknown },
      body: { validity: { to: '2026-12-31' } },
      status: 404,
      errorKey: 'E_ORG_UNIT_NOT_FOUND',
      shape: error('org_unit_uuid'),
    },
    {
      os2mo: tests('test_integration_org_unit.py', 'test_terminate_org_unit_active_children_and_roles'),
      name: 'a unit with children and roles, new payload',
      params: { uuid: unitUuid(1) },
      body: { validity: { from: '2026-07-01', to: '2027-01-01' } },
      status: 400,
      errorKey: 'V_TERMINATE_UNIT_WITH_CHILDREN_AND_ROLES',
      shape: error('roles', 'child_count'),
    },
  ],
};

/** A `GET` of a path under `/service` that does not exist. */
export const noSuchEndpoint: ContractCase = {
  os2mo: tests('test_service_app.py', 'test_failing_service'),
  name: 'GET /service/kaflaflibob',
  status: 404,
  errorKey: 'E_NO_SUCH_ENDPOINT',
  shape: error(),
};
