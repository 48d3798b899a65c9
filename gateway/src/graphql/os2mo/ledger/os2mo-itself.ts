import { added, at, notServed, type CoordinateEntry } from './entry.js';
import { registrations, roles, uploads } from './facts.js';

/**
 * What OS2mo's schema has about OS2mo itself, or about data kept outside the organisation's records: its
 * health, configuration, release, uploads, the export files' filter, the address register, and OS2mo's names of that
 * time for what v21 to v25 printed and the gateway does not serve.
 */

const health = notServed(
  "OS2mo's own health checks: about OS2mo itself, not the organisation; the gateway has /health",
  ['contract:/health'],
);
const dar = notServed(
  "a DAR address's structured fields come from the national address register, which the Service API does not pass on (it gives the address's value and name)",
  ['contract:Address'],
);
const configuration = notServed("OS2mo's own configuration: about OS2mo itself, not the organisation", [
  'contract:/service/configuration',
]);
const dipex = notServed(
  "the release of OS2mo's integrations (DIPEX): the Service API's `GET /version/` does not report it",
  ['contract:ServiceVersion'],
);

/** The bound filters v21, v22 and v25 print alike (under their names of that time, `EmployeesBound…`). */
const pluralBound = ['Address', 'Association', 'Engagement', 'ITUser', 'Leave'].flatMap((name) => [
  `EmployeesBound${name}Filter`,
  `OrgUnitsbound${name.toLowerCase()}filter`,
]);

export const os2moItself: Readonly<Record<string, CoordinateEntry>> = {
  ...at(health, ['Health', 'HealthFilter', 'HealthPaged', 'Query.healths']),
  // The export files are served (`export-files.ts`); OS2mo added this member of their filter in v26.
  ...added(26, ['FileFilter.file_name_contains']),
  ...at(uploads, ['Upload']),
  ...at(
    dar,
    [
      'description',
      'road_code',
      'road_name',
      'house_number',
      'floor',
      'door',
      'zip_code',
      'zip_code_name',
      'municipality_code',
      'supplementary_city',
      'longitude',
      'latitude',
      'href',
      'streetmap_href',
    ].map((field) => `DARAddress.${field}`),
  ),
  // Printed by v21, v22 and v25, gone by v29.
  ...at(
    registrations,
    [
      'AuditLog',
      'AuditLogFilter',
      'AuditLogModel',
      'AuditLogPaged',
      'Query.auditlog',
      'Registration',
      'RegistrationPaged',
      ...[
        ...pluralBound,
        'OrgUnitsboundklefilter',
        'EmployeesBoundManagerFilter',
        'FacetsBoundClassFilter',
        'ParentsBoundClassFilter',
        'ParentsBoundFacetFilter',
        'ParentsBoundOrganisationUnitFilter',
      ].map((filter) => `${filter}.registration`),
    ],
    { until: 26 },
  ),
  // v25 alone binds `OrganisationUnit.managers`' filter to the unit: v24 and older take `ManagerFilter`.
  ...at(registrations, ['OrgUnitsboundmanagerfilter.registration'], { since: 25, until: 26 }),
  ...at(
    configuration,
    ['Configuration', 'ConfigurationFilter', 'ConfigurationPaged', 'Query.configuration'],
    {
      until: 26,
    },
  ),
  ...at(dipex, ['Version.dipex_version'], { until: 26 }),
  ...at(
    roles,
    [
      'EmployeesBoundRoleFilter',
      'OrgUnitsboundrolefilter',
      'Query.roles',
      'Role',
      'RoleCreateInput',
      'RoleFilter',
      'RoleResponse',
      'RoleResponsePaged',
      'RoleTerminateInput',
      'RoleUpdateInput',
    ],
    { until: 22 },
  ),
};
