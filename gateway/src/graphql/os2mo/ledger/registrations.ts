import { at, type CoordinateEntry } from './entry.js';
import { registrations as fact } from './facts.js';

/**
 * OS2mo's bitemporal registrations in every spelling: its registration types, each response's
 * `registrations` and `registration_time`, and each filter's `registration` members. One fact: the Service
 * API keeps no registration history, so none is served.
 */

/** The collections whose response has `registrations` and whose filter has both registration members. */
const collections = [
  'Address',
  'Association',
  'Class',
  'Employee',
  'Engagement',
  'Facet',
  'ITSystem',
  'ITUser',
  'KLE',
  'Leave',
  'Manager',
  'OrganisationUnit',
  'RoleBinding',
];
/** Collections whose filter has only `registration_time` (OS2mo gives them no `registration` member). */
const timeOnly = ['Owner', 'RelatedUnit'];

/** Bound filters with both members, and with `registration_time` alone. */
const boundFilters = [
  'ClassOwnerFilter',
  'DescendantParentBoundOrganisationUnitFilter',
  ...['Address', 'Association', 'Engagement', 'ITUser', 'Leave', 'Manager'].map(
    (type) => `EmployeeBound${type}Filter`,
  ),
  'EngagementBoundAddressFilter',
  'EngagementBoundITUserFilter',
  'FacetBoundClassFilter',
  'ItSystemboundclassfilter',
  'ItuserBoundAddressFilter',
  'ItuserBoundRoleBindingFilter',
  ...['address', 'association', 'engagement', 'ituser', 'kle', 'leave', 'manager'].map(
    (type) => `OrgUnitbound${type}filter`,
  ),
  'ParentBoundClassFilter',
  'ParentBoundFacetFilter',
  'ParentBoundOrganisationUnitFilter',
  ...['Class', 'Employee', 'Engagement', 'Facet', 'ITSystem', 'ITUser', 'Leave', 'OrganisationUnit'].map(
    (type) => `UuidsBound${type}Filter`,
  ),
];
const boundTimeOnly = ['OrgUnitboundownerfilter', 'OrgUnitboundrelatedunitfilter'];

/** OS2mo's types of registrations, actors and the access log, none of which the gateway serves. */
const types = [
  'AccessLog',
  'AccessLogFilter',
  'AccessLogModel',
  'AccessLogPaged',
  'HardcodedActor',
  'IRegistration',
  'IRegistrationPaged',
  'ModelsUuidsBoundRegistrationFilter',
  'PersonRegistration',
  'RegistrationBase',
  'RegistrationFilter',
  'RoleRegistrationFilter',
  'SpecialActor',
  ...[...collections, ...timeOnly]
    .filter((type) => type !== 'Employee')
    .flatMap((type) => [`${type}Registration`, `${type}ResponseRegistration`]),
  'EmployeeResponseRegistration',
  ...collections.filter((type) => type !== 'RoleBinding').map((type) => `${type}RegistrationFilter`),
];

const response = (type: string) => [
  `${type}Response.registrations`,
  ...['current', 'objects', 'validities'].map((field) => `${type}Response.${field}(registration_time:)`),
];

export const registrationLedger: Readonly<Record<string, CoordinateEntry>> = at(fact, [
  ...types,
  'Query.access_log',
  'Query.registrations',
  ...[...collections, ...timeOnly].flatMap(response),
  ...[...collections.map((type) => `${type}Filter`), ...boundFilters].flatMap((filter) => [
    `${filter}.registration`,
    `${filter}.registration_time`,
  ]),
  ...[...timeOnly.map((type) => `${type}Filter`), ...boundTimeOnly].map(
    (filter) => `${filter}.registration_time`,
  ),
]);
