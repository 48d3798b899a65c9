import {
  added,
  at,
  bound,
  byUuids,
  empty,
  holdsNone,
  omitted,
  pageArgs,
  responses,
  usePerson,
  useUuidField,
  uuidsBoundArgs,
  type TypeLedger,
} from './entry.js';
import * as facts from './facts.js';

const engagementNoLeave = holdsNone(
  "a 2.x engagement (`Engagement` in the contract) names no leave (a leave names its engagement), and OS2mo's own engagement read fills no `leave_uuid` (`mora/handler/impl/engagement.py`@HEAD)",
  ['contract:Engagement', 'contract:EngagementCreate'],
  ['leave', 'leaves'],
);

/** The ledger of OS2mo's `Engagement`: its fields, and the coordinates of its filters and inputs. */
export const engagement: TypeLedger = {
  type: 'Engagement',
  graphType: 'Engagement',
  description: "A person's employment in a unit.",
  contract: ['Engagement', 'EngagementCreate', 'EngagementEdit'],
  fields: {
    uuid: { type: 'UUID!' },
    user_key: { type: 'String!' },
    validity: { type: 'Validity!' },
    fraction: { type: 'Int' },
    ...Object.fromEntries(
      Array.from({ length: 10 }, (_, index) => [`extension_${index + 1}`, { type: 'String' }]),
    ),
    job_function: { type: 'Class!', deprecated: 'Use `job_function_response`.', ...byUuids('Class') },
    job_function_uuid: { type: 'UUID!', deprecated: useUuidField('job_function') },
    engagement_type: { type: 'Class!', deprecated: 'Use `engagement_type_response`.', ...byUuids('Class') },
    engagement_type_uuid: { type: 'UUID!', deprecated: useUuidField('engagement_type') },
    person: {
      type: '[Employee!]!',
      from: 'employee',
      deprecated: 'Use `person_response`.',
      ...byUuids('Employee'),
    },
    employee: { type: '[Employee!]!', deprecated: usePerson, ...byUuids('Employee') },
    employee_uuid: { type: 'UUID!', deprecated: useUuidField('person') },
    org_unit: {
      type: '[OrganisationUnit!]!',
      deprecated: 'Use `org_unit_response`.',
      ...byUuids('OrganisationUnit'),
    },
    org_unit_uuid: { type: 'UUID!', deprecated: useUuidField('org_unit') },
    job_function_response: {
      since: responses,
      type: 'ClassResponse!',
      from: 'job_function',
      response: 'one',
    },
    engagement_type_response: {
      since: responses,
      type: 'ClassResponse!',
      from: 'engagement_type',
      response: 'one',
    },
    is_primary: { type: 'Boolean!', own: true },
    primary: { type: 'Class', deprecated: 'Use `primary_response`.', ...byUuids('Class') },
    primary_uuid: { type: 'UUID', from: 'primary', deprecated: useUuidField('primary') },
    primary_response: { since: responses, type: 'ClassResponse', from: 'primary', response: 'one' },
    person_response: { since: responses, type: 'EmployeeResponse!', from: 'employee', response: 'one' },
    org_unit_response: {
      since: responses,
      type: 'OrganisationUnitResponse!',
      from: 'org_unit',
      response: 'one',
    },
    addresses_response: {
      since: responses,
      type: 'AddressResponsePaged!',
      response: 'paged',
      own: true,
      ...bound('EngagementBoundAddressFilter', null, pageArgs),
    },
    managers: {
      since: 23,
      type: '[Manager!]!',
      ...bound(
        'OrgUnitboundmanagerfilter = null',
        { type: 'manager', owner: 'unit' },
        'inherit: Boolean! = false, exclude_self: Boolean! = false',
      ),
      own: true,
    },
    itusers: empty(facts.itUserNoEngagement, '[ITUserResponse!]!', {
      args: `filter: EngagementBoundITUserFilter, ${pageArgs}`,
      deprecated: 'Use `itusers_response`.',
      since: 26,
    }),
    itusers_response: empty(facts.itUserNoEngagement, 'ITUserResponsePaged!', {
      args: `filter: EngagementBoundITUserFilter, ${pageArgs}`,
      since: responses,
    }),
    leave_response: empty(engagementNoLeave, 'LeaveResponse', { since: responses }),
    leave: empty(engagementNoLeave, 'Leave', {
      args: uuidsBoundArgs('Leave'),
      deprecated: 'Use `leave_response`.',
    }),
    leave_uuid: empty(engagementNoLeave, 'UUID', { deprecated: 'Use `leave { uuid }`.' }),
    type: omitted(facts.typeField),
    engagement_type_validity: omitted(facts.validityLinks, { until: 26 }),
  },
  more: {
    ...added(22, ['EngagementFilter.engagement_type']),
    // The filter member of the IT account's engagement fact, read backwards: an engagement filter's `ituser`
    // keeps the engagements named in the `tilknyttedefunktioner` of the IT accounts it picks, whenever it is
    // not null, with no `uuid_shortcircuit` (`mora/graphapi/resolvers.py`@66.1.2:1342-1361; its default is
    // null, `mora/graphapi/filters.py`@66.1.2:362-365). A 2.x IT account names no engagement, so any value
    // (`{}` and UUIDs too) keeps no engagement and null keeps every one. OS2mo added it in v26; the bound
    // filters copy it under their v26 names.
    ...at(
      facts.itUserNoEngagement,
      [
        'EngagementFilter.ituser',
        'UuidsBoundEngagementFilter.ituser',
        'EmployeeBoundEngagementFilter.ituser',
        'OrgUnitboundengagementfilter.ituser',
      ],
      { since: 26 },
    ),
  },
};
