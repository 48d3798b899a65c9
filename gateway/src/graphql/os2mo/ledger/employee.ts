import { added, bound, omitted, pageArgs, responses, type TypeLedger } from './entry.js';
import * as facts from './facts.js';

/** The ledger of OS2mo's `Employee`: its fields, and the coordinates of its filters and inputs. */
export const employee: TypeLedger = {
  type: 'Employee',
  graphType: 'Employee',
  description: 'A person.',
  contract: ['Employee', 'EmployeeVersion', 'PersonRef', 'EmployeeCreate', 'EmployeeEdit'],
  fields: {
    uuid: { type: 'UUID!' },
    user_key: { type: 'String!' },
    name: { type: 'String!' },
    given_name: { type: 'String!', from: 'givenname' },
    givenname: { type: 'String!', deprecated: 'Use `given_name`.' },
    surname: { type: 'String!' },
    nickname: { type: 'String!' },
    nickname_given_name: { type: 'String', from: 'nickname_givenname' },
    nickname_givenname: { type: 'String', deprecated: 'Use `nickname_given_name`.' },
    nickname_surname: { type: 'String' },
    cpr_number: { type: 'CPR', legacy: 'cpr_no' },
    // OS2mo's older name of the same number: the same read, gate and log (`cpr-number.ts`).
    cpr_no: { type: 'CPR', legacy: 'cpr_no', deprecated: 'Use `cpr_number`.' },
    validity: { type: 'OpenValidity!', own: true },
    seniority: { type: 'Date', own: true },
    engagements: {
      type: '[Engagement!]!',
      deprecated: 'Use `engagements_response`.',
      ...bound('EmployeeBoundEngagementFilter', { type: 'engagement', owner: 'employee' }, pageArgs),
    },
    manager_roles: {
      type: '[Manager!]!',
      deprecated: 'Use `manager_roles_response`.',
      ...bound(
        'EmployeeBoundManagerFilter',
        { type: 'manager', owner: 'employee' },
        `${pageArgs}, inherit: Boolean! = false`,
      ),
    },
    addresses: {
      type: '[Address!]!',
      deprecated: 'Use `addresses_response`.',
      ...bound('EmployeeBoundAddressFilter', { type: 'address', owner: 'employee' }, pageArgs),
    },
    associations: {
      type: '[Association!]!',
      deprecated: 'Use `associations_response`.',
      ...bound('EmployeeBoundAssociationFilter', { type: 'association', owner: 'employee' }, pageArgs),
    },
    itusers: {
      type: '[ITUser!]!',
      deprecated: 'Use `itusers_response`.',
      ...bound('EmployeeBoundITUserFilter', { type: 'it', owner: 'employee' }, pageArgs),
    },
    leaves: {
      type: '[Leave!]!',
      deprecated: 'Use `leaves_response`.',
      ...bound('EmployeeBoundLeaveFilter', { type: 'leave', owner: 'employee' }, pageArgs),
    },
    engagements_response: {
      since: responses,
      type: 'EngagementResponsePaged!',
      from: 'engagements',
      response: 'paged',
      ...bound('EmployeeBoundEngagementFilter', { type: 'engagement', owner: 'employee' }, pageArgs),
    },
    manager_roles_response: {
      since: responses,
      type: 'ManagerResponsePaged!',
      from: 'manager_roles',
      response: 'paged',
      ...bound(
        'EmployeeBoundManagerFilter',
        { type: 'manager', owner: 'employee' },
        `${pageArgs}, inherit: Boolean! = false`,
      ),
    },
    addresses_response: {
      since: responses,
      type: 'AddressResponsePaged!',
      from: 'addresses',
      response: 'paged',
      ...bound('EmployeeBoundAddressFilter', { type: 'address', owner: 'employee' }, pageArgs),
    },
    associations_response: {
      since: responses,
      type: 'AssociationResponsePaged!',
      from: 'associations',
      response: 'paged',
      ...bound('EmployeeBoundAssociationFilter', { type: 'association', owner: 'employee' }, pageArgs),
    },
    itusers_response: {
      since: responses,
      type: 'ITUserResponsePaged!',
      from: 'itusers',
      response: 'paged',
      ...bound('EmployeeBoundITUserFilter', { type: 'it', owner: 'employee' }, pageArgs),
    },
    leaves_response: {
      since: responses,
      type: 'LeaveResponsePaged!',
      from: 'leaves',
      response: 'paged',
      ...bound('EmployeeBoundLeaveFilter', { type: 'leave', owner: 'employee' }, pageArgs),
    },
    type: omitted(facts.typeField),
    roles: omitted(facts.roles, { until: 22 }),
    addresses_validity: omitted(facts.validityLinks, { until: 26 }),
    associations_validity: omitted(facts.validityLinks, { until: 26 }),
    engagements_validity: omitted(facts.validityLinks, { until: 26 }),
    itusers_validity: omitted(facts.validityLinks, { until: 26 }),
  },
  more: {
    ...added(22, ['Employee.manager_roles(inherit:)']),
    ...added(26, ['Query.persons']),
  },
};
