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
    // The filter member of the same fact: a manager filter's `engagement` keeps no 2.x manager given any
    // value (`{}` too) and every one given null, as OS2mo's manager predicate asks for a manager's engagement
    // relation whenever the member is not null (`mora/graphapi/resolvers.py`@66.1.2:1630-1649; the member's
    // default is null, `mora/graphapi/filters.py`@66.1.2:556). OS2mo added it in 50.4.0, when v27 was newest.
    ...at(
      managerNoEngagement,
      [
        'ManagerFilter.engagement',
        'EmployeeBoundManagerFilter.engagement',
        'OrgUnitboundmanagerfilter.engagement',
      ],
      { since: 27 },
    ),
    ...at(managerWriteNoEngagement, ['ManagerCreateInput.engagement', 'ManagerUpdateInput.engagement']),
    ...added(22, ['Query.managers(inherit:)']),
    ...added(23, ['ManagerFilter.exclude']),
    ...added(26, ['ManagerFilter.manager_type']),
  },
};
