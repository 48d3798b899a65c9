import {
  at,
  added,
  byUuids,
  empty,
  holdsNone,
  notServed,
  omitted,
  responses,
  usePerson,
  useUuidField,
  type TypeLedger,
} from './entry.js';
import * as facts from './facts.js';

const managerNoEngagement = holdsNone(
  'a 2.x manager position (`Manager` in the contract) names no engagement',
  ['contract:Manager', 'contract:ManagerCreate'],
  ['engagement', 'engagements'],
);
const managerNoEngagementFilter = notServed(
  "the Service API's manager records (`details/manager`) name no engagement, so no manager can be found by one",
  ['contract:Manager'],
);
const managerWriteNoEngagement = notServed("the Service API's manager record has no engagement", [
  'contract:ManagerCreate',
]);

/** The ledger of OS2mo's `Manager`: its fields, and the coordinates of its filters and inputs. */
export const manager: TypeLedger = {
  type: 'Manager',
  graphType: 'Manager',
  description: 'A manager position of a unit; `person` is empty while it is vacant.',
  contract: ['Manager', 'ManagerCreate', 'ManagerEdit'],
  fields: {
    uuid: { type: 'UUID!' },
    user_key: { type: 'String!' },
    validity: { type: 'Validity!' },
    manager_type: { type: 'Class!', deprecated: 'Use `manager_type_response`.', ...byUuids('Class') },
    manager_type_uuid: { type: 'UUID', deprecated: useUuidField('manager_type') },
    manager_level: { type: 'Class!', deprecated: 'Use `manager_level_response`.', ...byUuids('Class') },
    manager_level_uuid: { type: 'UUID', deprecated: useUuidField('manager_level') },
    responsibilities: {
      type: '[Class!]!',
      from: 'responsibility',
      deprecated: 'Use `responsibilities_response`.',
      ...byUuids('Class'),
    },
    responsibility_uuids: {
      type: '[UUID!]',
      from: 'responsibility',
      deprecated: useUuidField('responsibilities'),
    },
    person: {
      type: '[Employee!]',
      from: 'employee',
      deprecated: 'Use `person_response`.',
      ...byUuids('Employee'),
    },
    employee: { type: '[Employee!]', deprecated: usePerson, ...byUuids('Employee') },
    employee_uuid: { type: 'UUID', deprecated: useUuidField('person') },
    org_unit: {
      type: '[OrganisationUnit!]!',
      deprecated: 'Use `org_unit_response`.',
      ...byUuids('OrganisationUnit'),
    },
    org_unit_uuid: { type: 'UUID!', deprecated: useUuidField('org_unit') },
    manager_type_response: { since: responses, type: 'ClassResponse', from: 'manager_type', response: 'one' },
    manager_level_response: {
      since: responses,
      type: 'ClassResponse',
      from: 'manager_level',
      response: 'one',
    },
    responsibilities_response: {
      since: responses,
      type: 'ClassResponsePaged!',
      from: 'responsibility',
      response: 'paged',
      ...byUuids('Class'),
    },
    person_response: { since: responses, type: 'EmployeeResponse', from: 'employee', response: 'one' },
    org_unit_response: {
      since: responses,
      type: 'OrganisationUnitResponse!',
      from: 'org_unit',
      response: 'one',
    },
    engagement_response: empty(managerNoEngagement, 'EngagementResponse', { since: responses }),
    type: omitted(facts.typeField),
  },
  more: {
    ...at(managerNoEngagementFilter, [
      'ManagerFilter.engagement',
      'EmployeeBoundManagerFilter.engagement',
      'OrgUnitboundmanagerfilter.engagement',
    ]),
    ...at(managerWriteNoEngagement, ['ManagerCreateInput.engagement', 'ManagerUpdateInput.engagement']),
    ...added(22, ['Query.managers(inherit:)']),
    ...added(23, ['ManagerFilter.exclude']),
    ...added(26, ['ManagerFilter.manager_type']),
  },
};
