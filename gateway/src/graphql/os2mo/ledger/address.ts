import {
  at,
  added,
  byUuids,
  empty,
  notServed,
  omitted,
  responses,
  usePerson,
  useUuidField,
  uuidsBoundArgs,
  type TypeLedger,
} from './entry.js';
import * as facts from './facts.js';

const addressWriteNoItUser = notServed(
  "the Service API's address record belongs to a person, a unit or an engagement, not an IT account",
  ['contract:AddressCreate'],
);

/** The ledger of OS2mo's `Address`: its fields, and the coordinates of its filters and inputs. */
export const address: TypeLedger = {
  type: 'Address',
  graphType: 'Address',
  description: 'An address of a person, a unit or an engagement.',
  contract: ['Address', 'AddressCreate'],
  fields: {
    uuid: { type: 'UUID!' },
    user_key: { type: 'String!' },
    validity: { type: 'Validity!' },
    name: { type: 'String' },
    href: { type: 'String' },
    value: { type: 'String!' },
    value2: { type: 'String' },
    resolve: { type: 'ResolvedAddress!', own: true },
    address_type_uuid: { type: 'UUID!', from: 'address_type', deprecated: useUuidField('address_type') },
    visibility_uuid: { type: 'UUID', from: 'visibility', deprecated: useUuidField('visibility') },
    employee_uuid: { type: 'UUID', deprecated: useUuidField('person') },
    org_unit_uuid: { type: 'UUID', deprecated: useUuidField('org_unit') },
    engagement_uuid: { type: 'UUID', deprecated: useUuidField('engagement_response') },
    address_type: { type: 'Class!', deprecated: 'Use `address_type_response`.', ...byUuids('Class') },
    visibility: { type: 'Class', deprecated: 'Use `visibility_response`.', ...byUuids('Class') },
    person: {
      type: '[Employee!]',
      from: 'employee',
      deprecated: 'Use `person_response`.',
      ...byUuids('Employee'),
    },
    employee: { type: '[Employee!]', deprecated: usePerson, ...byUuids('Employee') },
    org_unit: {
      type: '[OrganisationUnit!]',
      deprecated: 'Use `org_unit_response`.',
      ...byUuids('OrganisationUnit'),
    },
    address_type_response: {
      since: responses,
      type: 'ClassResponse!',
      from: 'address_type',
      response: 'one',
    },
    visibility_response: { since: responses, type: 'ClassResponse', from: 'visibility', response: 'one' },
    person_response: { since: responses, type: 'EmployeeResponse', from: 'employee', response: 'one' },
    org_unit_response: {
      since: responses,
      type: 'OrganisationUnitResponse',
      from: 'org_unit',
      response: 'one',
    },
    engagement_response: {
      since: responses,
      type: 'EngagementResponse',
      from: 'engagement_uuid',
      response: 'one',
    },
    engagement: {
      type: '[Engagement!]',
      deprecated: 'Use `engagement_response`.',
      own: true,
      ...byUuids('Engagement'),
    },
    ituser_response: empty(facts.noItUserAddress, 'ITUserResponse', { since: responses }),
    ituser: empty(facts.noItUserAddress, '[ITUser!]!', {
      args: uuidsBoundArgs('ITUser'),
      deprecated: 'Use `ituser_response`.',
      since: 22,
    }),
    ituser_uuid: empty(facts.noItUserAddress, 'UUID', {
      deprecated: 'Use `ituser_response { uuid }`.',
      since: 26,
    }),
    type: omitted(facts.typeField),
    address_type_validity: omitted(facts.validityLinks, { until: 26 }),
  },
  more: {
    ...at(addressWriteNoItUser, ['AddressCreateInput.ituser', 'AddressUpdateInput.ituser']),
    // Served, not the fact's empty answer (as `ITUser.addresses_response` is): OS2mo's address predicate reads
    // `engagement` and `ituser` as one test on the address's `tilknyttedefunktioner`, the two ORed, whenever
    // either is not null (`mora/graphapi/resolvers.py`@66.1.2:754-791; both default to null,
    // `mora/graphapi/filters.py`@66.1.2:131, 145), and a 2.x address holds its engagement there. So `ituser`'s
    // UUIDs, which OS2mo takes as they are (`uuid_shortcircuit`, :111-122), keep the addresses whose engagement
    // they name; any other value keeps no address by itself, as no 2.x address names an IT account
    // (`facts.noItUserAddress`), and narrows no `engagement` given beside it (an engagement's addresses, which
    // OS2mo seeds with the engagement, keep them all). Null keeps every address (`detail-filters.ts`).
    ...added(22, ['AddressFilter.ituser']),
    ...at(undefined, ['EmployeesBoundAddressFilter.ituser', 'OrgUnitsboundaddressfilter.ituser'], {
      since: 22,
      until: 26,
    }),
    ...added(26, [
      'EmployeeBoundAddressFilter.ituser',
      'OrgUnitboundaddressfilter.ituser',
      'EngagementBoundAddressFilter.ituser',
    ]),
    ...added(22, ['AddressFilter.visibility']),
  },
};
