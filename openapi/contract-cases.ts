import { readDevUsers } from '../legacy-service/src/fixture/dev-users.js';
import {
  buildOrganisation,
  classUuid,
  closedUnitDates,
  closedUnitUuid,
  defaultFixtureSize,
  futureUnitFrom,
  futureUnitUuid,
  organisationUuid,
  oscarOwnedUnitUuid,
  referenceUnitUuids,
  unitUuid,
} from '../legacy-service/src/fixture/organisation.js';
import { collections, type Temporal } from '../legacy-service/src/model.js';
import type { TestLegacy } from '../legacy-service/src/testing.js';

/** One real request against the legacy service and the answer the document must describe. */
export interface ContractCase {
  /** What the request shows, for the test name. */
  name: string;
  /** Values for the documented path's `{parameters}`. */
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as-is instead of `body`: bodies that are not JSON or are too large. */
  rawBody?: string;
  status: number;
  /** The `error_key` an error answer must carry. */
  errorKey?: string;
  /** Writes the request depends on; a case with a setup gets an app of its own. */
  setup?: (legacy: TestLegacy) => Promise<void>;
  /** The answer is an empty listing on purpose; otherwise a successful listing must have items. */
  empty?: boolean;
}

const [alice, oscar, nora] = readDevUsers().map((user) => user.uuid) as [string, string, string];
const org = organisationUuid;
const unknown = '00000000-0000-4000-8000-000000000000';
/** UUIDs for objects the cases create, distinct from every fixture UUID. */
const newUuid = (n: number) => `10000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Fixture records found by content, so the cases do not depend on how the fixture derives UUIDs. */
const fixture = buildOrganisation(defaultFixtureSize);
function fixtureRecord(
  collection: string,
  matches: (value: Record<string, unknown>) => boolean,
): { uuid: string; match: Record<string, unknown> } {
  for (const { collection: stored, uuid, value } of fixture) {
    if (stored !== collection || value === null) continue;
    const versions = (value as unknown as Partial<Temporal<Record<string, unknown>>>).versions ?? [value];
    const match = versions.find(matches);
    if (match) return { uuid, match };
  }
  throw new Error(`The fixture has no matching ${collection}`);
}
const fixtureUuid = (collection: string, matches: (value: Record<string, unknown>) => boolean) =>
  fixtureRecord(collection, matches).uuid;

const activeDirectory = fixtureUuid(collections.itsystem, (system) => system.user_key === 'active_directory');
const oscarsEngagement = fixtureUuid(collections.engagement, (version) => version.person === oscar);
const oscarsManagerRole = fixtureUuid(collections.manager, (version) => version.person === oscar);
const oscarsOwnership = fixtureUuid(collections.owner, (version) => version.owner === oscar);
const oscarsAccount = fixtureUuid(
  collections.it,
  (version) => version.person === oscar && version.itsystem === activeDirectory,
);
/** Someone with an engagement that ended, for `validity=past`. */
const formerEngagementHolder = String(
  fixtureRecord(collections.engagement, (version) => version.to !== null).match.person,
);

const ref = (uuid: string) => ({ uuid });
const cls = {
  office: ref(classUuid('org_unit_type', 'office')),
  level3: ref(classUuid('org_unit_level', 'level_3')),
  caseworker: ref(classUuid('engagement_job_function', 'caseworker')),
  engineer: ref(classUuid('engagement_job_function', 'engineer')),
  permanent: ref(classUuid('engagement_type', 'permanent')),
  teamLeader: ref(classUuid('manager_type', 'team_leader')),
  level4: ref(classUuid('manager_level', 'level_4')),
  budget: ref(classUuid('responsibility', 'budget')),
  director: classUuid('manager_type', 'director'),
};

/** Larger than the service's default 1 MiB body limit. */
const oversized = JSON.stringify({ padding: 'x'.repeat(1024 * 1024) });

const newEngagement = {
  type: 'engagement',
  person: ref(oscar),
  org_unit: ref(oscarOwnedUnitUuid),
  job_function: cls.caseworker,
  engagement_type: cls.permanent,
  validity: { from: '2024-01-01' },
};
const newVacantManager = {
  type: 'manager',
  person: null,
  org_unit: ref(oscarOwnedUnitUuid),
  manager_type: cls.teamLeader,
  manager_level: cls.level4,
  responsibility: [cls.budget],
  validity: { from: '2024-01-01', to: '2026-12-31' },
};
const newUnitAccount = {
  type: 'it',
  uuid: newUuid(30),
  user_key: 'mayors-office-mailbox',
  itsystem: ref(activeDirectory),
  org_unit: ref(oscarOwnedUnitUuid),
  validity: { from: '2024-01-01' },
};
const newPersonOwnership = {
  type: 'owner',
  owner: ref(alice),
  person: ref(nora),
  validity: { from: '2024-01-01' },
};
/** A unit below oscar's, without roles or an owner of its own. */
const newLeafUnit = {
  uuid: newUuid(40),
  name: 'Harbour Desk',
  parent: ref(oscarOwnedUnitUuid),
  org_unit_type: cls.office,
  validity: { from: '2024-01-01' },
};

async function write(legacy: TestLegacy, path: string, body: unknown): Promise<void> {
  const response = await legacy.post(path, body);
  if (!response.ok) throw new Error(`setup ${path} answered ${response.status}: ${await response.text()}`);
}

/** Bad path and query values every read shares. */
const badUuid = (param: string, extra: Record<string, string> = {}): ContractCase => ({
  name: 'a malformed UUID',
  params: { ...extra, [param]: 'not-a-uuid' },
  status: 400,
  errorKey: 'E_INVALID_UUID',
});
const badDate = (params: Record<string, string>): ContractCase => ({
  name: 'an impossible date',
  params,
  query: { at: '2026-02-30' },
  status: 400,
  errorKey: 'V_INVALID_DATE',
});
const badValidity = (params: Record<string, string>): ContractCase => ({
  name: 'an unknown validity',
  params,
  query: { validity: 'someday' },
  status: 400,
  errorKey: 'E_INVALID_INPUT',
});
const unknownOrganisation: ContractCase = {
  name: 'an unknown organisation',
  params: { org: unknown },
  status: 404,
  errorKey: 'E_ORGANISATION_NOT_FOUND',
};
const unknownUnit: ContractCase = {
  name: 'an unknown unit',
  params: { uuid: unknown },
  status: 404,
  errorKey: 'E_ORG_UNIT_NOT_FOUND',
};
const unknownEmployee: ContractCase = {
  name: 'an unknown employee',
  params: { uuid: unknown },
  status: 404,
  errorKey: 'E_USER_NOT_FOUND',
};
const tooLarge: ContractCase = {
  name: 'a body over the size limit',
  rawBody: oversized,
  status: 413,
  errorKey: 'E_PAYLOAD_TOO_LARGE',
};

/** Reads of a detail type, for a unit and for an employee. */
const detailReadErrors = (owner: 'unit' | 'employee', uuid: string): ContractCase[] => [
  badUuid('uuid'),
  badValidity({ uuid }),
  badDate({ uuid }),
  owner === 'unit' ? unknownUnit : unknownEmployee,
];

/** Keyed by operationId. The test fails for an operation without cases and for a key it does not know. */
export const contractCases: Record<string, ContractCase[]> = {
  getHealth: [{ name: 'the service is up', status: 200 }],

  listOrganisations: [{ name: 'the single organisation', status: 200 }],
  getOrganisation: [
    { name: 'today', params: { org }, status: 200 },
    { name: 'at a past date', params: { org }, query: { at: '2012-01-01' }, status: 200 },
    badUuid('org'),
    badDate({ org }),
    unknownOrganisation,
  ],
  listOrgUnits: [
    { name: 'every unit', params: { org }, status: 200 },
    {
      name: 'a filtered page',
      params: { org },
      query: { query: 'office', start: '1', limit: '3' },
      status: 200,
    },
    {
      name: 'on the date a closed unit still held',
      params: { org },
      query: { at: closedUnitDates.to },
      status: 200,
    },
    {
      name: 'a negative limit',
      params: { org },
      query: { limit: '-1' },
      status: 400,
      errorKey: 'E_INVALID_INPUT',
    },
    badUuid('org'),
    unknownOrganisation,
  ],
  listEmployees: [
    { name: 'a page', params: { org }, query: { start: '10', limit: '5' }, status: 200 },
    { name: 'a search by name', params: { org }, query: { query: 'oscar olsen' }, status: 200 },
    {
      name: 'a start that is not a number',
      params: { org },
      query: { start: 'ten' },
      status: 400,
      errorKey: 'E_INVALID_INPUT',
    },
    badDate({ org }),
    unknownOrganisation,
  ],
  listItSystems: [
    { name: 'every IT system', params: { org }, status: 200 },
    badUuid('org'),
    unknownOrganisation,
  ],
  listFacets: [{ name: 'every facet', params: { org }, status: 200 }, badUuid('org'), unknownOrganisation],
  getFacet: [
    {
      name: 'by user key, one page',
      params: { org, facet: 'manager_type' },
      query: { limit: '2' },
      status: 200,
    },
    { name: 'job functions, all of them', params: { org, facet: 'engagement_job_function' }, status: 200 },
    {
      name: 'an unknown facet',
      params: { org, facet: 'no_such_facet' },
      status: 404,
      errorKey: 'E_FACET_NOT_FOUND',
    },
    {
      name: 'a limit that is not a number',
      params: { org, facet: 'manager_type' },
      query: { limit: 'all' },
      status: 400,
      errorKey: 'E_INVALID_INPUT',
    },
    badUuid('org', { facet: 'manager_type' }),
    { ...unknownOrganisation, params: { org: unknown, facet: 'manager_type' } },
  ],
  listRootOrgUnits: [
    { name: 'today', params: { org }, status: 200 },
    badUuid('org'),
    badDate({ org }),
    unknownOrganisation,
  ],

  getOrgUnit: [
    { name: 'a unit three levels down', params: { uuid: oscarOwnedUnitUuid }, status: 200 },
    { name: 'the top unit', params: { uuid: unitUuid(0) }, status: 200 },
    {
      name: 'a closed unit on its last day',
      params: { uuid: closedUnitUuid() },
      query: { at: closedUnitDates.to },
      status: 200,
    },
    {
      name: 'a closed unit today',
      params: { uuid: closedUnitUuid() },
      status: 404,
      errorKey: 'E_ORG_UNIT_NOT_FOUND',
    },
    badUuid('uuid'),
    badDate({ uuid: oscarOwnedUnitUuid }),
    unknownUnit,
  ],
  listOrgUnitChildren: [
    { name: 'the departments below the top unit', params: { uuid: unitUuid(0) }, status: 200 },
    { name: 'a leaf unit', params: { uuid: closedUnitUuid() }, status: 200, empty: true },
    badUuid('uuid'),
    badDate({ uuid: unitUuid(0) }),
    unknownUnit,
  ],
  getEmployee: [
    { name: 'a development user', params: { uuid: oscar }, status: 200 },
    badUuid('uuid'),
    badDate({ uuid: oscar }),
    unknownEmployee,
  ],
  getClass: [
    { name: 'a manager type', params: { uuid: cls.director }, status: 200 },
    { name: 'a job function with a scope', params: { uuid: cls.caseworker.uuid }, status: 200 },
    badUuid('uuid'),
    { name: 'an unknown class', params: { uuid: unknown }, status: 404, errorKey: 'E_CLASS_NOT_FOUND' },
  ],

  getOrgUnitDetailTypes: [
    { name: "oscar's unit", params: { uuid: oscarOwnedUnitUuid }, status: 200 },
    badUuid('uuid'),
    unknownUnit,
  ],
  listOrgUnitEngagements: [
    { name: 'present', params: { uuid: oscarOwnedUnitUuid }, status: 200 },
    ...detailReadErrors('unit', oscarOwnedUnitUuid),
  ],
  listOrgUnitManagers: [
    ...referenceUnitUuids.map((uuid, index) => ({
      name: `reference department ${index + 1}`,
      params: { uuid },
      status: 200,
    })),
    {
      name: 'a vacant position',
      params: { uuid: oscarOwnedUnitUuid },
      query: { at: '2025-01-01' },
      setup: (legacy: TestLegacy) => write(legacy, '/service/details/create', newVacantManager),
      status: 200,
    },
    {
      name: 'past, of a closed unit',
      params: { uuid: closedUnitUuid() },
      query: { validity: 'past' },
      status: 200,
    },
    {
      name: 'future, of a unit not yet open',
      params: { uuid: futureUnitUuid() },
      query: { validity: 'future' },
      status: 200,
    },
    {
      name: 'on the opening day of a future unit',
      params: { uuid: futureUnitUuid() },
      query: { at: futureUnitFrom },
      status: 200,
    },
    {
      name: 'inherited, legacy spelling',
      params: { uuid: oscarOwnedUnitUuid },
      query: { inherit_manager: '1' },
      status: 200,
    },
    {
      name: 'an inherit flag that is not a boolean',
      params: { uuid: oscarOwnedUnitUuid },
      query: { inherit_manager: 'yes' },
      status: 400,
      errorKey: 'E_INVALID_INPUT',
    },
    ...detailReadErrors('unit', oscarOwnedUnitUuid),
  ],
  listOrgUnitOwners: [
    { name: "oscar's unit", params: { uuid: oscarOwnedUnitUuid }, status: 200 },
    {
      name: "inherited from the parent's owner",
      params: { uuid: newLeafUnit.uuid },
      query: { inherit_owner: 'true' },
      setup: (legacy: TestLegacy) => write(legacy, '/service/ou/create', newLeafUnit),
      status: 200,
    },
    {
      name: 'without inheritance, for a unit without owners',
      params: { uuid: newLeafUnit.uuid },
      setup: (legacy: TestLegacy) => write(legacy, '/service/ou/create', newLeafUnit),
      status: 200,
      empty: true,
    },
    {
      name: 'an inherit flag that is not a boolean',
      params: { uuid: oscarOwnedUnitUuid },
      query: { inherit_owner: 'always' },
      status: 400,
      errorKey: 'E_INVALID_INPUT',
    },
    ...detailReadErrors('unit', oscarOwnedUnitUuid),
  ],
  listOrgUnitItUsers: [
    {
      name: "a unit's shared account",
      params: { uuid: oscarOwnedUnitUuid },
      setup: (legacy: TestLegacy) => write(legacy, '/service/details/create', newUnitAccount),
      status: 200,
    },
    ...detailReadErrors('unit', oscarOwnedUnitUuid),
  ],

  getEmployeeDetailTypes: [
    { name: 'a development user', params: { uuid: oscar }, status: 200 },
    badUuid('uuid'),
    unknownEmployee,
  ],
  listEmployeeEngagements: [
    { name: 'present', params: { uuid: oscar }, status: 200 },
    { name: 'past', params: { uuid: formerEngagementHolder }, query: { validity: 'past' }, status: 200 },
    {
      name: 'past, when there is none',
      params: { uuid: oscar },
      query: { validity: 'past' },
      status: 200,
      empty: true,
    },
    ...detailReadErrors('employee', oscar),
  ],
  listEmployeeManagerRoles: [
    { name: "oscar's position", params: { uuid: oscar }, status: 200 },
    ...detailReadErrors('employee', oscar),
  ],
  listEmployeeOwners: [
    {
      name: "nora's owner",
      params: { uuid: nora },
      setup: (legacy: TestLegacy) => write(legacy, '/service/details/create', newPersonOwnership),
      status: 200,
    },
    ...detailReadErrors('employee', nora),
  ],
  listEmployeeItUsers: [
    { name: "oscar's accounts", params: { uuid: oscar }, status: 200 },
    ...detailReadErrors('employee', oscar),
  ],

  createOrgUnit: [
    {
      name: 'below a parent, every field given',
      body: {
        uuid: newUuid(1),
        name: 'Harbour Office',
        user_key: 'HBO',
        parent: ref(oscarOwnedUnitUuid),
        org_unit_type: cls.office,
        org_unit_level: cls.level3,
        validity: { from: '2024-01-01', to: null },
      },
      status: 201,
    },
    {
      name: 'at the top, required fields only',
      body: { name: 'Port Authority', org_unit_type: cls.office, validity: { from: '2024-01-01' } },
      status: 201,
    },
    { name: 'malformed JSON', rawBody: '{"name": ', status: 400, errorKey: 'E_INVALID_JSON' },
    {
      name: 'without a name',
      body: { org_unit_type: cls.office, validity: { from: '2024-01-01' } },
      status: 400,
      errorKey: 'V_MISSING_REQUIRED_VALUE',
    },
    {
      name: 'ending before it starts',
      body: { name: 'X', org_unit_type: cls.office, validity: { from: '2024-01-01', to: '2023-12-31' } },
      status: 400,
      errorKey: 'V_END_BEFORE_START',
    },
    {
      name: 'a unit type from another facet',
      body: { name: 'X', org_unit_type: cls.caseworker, validity: { from: '2024-01-01' } },
      status: 400,
      errorKey: 'E_CLASS_WRONG_FACET',
    },
    {
      name: 'an unknown parent',
      body: { name: 'X', parent: ref(unknown), org_unit_type: cls.office, validity: { from: '2024-01-01' } },
      status: 404,
      errorKey: 'E_ORG_UNIT_NOT_FOUND',
    },
    {
      name: 'a UUID that is taken',
      body: { uuid: unitUuid(1), name: 'X', org_unit_type: cls.office, validity: { from: '2024-01-01' } },
      status: 409,
      errorKey: 'E_ALREADY_EXISTS',
    },
    tooLarge,
  ],
  createEmployee: [
    { name: 'names only', body: { givenname: 'Ada', surname: 'Holm' }, status: 201 },
    {
      name: 'with UUID, user key and validity',
      body: {
        uuid: newUuid(2),
        givenname: 'Bo',
        surname: 'Lind',
        user_key: 'bolind',
        validity: { from: '2024-01-01', to: null },
      },
      status: 201,
    },
    {
      name: 'without a given name',
      body: { surname: 'Holm' },
      status: 400,
      errorKey: 'V_MISSING_REQUIRED_VALUE',
    },
    {
      name: 'a blank surname',
      body: { givenname: 'Ada', surname: '  ' },
      status: 400,
      errorKey: 'E_INVALID_INPUT',
    },
    {
      name: 'a UUID that is taken',
      body: { uuid: oscar, givenname: 'Ada', surname: 'Holm' },
      status: 409,
      errorKey: 'E_ALREADY_EXISTS',
    },
    tooLarge,
  ],
  createDetails: [
    { name: 'an engagement', body: newEngagement, status: 201 },
    { name: 'a vacant manager position', body: newVacantManager, status: 201 },
    {
      name: "a unit's owner",
      body: { ...newPersonOwnership, person: null, org_unit: ref(unitUuid(9)) },
      status: 201,
    },
    { name: "a unit's IT account", body: newUnitAccount, status: 201 },
    {
      name: 'a list, all or nothing',
      body: [newEngagement, newVacantManager, newPersonOwnership],
      status: 201,
    },
    {
      name: 'an unknown type',
      body: { ...newEngagement, type: 'salary' },
      status: 400,
      errorKey: 'E_INVALID_TYPE',
    },
    { name: 'an empty list', body: [], status: 400, errorKey: 'E_INVALID_INPUT' },
    {
      name: 'an owner of both a unit and a person',
      body: { ...newPersonOwnership, org_unit: ref(oscarOwnedUnitUuid) },
      status: 400,
      errorKey: 'E_INVALID_INPUT',
    },
    {
      name: 'an engagement before its unit existed',
      body: { ...newEngagement, validity: { from: '2001-01-01' } },
      status: 400,
      errorKey: 'V_DATE_OUTSIDE_ORG_UNIT_RANGE',
    },
    {
      name: 'an unknown person',
      body: { ...newEngagement, person: ref(unknown) },
      status: 404,
      errorKey: 'E_USER_NOT_FOUND',
    },
    {
      name: 'an unknown IT system',
      body: { ...newUnitAccount, itsystem: ref(unknown) },
      status: 404,
      errorKey: 'E_ITSYSTEM_NOT_FOUND',
    },
    {
      name: 'a UUID that is taken',
      body: { ...newEngagement, uuid: oscarsEngagement },
      status: 409,
      errorKey: 'E_ALREADY_EXISTS',
    },
    tooLarge,
  ],
  editDetails: [
    {
      name: 'an engagement from a future date',
      body: {
        type: 'engagement',
        uuid: oscarsEngagement,
        data: { job_function: cls.engineer, validity: { from: '2027-01-01' } },
      },
      status: 200,
    },
    {
      name: 'a manager position made vacant',
      body: {
        type: 'manager',
        uuid: oscarsManagerRole,
        data: { person: null, validity: { from: '2026-07-01' } },
      },
      status: 200,
    },
    {
      name: 'an owner handed over for a while',
      body: {
        type: 'owner',
        uuid: oscarsOwnership,
        data: { owner: ref(alice), validity: { from: '2026-07-01', to: '2026-12-31' } },
      },
      status: 200,
    },
    {
      name: 'an IT account renamed',
      body: {
        type: 'it',
        uuid: oscarsAccount,
        data: { user_key: 'oscar.olsen', validity: { from: '2026-07-01' } },
      },
      status: 200,
    },
    {
      name: 'a unit renamed and moved',
      body: {
        type: 'org_unit',
        uuid: unitUuid(20),
        data: { name: 'Renamed Unit', parent: ref(oscarOwnedUnitUuid), validity: { from: '2026-07-01' } },
      },
      status: 200,
    },
    {
      name: 'an employee renamed',
      body: { type: 'employee', uuid: nora, data: { surname: 'Berg', validity: { from: '2026-07-01' } } },
      status: 200,
    },
    {
      name: 'a list, applied in order',
      body: [
        { type: 'employee', uuid: nora, data: { surname: 'Berg', validity: { from: '2026-07-01' } } },
        { type: 'employee', uuid: nora, data: { givenname: 'Nor', validity: { from: '2026-08-01' } } },
      ],
      status: 200,
    },
    {
      name: 'from a date the record did not hold',
      body: { type: 'engagement', uuid: oscarsEngagement, data: { validity: { from: '2000-01-01' } } },
      status: 400,
      errorKey: 'V_NOT_ACTIVE',
    },
    {
      name: 'without data',
      body: { type: 'engagement', uuid: oscarsEngagement },
      status: 400,
      errorKey: 'V_MISSING_REQUIRED_VALUE',
    },
    {
      name: 'a type that cannot be edited',
      body: { type: 'salary', uuid: oscarsEngagement, data: { validity: { from: '2026-07-01' } } },
      status: 400,
      errorKey: 'E_INVALID_TYPE',
    },
    {
      name: 'an unknown record',
      body: { type: 'engagement', uuid: unknown, data: { validity: { from: '2026-07-01' } } },
      status: 404,
      errorKey: 'E_NOT_FOUND',
    },
    tooLarge,
  ],
  terminateDetails: [
    {
      name: 'an engagement',
      body: { type: 'engagement', uuid: oscarsEngagement, validity: { to: '2026-12-31' } },
      status: 200,
    },
    {
      name: 'a list',
      body: [
        { type: 'it', uuid: oscarsAccount, validity: { to: '2026-12-31' } },
        { type: 'owner', uuid: oscarsOwnership, validity: { to: '2026-12-31' } },
      ],
      status: 200,
    },
    {
      name: 'without an end date',
      body: { type: 'engagement', uuid: oscarsEngagement, validity: {} },
      status: 400,
      errorKey: 'V_MISSING_REQUIRED_VALUE',
    },
    {
      name: 'ending before the record starts',
      body: { type: 'manager', uuid: oscarsManagerRole, validity: { to: '2000-01-01' } },
      status: 400,
      errorKey: 'V_END_BEFORE_START',
    },
    {
      name: 'an unknown record',
      body: { type: 'manager', uuid: unknown, validity: { to: '2026-12-31' } },
      status: 404,
      errorKey: 'E_NOT_FOUND',
    },
    tooLarge,
  ],
  terminateOrgUnit: [
    {
      name: 'a unit without children or roles',
      params: { uuid: newLeafUnit.uuid },
      setup: (legacy: TestLegacy) => write(legacy, '/service/ou/create', newLeafUnit),
      body: { validity: { to: '2026-12-31' } },
      status: 200,
    },
    {
      name: 'a unit with children',
      params: { uuid: unitUuid(1) },
      body: { validity: { to: '2026-12-31' } },
      status: 400,
      errorKey: 'V_TERMINATE_UNIT_WITH_CHILDREN_OR_ROLES',
    },
    {
      name: 'without an end date',
      params: { uuid: unitUuid(1) },
      body: {},
      status: 400,
      errorKey: 'V_MISSING_REQUIRED_VALUE',
    },
    { ...badUuid('uuid'), body: { validity: { to: '2026-12-31' } } },
    { ...unknownUnit, body: { validity: { to: '2026-12-31' } } },
    { ...tooLarge, params: { uuid: unitUuid(1) } },
  ],
  terminateEmployee: [
    {
      name: 'leaving manager positions vacant',
      params: { uuid: oscar },
      body: { validity: { to: '2026-06-30' }, vacate: true },
      status: 200,
    },
    {
      name: 'ending everything',
      params: { uuid: nora },
      body: { validity: { to: '2026-06-30' } },
      status: 200,
    },
    {
      name: 'without an end date',
      params: { uuid: nora },
      body: { vacate: true },
      status: 400,
      errorKey: 'V_MISSING_REQUIRED_VALUE',
    },
    {
      name: 'a vacate flag that is not a boolean',
      params: { uuid: nora },
      body: { validity: { to: '2026-06-30' }, vacate: 'yes' },
      status: 400,
      errorKey: 'E_INVALID_INPUT',
    },
    { ...badUuid('uuid'), body: { validity: { to: '2026-06-30' } } },
    { ...unknownEmployee, body: { validity: { to: '2026-06-30' } } },
    { ...tooLarge, params: { uuid: nora } },
  ],
};
