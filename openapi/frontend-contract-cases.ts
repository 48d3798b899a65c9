import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { classUuid, oscarOwnedUnitUuid, unitUuid } from '../legacy-service/src/fixture/organisation.js';
import type { ContractCase } from './contract-case.js';
import { findFixture, oscar, org, unknown, uuidOr } from './contract-fixture.js';

/**
 * Contract cases of the routes OS2mo 2.4.0 serves its own frontend and operators: configuration, nav links,
 * exports, class writes, integration data, refresh and the `validate/*` checks.
 */

const exportsOf = (dir: string) => join(dir, 'exports');
const badUuid = (param: string): ContractCase => ({
  name: 'a malformed UUID',
  params: { [param]: 'not-a-uuid' },
  status: 400,
  errorKey: 'E_INVALID_INPUT',
});
const notJsonObject: ContractCase = {
  name: 'a body that is no JSON object',
  rawBody: '[1]',
  status: 400,
  errorKey: 'E_INVALID_INPUT',
};
const emailType = { uuid: classUuid('org_unit_address_type', 'unit_email') };
/** A seeded person's CPR number (an unknown UUID, so the case fails, if the fixture ever holds none). */
const takenCpr = uuidOr(
  findFixture('employee', (version) => typeof version.cpr_no === 'string')?.match.cpr_no,
);
const from = (date: string) => ({ from: date, to: null });

export const frontendContractCases: Record<string, ContractCase[]> = {
  readGlobalConfiguration: [{ name: "2.4.0's defaults", status: 200 }],
  writeGlobalConfiguration: [
    { name: 'a setting', body: { org_units: { show_roles: 'False' } }, status: 410 },
    notJsonObject,
    { name: 'without a token', body: { org_units: {} }, token: null, status: 401 },
  ],
  readOrgUnitConfiguration: [
    { name: "a unit's settings", params: { uuid: oscarOwnedUnitUuid }, status: 200 },
    badUuid('uuid'),
  ],
  writeOrgUnitConfiguration: [
    {
      name: 'a setting',
      params: { uuid: oscarOwnedUnitUuid },
      body: { org_units: { show_location: 'False' } },
      status: 410,
    },
    { ...notJsonObject, params: { uuid: oscarOwnedUnitUuid } },
    { name: 'without a token', params: { uuid: oscarOwnedUnitUuid }, body: {}, token: null, status: 401 },
  ],
  listNavLinks: [{ name: 'none configured: [{}]', status: 200 }],
  listExports: [
    {
      name: 'the files of the folder',
      setup: async (legacy) => {
        await writeFile(join(exportsOf(legacy.dir), 'units.csv'), 'uuid;name\n');
        await mkdir(join(exportsOf(legacy.dir), 'old'));
      },
      status: 200,
      verify: (body) => (JSON.stringify(body) === '["units.csv"]' ? [] : [`listed ${JSON.stringify(body)}`]),
    },
    {
      name: 'without the folder',
      setup: (legacy) => rm(exportsOf(legacy.dir), { recursive: true }),
      status: 500,
      errorKey: 'E_DIR_NOT_FOUND',
    },
  ],
  readExport: [
    {
      name: 'a JSON report',
      params: { file_name: 'report.json' },
      setup: (legacy) => writeFile(join(exportsOf(legacy.dir), 'report.json'), '{"units": 3}'),
      status: 200,
    },
    {
      name: 'a file the folder lacks',
      params: { file_name: 'nothing.csv' },
      status: 404,
      errorKey: 'E_NOT_FOUND',
    },
    {
      name: 'without the folder',
      params: { file_name: 'report.json' },
      setup: (legacy) => rm(exportsOf(legacy.dir), { recursive: true }),
      status: 500,
      errorKey: 'E_DIR_NOT_FOUND',
    },
  ],
  refreshOrgUnit: [
    { name: 'a unit', params: { uuid: oscarOwnedUnitUuid }, status: 200 },
    badUuid('uuid'),
    { name: 'an unknown unit', params: { uuid: unknown }, status: 404, errorKey: 'E_ORG_UNIT_NOT_FOUND' },
  ],
  readOrgUnitIntegrationData: [
    { name: 'a unit', params: { uuid: oscarOwnedUnitUuid }, status: 200 },
    badUuid('uuid'),
    { name: 'an unknown unit', params: { uuid: unknown }, status: 404, errorKey: 'E_ORG_UNIT_NOT_FOUND' },
  ],
  readEmployeeIntegrationData: [
    { name: 'a person', params: { uuid: oscar }, status: 200 },
    badUuid('uuid'),
    { name: 'an unknown person', params: { uuid: unknown }, status: 404, errorKey: 'E_USER_NOT_FOUND' },
  ],
  writeClass: [
    {
      name: 'a new class (OS2mo 2.4.0 test_integration_service.py::test_facet_create_and_update)',
      params: { facet: 'engagement_job_function' },
      body: {
        uuid: '18638313-d9e6-4e1d-aea6-67f5fce7a6b0',
        user_key: 'BVN',
        name: 'Jurist',
        scope: 'TEXT',
        org_uuid: org,
      },
      status: 200,
    },
    {
      name: 'without a name',
      params: { facet: 'engagement_job_function' },
      body: { user_key: 'BVN', org_uuid: org },
      status: 400,
      errorKey: 'E_INVALID_INPUT',
    },
    {
      name: 'an unknown facet',
      params: { facet: 'no_such_facet' },
      body: { user_key: 'BVN', name: 'Jurist', org_uuid: org },
      status: 404,
      errorKey: 'E_NOT_FOUND',
    },
    {
      name: 'a body over the size limit',
      params: { facet: 'engagement_job_function' },
      rawBody: JSON.stringify({ padding: 'x'.repeat(1024 * 1024) }),
      status: 413,
      errorKey: 'E_PAYLOAD_TOO_LARGE',
    },
  ],
  validateOrgUnitDates: [
    {
      name: 'within the unit',
      body: { org_unit: { uuid: unitUuid(1) }, validity: from('2020-01-01') },
      status: 200,
    },
    {
      name: 'before the unit',
      body: { org_unit: { uuid: unitUuid(1) }, validity: from('1900-01-01') },
      status: 400,
      errorKey: 'V_DATE_OUTSIDE_ORG_UNIT_RANGE',
    },
    {
      name: 'before the unit, forced',
      query: { force: '1' },
      body: { org_unit: { uuid: unitUuid(1) }, validity: from('1900-01-01') },
      status: 200,
    },
    {
      name: 'an unknown unit',
      body: { org_unit: { uuid: unknown }, validity: from('2020-01-01') },
      status: 404,
      errorKey: 'E_ORG_UNIT_NOT_FOUND',
    },
  ],
  validateEmployeeDates: [
    {
      name: 'within the person',
      body: { person: { uuid: oscar }, validity: from('2024-01-01') },
      status: 200,
    },
    {
      name: 'before the person',
      body: { person: { uuid: oscar }, validity: from('1800-01-01') },
      status: 400,
      errorKey: 'V_DATE_OUTSIDE_EMPL_RANGE',
    },
    {
      name: 'an unknown person',
      body: { person: { uuid: unknown }, validity: from('2024-01-01') },
      status: 404,
      errorKey: 'E_USER_NOT_FOUND',
    },
  ],
  validateCpr: [
    { name: 'a free number', body: { cpr_no: '0101011234', org: { uuid: org } }, status: 200 },
    {
      name: 'without a number',
      body: { org: { uuid: org } },
      status: 400,
      errorKey: 'V_MISSING_REQUIRED_VALUE',
    },
    {
      name: "someone's number",
      body: { cpr_no: takenCpr, org: { uuid: org } },
      status: 409,
      errorKey: 'V_EXISTING_CPR',
    },
  ],
  validateActiveEngagements: [
    { name: 'while engaged', body: { person: { uuid: oscar }, validity: from('2024-01-01') }, status: 200 },
    {
      name: 'before any engagement',
      body: { person: { uuid: oscar }, validity: from('1900-01-01') },
      status: 400,
      errorKey: 'V_NO_ACTIVE_ENGAGEMENT',
    },
  ],
  validateExistingAssociations: [
    {
      name: 'no association yet',
      body: { person: { uuid: oscar }, org_unit: { uuid: unitUuid(1) }, validity: from('2024-01-01') },
      status: 200,
    },
    {
      name: 'without a unit',
      body: { person: { uuid: oscar }, validity: from('2024-01-01') },
      status: 400,
      errorKey: 'V_MISSING_REQUIRED_VALUE',
    },
  ],
  validateMovableOrgUnit: [
    { name: 'a unit below the top', body: { org_unit: { uuid: unitUuid(1) } }, status: 200 },
    {
      name: 'the top unit',
      body: { org_unit: { uuid: unitUuid(0) } },
      status: 400,
      errorKey: 'V_CANNOT_MOVE_ROOT_ORG_UNIT',
    },
    {
      name: 'an unknown unit',
      body: { org_unit: { uuid: unknown } },
      status: 404,
      errorKey: 'E_ORG_UNIT_NOT_FOUND',
    },
  ],
  validateCandidateParent: [
    {
      name: 'a sibling',
      body: { org_unit: { uuid: unitUuid(2) }, parent: { uuid: unitUuid(1) }, validity: from('2024-01-01') },
      status: 200,
    },
    {
      name: 'below itself',
      body: { org_unit: { uuid: unitUuid(0) }, parent: { uuid: unitUuid(1) }, validity: from('2024-01-01') },
      status: 400,
      errorKey: 'V_ORG_UNIT_MOVE_TO_CHILD',
    },
    {
      name: 'an unknown parent',
      body: { org_unit: { uuid: unitUuid(2) }, parent: { uuid: unknown }, validity: from('2024-01-01') },
      status: 404,
      errorKey: 'E_ORG_UNIT_NOT_FOUND',
    },
  ],
  validateAddress: [
    {
      name: 'an email address',
      body: { value: 'someone@example.org', address_type: emailType },
      status: 200,
    },
    {
      name: 'not an email address',
      body: { value: 'nobody', address_type: emailType },
      status: 400,
      errorKey: 'V_INVALID_ADDRESS_EMAIL',
    },
    {
      name: 'an unknown type',
      body: { value: 'x', address_type: { uuid: unknown } },
      status: 404,
      errorKey: 'E_CLASS_NOT_FOUND',
    },
  ],
  readKeycloakSettings: [
    {
      name: "the realm's settings, without a token",
      os2mo: 'OS2mo 2.4.0 backend/tests/test_service_auth.py::TestEndpointAuthDependency',
      token: null,
      status: 200,
    },
  ],
  logIn: [
    {
      name: 'a user name and password, without a token',
      os2mo: 'OS2mo 2.4.0 backend/tests/test_service_auth.py::TestEndpointAuthDependency',
      form: { username: 'alice', password: 'alice' },
      token: null,
      status: 200,
    },
    {
      name: 'without a password',
      form: { username: 'alice' },
      token: null,
      status: 400,
      errorKey: 'E_INVALID_INPUT',
    },
    {
      name: 'with a client_id (auth/keycloak/router.py:43-44)',
      form: { username: 'alice', password: 'alice', client_id: 'org-frontend' },
      token: null,
      status: 406,
    },
    {
      name: 'a password the realm refuses',
      form: { username: 'alice', password: 'wrong' },
      token: null,
      status: 401,
      errorKey: 'E_UNAUTHORIZED',
    },
  ],
  autocompleteAddresses: [
    {
      name: "the municipality's own addresses",
      params: { org },
      query: { q: 'Town Hall Square 1' },
      status: 200,
    },
    {
      name: 'the whole register (global=1)',
      params: { org },
      query: { q: 'Northbay', global: '1' },
      status: 200,
    },
    {
      name: 'an organisation it does not hold',
      os2mo:
        'OS2mo 2.4.0 backend/tests/test_service_address.py::TestAddressLookup::test_autocomplete_missing_org',
      params: { org: unknown },
      query: { q: '42' },
      status: 400,
      errorKey: 'E_NO_LOCAL_MUNICIPALITY',
    },
    { name: 'without q', params: { org }, status: 400, errorKey: 'E_INVALID_INPUT' },
  ],
};
