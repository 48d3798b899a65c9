import {
  at,
  added,
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

const itUserNoExternalId = holdsNone(
  'a 2.x IT account has no external id',
  ['contract:ItUser'],
  ['external_id', 'external_ids'],
);
const itUserNoPrimary = holdsNone(
  'a 2.x IT account has no primary class: OS2mo gave IT accounts a primary type after 2.x',
  ['contract:ItUser', 'contract:ItUserCreate'],
  ['primary', 'primaries'],
);
const itUserNoBindingType = holdsNone(
  'a 2.x IT account has no binding type: OS2mo added it with its IT-account engagements',
  ['contract:ItUser', 'contract:ItUserCreate'],
  ['binding_type', 'binding_types'],
);
const noEngagement = facts.itUserNoEngagement;
const engagementsLink = `filter: UuidsBoundEngagementFilter, ${pageArgs}`;
const addressesLink = `filter: ItuserBoundAddressFilter, ${pageArgs}`;
const roleBindingsLink = `filter: ItuserBoundRoleBindingFilter, ${pageArgs}`;

/** The ledger of OS2mo's `ITUser`: its fields, and the coordinates of its filters and inputs. */
export const itUser: TypeLedger = {
  type: 'ITUser',
  graphType: 'ITUser',
  description: 'An account in an IT system, of a person or of a unit.',
  contract: ['ItUser', 'ItUserCreate', 'ItUserEdit'],
  fields: {
    uuid: { type: 'UUID!' },
    user_key: { type: 'String!' },
    validity: { type: 'Validity!' },
    itsystem_uuid: { type: 'UUID!', deprecated: useUuidField('itsystem') },
    employee_uuid: { type: 'UUID', deprecated: useUuidField('person') },
    org_unit_uuid: { type: 'UUID', deprecated: useUuidField('org_unit') },
    itsystem: { type: 'ITSystem!', deprecated: 'Use `itsystem_response`.', ...byUuids('ITSystem') },
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
    itsystem_response: { since: responses, type: 'ITSystemResponse!', from: 'itsystem', response: 'one' },
    person_response: { since: responses, type: 'EmployeeResponse', from: 'employee', response: 'one' },
    org_unit_response: {
      since: responses,
      type: 'OrganisationUnitResponse',
      from: 'org_unit',
      response: 'one',
    },
    external_id: empty(itUserNoExternalId, 'String', { since: 22 }),
    engagement_uuid: empty(noEngagement, 'UUID', { deprecated: 'Use `engagements_responses`.' }),
    engagement_uuids: empty(noEngagement, '[UUID!]!', {
      deprecated: 'Use `engagements_responses`.',
      since: 26,
    }),
    engagement_response: empty(noEngagement, 'EngagementResponse', { since: responses }),
    engagements_responses: empty(noEngagement, 'EngagementResponsePaged!', {
      args: engagementsLink,
      since: responses,
    }),
    primary_response: empty(itUserNoPrimary, 'ClassResponse', { since: responses }),
    primary: empty(itUserNoPrimary, 'Class', {
      args: uuidsBoundArgs('Class'),
      deprecated: 'Use `primary_response`.',
    }),
    binding_type: empty(itUserNoBindingType, 'String', { since: 26 }),
    engagement: empty(noEngagement, '[Engagement!]', {
      args: engagementsLink,
      deprecated: 'Use `engagements_responses`.',
    }),
    engagements: empty(noEngagement, '[EngagementResponse!]!', {
      args: engagementsLink,
      deprecated: 'Use `engagements_responses`.',
      since: 26,
    }),
    primary_uuid: empty(itUserNoPrimary, 'UUID', { deprecated: 'Use `primary_response { uuid }`.' }),
    addresses_response: empty(facts.noItUserAddress, 'AddressResponsePaged!', {
      args: addressesLink,
      since: responses,
    }),
    addresses: empty(facts.noItUserAddress, '[Address!]!', {
      args: addressesLink,
      deprecated: 'Use `addresses_response`.',
      since: 22,
    }),
    rolebindings: empty(facts.noRoleBindings, '[RoleBinding!]!', {
      args: roleBindingsLink,
      deprecated: 'Use `rolebindings_response`.',
      since: 22,
    }),
    rolebindings_response: empty(facts.noRoleBindings, 'RoleBindingResponsePaged!', {
      args: roleBindingsLink,
      since: responses,
    }),
    type: omitted(facts.typeField),
    itsystem_validity: omitted(facts.validityLinks, { until: 26 }),
  },
  more: {
    ...at(
      facts.itUserWriteFields,
      ['ITUserCreateInput', 'ITUserUpdateInput'].flatMap((input) =>
        ['binding_type', 'engagement', 'engagements', 'external_id', 'note', 'primary'].map(
          (field) => `${input}.${field}`,
        ),
      ),
    ),
    // The filter member of the same fact: an IT account filter's `engagement` keeps no 2.x account given any
    // value (`{}` and UUIDs too: a 2.x account has no `tilknyttedefunktioner` for them to name) and every one
    // given null, as OS2mo's IT account predicate asks for the relation whenever the member is not null
    // (`mora/graphapi/resolvers.py`@66.1.2:2634-2654; its default is null,
    // `mora/graphapi/filters.py`@66.1.2:464). OS2mo added it in v22; the bound filters copy it, under their
    // names before v26 and after (`EngagementBoundITUserFilter` binds it: an engagement's IT accounts, which
    // `Engagement.itusers_response` answers empty).
    ...at(noEngagement, ['ITUserFilter.engagement', 'UuidsBoundITUserFilter.engagement'], { since: 22 }),
    ...at(noEngagement, ['EmployeesBoundITUserFilter.engagement', 'OrgUnitsboundituserfilter.engagement'], {
      since: 22,
      until: 26,
    }),
    ...at(noEngagement, ['EmployeeBoundITUserFilter.engagement', 'OrgUnitboundituserfilter.engagement'], {
      since: 26,
    }),
    ...added(22, ['ITUserFilter.external_ids']),
    ...added(26, ['ITUserFilter.binding_types']),
  },
};
