import type { OmissionList } from './schema-conformance.js';

/** Reasons for what an older OS2mo version has that v30 has not, and the gateway does not serve either. */
const reasons = {
  AUDIT: "OS2mo's audit log and registrations of that time: the Service API keeps no registration history",
  CONFIG: "OS2mo's own configuration: about OS2mo itself, not the organisation",
  ROLES:
    "roles (replaced by role bindings in OS2mo 36): not served in OS2mo's versions; v1 and v2 read `details/role`",
  VALIDITY_LINKS: 'a link over a validity window (`*_validity`), removed by OS2mo later: not served',
  FACET_PARENTS:
    "a facet filter's parent members (of `Facet.children`'s filter): facets form no hierarchy in the Service API, as for v30's `FacetFilter`",
  AUDIT_UNITS: "OS2mo's registrations of units: the Service API keeps no registration history",
  DIPEX: "the release of OS2mo's integrations (DIPEX): the Service API's `GET /version/` does not report it",
} as const;

const because = (reason: keyof typeof reasons, coordinates: readonly string[]): OmissionList =>
  Object.fromEntries(coordinates.map((coordinate) => [coordinate, reasons[reason]]));

/** The bound filters v21, v22 and v25 print alike (under their names of that time, `EmployeesBound…`). */
const plural = (names: readonly string[]) =>
  names.flatMap((name) => [`EmployeesBound${name}Filter`, `OrgUnitsbound${name.toLowerCase()}filter`]);

/** What v21, v22 and v25 print alike: registrations of their link filters. */
const oldFilterOmissions: OmissionList = {
  ...because('AUDIT_UNITS', ['ParentsBoundOrganisationUnitFilter.registration']),
  ...because('AUDIT', [
    ...plural(['Address', 'Association', 'Engagement', 'ITUser', 'Leave']).map(
      (name) => `${name}.registration`,
    ),
    'OrgUnitsboundklefilter.registration',
    'EmployeesBoundManagerFilter.registration',
    'FacetsBoundClassFilter.registration',
    'ParentsBoundClassFilter.registration',
    'ParentsBoundFacetFilter.registration',
  ]),
  ...because('FACET_PARENTS', ['ParentsBoundFacetFilter.parent', 'ParentsBoundFacetFilter.parent_user_keys']),
};

/**
 * For each older version held to an OS2mo printout, what that printout has beyond v30's declared omissions
 * (`v30-omissions.ts`), each with its reason. The conformance test checks both ways: every omission of the
 * version is declared here or in v30's list, and every entry here is an omission of that version.
 */
export const olderOmissions: Readonly<Record<string, OmissionList>> = {
  v25: {
    ...oldFilterOmissions,
    // v25 alone binds `OrganisationUnit.managers`' filter to the unit: v24 and older take `ManagerFilter`.
    ...because('AUDIT', ['OrgUnitsboundmanagerfilter.registration']),
    ...because('AUDIT', [
      'AuditLog',
      'AuditLogFilter',
      'AuditLogModel',
      'AuditLogPaged',
      'Query.auditlog',
      'Registration',
      'RegistrationPaged',
    ]),
    ...because('DIPEX', ['Version.dipex_version']),
    ...because('CONFIG', [
      'Configuration',
      'ConfigurationFilter',
      'ConfigurationPaged',
      'Query.configuration',
    ]),
    ...because('VALIDITY_LINKS', [
      'Address.address_type_validity',
      'Association.association_type_validity',
      'ITUser.itsystem_validity',
      'Employee.addresses_validity',
      'Employee.associations_validity',
      'Employee.engagements_validity',
      'Employee.itusers_validity',
      'Engagement.engagement_type_validity',
      'OrganisationUnit.addresses_validity',
      'OrganisationUnit.ancestors_validity',
      'OrganisationUnit.associations_validity',
      'OrganisationUnit.itusers_validity',
    ]),
  },
  v22: {
    ...oldFilterOmissions,
    ...because('AUDIT', [
      'AuditLog',
      'AuditLogFilter',
      'AuditLogModel',
      'AuditLogPaged',
      'Query.auditlog',
      'Registration',
      'RegistrationPaged',
    ]),
    ...because('DIPEX', ['Version.dipex_version']),
    ...because('CONFIG', [
      'Configuration',
      'ConfigurationFilter',
      'ConfigurationPaged',
      'Query.configuration',
    ]),
    ...because('VALIDITY_LINKS', [
      'Address.address_type_validity',
      'Association.association_type_validity',
      'ITUser.itsystem_validity',
      'Employee.addresses_validity',
      'Employee.associations_validity',
      'Employee.engagements_validity',
      'Employee.itusers_validity',
      'Engagement.engagement_type_validity',
      'OrganisationUnit.addresses_validity',
      'OrganisationUnit.ancestors_validity',
      'OrganisationUnit.associations_validity',
      'OrganisationUnit.itusers_validity',
    ]),
  },
  v21: {
    ...oldFilterOmissions,
    ...because('AUDIT', [
      'AuditLog',
      'AuditLogFilter',
      'AuditLogModel',
      'AuditLogPaged',
      'Query.auditlog',
      'Registration',
      'RegistrationPaged',
    ]),
    ...because('DIPEX', ['Version.dipex_version']),
    ...because('CONFIG', [
      'Configuration',
      'ConfigurationFilter',
      'ConfigurationPaged',
      'Query.configuration',
    ]),
    ...because('VALIDITY_LINKS', [
      'Address.address_type_validity',
      'Association.association_type_validity',
      'ITUser.itsystem_validity',
      'Employee.addresses_validity',
      'Employee.associations_validity',
      'Employee.engagements_validity',
      'Employee.itusers_validity',
      'Engagement.engagement_type_validity',
      'OrganisationUnit.addresses_validity',
      'OrganisationUnit.ancestors_validity',
      'OrganisationUnit.associations_validity',
      'OrganisationUnit.itusers_validity',
    ]),
    ...because('ROLES', [
      'Mutation.role_create',
      'Mutation.role_refresh',
      'Mutation.role_terminate',
      'Mutation.role_update',
      'Employee.roles',
      'EmployeesBoundRoleFilter',
      'OrgUnitsboundrolefilter',
      'OrganisationUnit.roles',
      'Query.roles',
      'Role',
      'RoleCreateInput',
      'RoleFilter',
      'RoleResponse',
      'RoleResponsePaged',
      'RoleTerminateInput',
      'RoleUpdateInput',
    ]),
  },
};
