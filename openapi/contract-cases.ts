import {
  closedUnitDates,
  closedUnitUuid,
  futureUnitFrom,
  futureUnitUuid,
  oscarOwnedUnitUuid,
  referenceUnitUuids,
  unitUuid,
} from '../legacy-service/src/fixture/organisation.js';
import type { TestLegacy } from '../legacy-service/src/testing.js';
import {
  activeDirectory,
  alice,
  cls,
  findFixture,
  formerEngagementHolder,
  newUuid,
  nora,
  org,
  oscar,
  oscarsAccount,
  oscarsEngagement,
  oscarsManagerRole,
  oscarsOwnership,
  ref,
  unknown,
  uuidOr,
  write,
} from './contract-fixture.js';
import { frontendContractCases } from './frontend-contract-cases.js';
import { readingApiCases } from './reading-api-cases.js';

export type { ContractCase } from './contract-case.js';
import type { ContractCase } from './contract-case.js';

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

/** Detail records of the types the fixture grows for OS2mo; undefined until it has them. */
const seededAddress = (holder: 'person' | 'org_unit') =>
  findFixture('address', (version) => typeof version[holder] === 'string')?.match;
const seededDetail = (collection: string) => findFixture(collection)?.match;

/**
 * Bad path and query values every read shares. OS2mo's framework (FastAPI) checks typed path and query
 * values before the handler runs and answers 400 `E_INVALID_INPUT` (backend/mora/app.py,
 * `request_validation_handler`); a bad `validity` is `V_INVALID_VALIDITY` (backend/mora/lora.py,
 * `Connector.__init__`); a bad `at` is a deliberate deviation (OS2mo: 500 `E_UNKNOWN`).
 */
const badUuid = (param: string, extra: Record<string, string> = {}): ContractCase => ({
  name: 'a malformed UUID',
  params: { ...extra, [param]: 'not-a-uuid' },
  status: 400,
  errorKey: 'E_INVALID_INPUT',
});
const badDate = (params: Record<string, string>): ContractCase => ({
  name: 'an impossible date',
  params,
  query: { at: '2026-02-30' },
  status: 400,
  errorKey: 'E_INVALID_INPUT',
});
const badValidity = (params: Record<string, string>): ContractCase => ({
  name: 'an unknown validity',
  params,
  query: { validity: 'someday' },
  status: 400,
  errorKey: 'V_INVALID_VALIDITY',
});
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

/** Reads of a detail type: OS2mo answers an unknown unit or person with an empty list, not 404. */
const detailReadErrors = (uuid: string): ContractCase[] => [
  badUuid('uuid'),
  badValidity({ uuid }),
  badDate({ uuid }),
  { name: 'an unknown owner of records', params: { uuid: unknown }, status: 200, empty: true },
];

/** A detail read of a type whose records the fixture grows for OS2mo. */
const seededDetailRead = (name: string, holder: unknown): ContractCase[] => [
  { name, params: { uuid: uuidOr(holder) }, status: 200 },
  ...detailReadErrors(uuidOr(holder)),
];

/** Keyed by operationId. The test fails for an operation without cases and for a key it does not know. */
export const contractCases: Record<string, ContractCase[]> = {
  // OS2mo 2.4.0's reading API at /api/v1, one listing and one by_uuid read per type.
  ...readingApiCases,
  getHealth: [{ name: 'the service is up, without a token', status: 200, token: null }],
  getVersion: [
    { name: "the service's release, with a token", status: 200 },
    // OS2mo 2.4.0 answers it without a token (backend/tests/test_service_auth.py).
    { name: 'without a token', status: 200, token: null },
  ],

  listOrganisations: [{ name: 'the single organisation', status: 200 }],
  getOrganisation: [
    { name: 'today', params: { org }, status: 200 },
    { name: 'at a past date', params: { org }, query: { at: '2012-01-01' }, status: 200 },
    badUuid('org'),
    badDate({ org }),
    {
      name: 'an unknown organisation',
      params: { org: unknown },
      status: 404,
      errorKey: 'E_NO_SUCH_ENDPOINT',
    },
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
      name: 'with child counts, below a root',
      params: { org },
      query: { details: 'nchildren', root: unitUuid(0), limit: '5' },
      status: 200,
    },
    {
      name: 'a limit that is not a number',
      params: { org },
      query: { limit: 'all' },
      status: 400,
      errorKey: 'E_INVALID_INPUT',
    },
    badUuid('org'),
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
  ],
  listItSystems: [{ name: 'every IT system', params: { org }, status: 200 }, badUuid('org')],
  listFacets: [{ name: 'every facet', params: { org }, status: 200 }, badUuid('org')],
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
      errorKey: 'E_NOT_FOUND',
    },
    {
      name: 'a limit that is not a number',
      params: { org, facet: 'manager_type' },
      query: { limit: 'all' },
      status: 400,
      errorKey: 'E_INVALID_INPUT',
    },
    badUuid('org', { facet: 'manager_type' }),
  ],
  listRootOrgUnits: [
    { name: 'today', params: { org }, status: 200 },
    badUuid('org'),
    badDate({ org }),
    {
      name: 'an unknown organisation',
      params: { org: unknown },
      status: 404,
      errorKey: 'E_ORG_UNIT_NOT_FOUND',
    },
  ],

  getOrgUnit: [
    { name: 'a unit three levels down', params: { uuid: oscarOwnedUnitUuid }, status: 200 },
    { name: 'the top unit', params: { uuid: unitUuid(0) }, status: 200 },
    {
      name: 'with UUIDs only and a count',
      params: { uuid: oscarOwnedUnitUuid },
      query: { only_primary_uuid: '1', count: 'engagement' },
      status: 200,
    },
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
    { name: 'with UUIDs only', params: { uuid: oscar }, query: { only_primary_uuid: '1' }, status: 200 },
    badUuid('uuid'),
    badDate({ uuid: oscar }),
    unknownEmployee,
  ],
  getClass: [
    { name: 'a manager type', params: { uuid: cls.director }, status: 200 },
    {
      name: 'a job function with every option',
      params: { uuid: cls.caseworker.uuid },
      query: { full_name: '', facet: '', top_level_facet: '' },
      status: 200,
    },
    badUuid('uuid'),
  ],
  listClassChildren: [
    { name: 'a class without children', params: { uuid: cls.director }, status: 200, empty: true },
    badUuid('uuid'),
    badDate({ uuid: cls.director }),
  ],
  listFacetClasses: [
    { name: 'by user key, one page', params: { facet: 'manager_type' }, query: { limit: '2' }, status: 200 },
    { name: 'an unknown facet', params: { facet: 'no_such_facet' }, status: 404, errorKey: 'E_NOT_FOUND' },
    {
      name: 'a start that is not a number',
      params: { facet: 'manager_type' },
      query: { start: 'two' },
      status: 400,
      errorKey: 'E_INVALID_INPUT',
    },
  ],
  listFacetChildren: [
    { name: 'the manager types', params: { facet: 'manager_type' }, status: 200 },
    { name: 'an unknown facet', params: { facet: 'no_such_facet' }, status: 404, errorKey: 'E_NOT_FOUND' },
    badDate({ facet: 'manager_type' }),
  ],

  autocompleteEmployees: [
    { name: 'a name', query: { query: 'oscar' }, status: 200 },
    { name: 'nothing to search for', query: { query: '' }, status: 200, empty: true },
    { name: 'no query at all', status: 400, errorKey: 'E_INVALID_INPUT' },
  ],
  autocompleteOrgUnits: [
    { name: 'a word of a name', query: { query: 'office' }, status: 200 },
    { name: 'no query at all', status: 400, errorKey: 'E_INVALID_INPUT' },
  ],
  lookupCpr: [
    {
      name: 'a person the service holds',
      query: {
        q: uuidOr(findFixture('employee', (version) => typeof version.cpr_no === 'string')?.match.cpr_no),
      },
      status: 200,
    },
    {
      name: 'a valid number of nobody',
      query: { q: '0101011234' },
      status: 404,
      errorKey: 'V_NO_PERSON_FOR_CPR',
    },
    { name: 'an impossible date', query: { q: '3213011234' }, status: 400, errorKey: 'V_CPR_NOT_VALID' },
  ],
  getOrgUnitTree: [
    {
      name: 'down to oscar’s unit',
      params: { org },
      repeatedQuery: { uuid: [oscarOwnedUnitUuid] },
      status: 200,
    },
    {
      name: 'a malformed unit UUID',
      params: { org },
      repeatedQuery: { uuid: ['x'] },
      status: 400,
      errorKey: 'E_INVALID_INPUT',
    },
  ],
  getOrgUnitAncestorTree: [
    {
      name: 'two units',
      repeatedQuery: { uuid: [oscarOwnedUnitUuid, referenceUnitUuids[0] as string] },
      status: 200,
    },
    { name: 'without a unit', status: 400, errorKey: 'E_INVALID_INPUT' },
    {
      name: 'an unknown unit',
      repeatedQuery: { uuid: [unknown] },
      status: 404,
      errorKey: 'E_ORG_UNIT_NOT_FOUND',
    },
  ],

  getOrgUnitDetailTypes: [
    { name: "oscar's unit", params: { uuid: oscarOwnedUnitUuid }, status: 200 },
    { name: 'an unknown unit: every type false', params: { uuid: unknown }, status: 200 },
    badUuid('uuid'),
  ],
  listOrgUnitEngagements: [
    { name: 'present', params: { uuid: oscarOwnedUnitUuid }, status: 200 },
    {
      name: 'with the primary one marked',
      params: { uuid: oscarOwnedUnitUuid },
      query: { calculate_primary: '1' },
      status: 200,
    },
    ...detailReadErrors(oscarOwnedUnitUuid),
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
      name: 'on the opening day of a future unit, as a date-time',
      params: { uuid: futureUnitUuid() },
      query: { at: `${futureUnitFrom}T12:00:00+01:00` },
      status: 200,
    },
    {
      name: 'in an interval',
      params: { uuid: closedUnitUuid() },
      query: { validity: `${closedUnitDates.from}/${closedUnitDates.to}` },
      status: 200,
    },
    {
      name: 'inherited, legacy spelling',
      params: { uuid: oscarOwnedUnitUuid },
      query: { inherit_manager: '1' },
      status: 200,
    },
    {
      // OS2mo reads a flag as true unless it is empty, 0, false, no or n (backend/mora/util.py, get_args_flag).
      name: 'an inherit flag spelt as a word',
      params: { uuid: oscarOwnedUnitUuid },
      query: { inherit_manager: 'yes' },
      status: 200,
    },
    ...detailReadErrors(oscarOwnedUnitUuid),
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
    ...detailReadErrors(oscarOwnedUnitUuid),
  ],
  listOrgUnitItUsers: [
    {
      name: "a unit's shared account",
      params: { uuid: oscarOwnedUnitUuid },
      setup: (legacy: TestLegacy) => write(legacy, '/service/details/create', newUnitAccount),
      status: 200,
    },
    ...detailReadErrors(oscarOwnedUnitUuid),
  ],
  listOrgUnitAddresses: seededDetailRead("a unit's addresses", seededAddress('org_unit')?.org_unit),
  listOrgUnitAssociations: seededDetailRead(
    'the associations in a unit',
    seededDetail('association')?.org_unit,
  ),
  listOrgUnitEngagementAssociations: seededDetailRead(
    'the engagement associations with a unit',
    seededDetail('engagement_association')?.org_unit,
  ),
  listOrgUnitKles: seededDetailRead("a unit's KLE numbers", seededDetail('kle')?.org_unit),
  listOrgUnitRelatedUnits: seededDetailRead(
    'the units related to a unit',
    (seededDetail('related_unit')?.org_units as string[] | undefined)?.[0],
  ),
  listOrgUnitRoles: seededDetailRead('the roles in a unit', seededDetail('role')?.org_unit),
  listOrgUnitLeaves: [
    { name: 'a unit never has leaves', params: { uuid: oscarOwnedUnitUuid }, status: 200, empty: true },
    ...detailReadErrors(oscarOwnedUnitUuid),
  ],
  listOrgUnitVersions: [
    { name: "oscar's unit", params: { uuid: oscarOwnedUnitUuid }, status: 200 },
    ...detailReadErrors(oscarOwnedUnitUuid),
  ],

  getEmployeeDetailTypes: [
    { name: 'a development user', params: { uuid: oscar }, status: 200 },
    { name: 'an unknown person: every type false', params: { uuid: unknown }, status: 200 },
    badUuid('uuid'),
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
    ...detailReadErrors(oscar),
  ],
  listEmployeeManagerRoles: [
    { name: "oscar's position", params: { uuid: oscar }, status: 200 },
    ...detailReadErrors(oscar),
  ],
  listEmployeeOwners: [
    {
      name: "nora's owner",
      params: { uuid: nora },
      setup: (legacy: TestLegacy) => write(legacy, '/service/details/create', newPersonOwnership),
      status: 200,
    },
    ...detailReadErrors(nora),
  ],
  listEmployeeItUsers: [
    { name: "oscar's accounts", params: { uuid: oscar }, status: 200 },
    ...detailReadErrors(oscar),
  ],
  listEmployeeAddresses: seededDetailRead("a person's addresses", seededAddress('person')?.person),
  listEmployeeAssociations: [
    ...seededDetailRead("a person's associations", seededDetail('association')?.person),
    {
      name: "from the person's side",
      params: { uuid: uuidOr(seededDetail('association')?.person) },
      query: { first_party_perspective: '1' },
      status: 200,
    },
  ],
  listEmployeeLeaves: seededDetailRead("a person's leaves", seededDetail('leave')?.person),
  listEmployeeRoles: seededDetailRead("a person's roles", seededDetail('role')?.person),
  listEmployeeEngagementAssociations: [
    { name: 'a person never has them', params: { uuid: oscar }, status: 200, empty: true },
    ...detailReadErrors(oscar),
  ],
  listEmployeeKles: [
    { name: 'a person never has KLE numbers', params: { uuid: oscar }, status: 200, empty: true },
    ...detailReadErrors(oscar),
  ],
  listEmployeeRelatedUnits: [
    { name: 'a person never has related units', params: { uuid: oscar }, status: 200, empty: true },
    ...detailReadErrors(oscar),
  ],
  listEmployeeVersions: [
    { name: 'a development user', params: { uuid: oscar }, status: 200 },
    ...detailReadErrors(oscar),
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
    { name: 'malformed JSON', rawBody: '{"name": ', status: 400, errorKey: 'E_INVALID_INPUT' },
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
    { name: 'a full name', body: { name: 'Ada Marie Holm' }, status: 201 },
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
    // OS2mo needs a name, a given name or a surname, not both of the latter (backend/mora/service/employee.py).
    { name: 'a surname only', body: { surname: 'Holm' }, status: 201 },
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
      name: 'a list with one bad record writes none of them',
      body: [
        { ...newEngagement, uuid: newUuid(70) },
        { ...newEngagement, person: ref(unknown) },
      ],
      status: 404,
      errorKey: 'E_USER_NOT_FOUND',
      after: async (legacy) => {
        const response = await legacy.request(
          `/service/e/${oscar}/details/engagement?validity=future&at=2000-01-01`,
        );
        const records = (await response.json()) as { uuid: string }[];
        return records.some((record) => record.uuid === newUuid(70)) ? ['the good record was written'] : [];
      },
    },
    // OS2mo handles each element of a list; an empty list writes nothing (backend/mora/service/handlers.py).
    { name: 'an empty list', body: [], status: 201, empty: true },
    {
      name: 'an unknown type',
      body: { ...newEngagement, type: 'salary' },
      status: 400,
      errorKey: 'E_UNKNOWN_ROLE_TYPE',
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
      name: 'a unit renamed and moved, named by data.uuid',
      body: {
        type: 'org_unit',
        data: {
          uuid: unitUuid(20),
          name: 'Renamed Unit',
          parent: ref(oscarOwnedUnitUuid),
          validity: { from: '2026-07-01' },
        },
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
      name: 'a type that cannot be edited',
      body: { type: 'salary', uuid: oscarsEngagement, data: { validity: { from: '2026-07-01' } } },
      status: 400,
      errorKey: 'E_UNKNOWN_ROLE_TYPE',
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
      name: 'a unit with children and roles',
      params: { uuid: unitUuid(1) },
      body: { validity: { to: '2026-12-31' } },
      status: 400,
      errorKey: 'V_TERMINATE_UNIT_WITH_CHILDREN_AND_ROLES',
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
      // OS2mo checks the type of `vacate` against its default (backend/mora/util.py, checked_get).
      name: 'a vacate flag that is not a boolean',
      params: { uuid: nora },
      body: { validity: { to: '2026-06-30' }, vacate: 'yes' },
      status: 400,
      errorKey: 'E_INVALID_INPUT',
    },
    { ...badUuid('uuid'), body: { validity: { to: '2026-06-30' } } },
    { ...tooLarge, params: { uuid: nora } },
  ],
  mapOrgUnits: [
    {
      name: 'to two other units',
      params: { uuid: oscarOwnedUnitUuid },
      body: { destination: referenceUnitUuids.slice(0, 2), validity: { from: '2026-07-01' } },
      status: 200,
    },
    {
      name: 'without destinations',
      params: { uuid: oscarOwnedUnitUuid },
      body: { validity: { from: '2026-07-01' } },
      status: 400,
      errorKey: 'V_MISSING_REQUIRED_VALUE',
    },
    {
      name: 'to an unknown unit',
      params: { uuid: oscarOwnedUnitUuid },
      body: { destination: [unknown], validity: { from: '2026-07-01' } },
      status: 404,
      errorKey: 'E_ORG_UNIT_NOT_FOUND',
    },
    { ...tooLarge, params: { uuid: oscarOwnedUnitUuid } },
  ],
  ...frontendContractCases,
};
