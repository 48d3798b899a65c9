import {
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

// OS2mo keeps an IT account's external id and binding type in its `udvidelse_1` and `udvidelse_2`
// (`mora/graphapi/resolvers.py`@66.1.2:2686-2727); OS2mo 2.4.0 writes an IT account with no extension
// attributes (`service/itsystem.py`, its create passes no `udvidelse_attributter`).
const itUserNoExternalId = holdsNone(
  'a 2.x IT account has no external id',
  ['contract:ItUser', 'contract:ItUserCreate', 'os2mo:backend/mora/service/itsystem.py@2.4.0:80'],
  ['external_id', 'external_ids'],
);
const itUserNoPrimary = holdsNone(
  'a 2.x IT account has no primary class: OS2mo gave IT accounts a primary type after 2.x',
  ['contract:ItUser', 'contract:ItUserCreate'],
  ['primary', 'primaries'],
);
const itUserNoBindingType = holdsNone(
  'a 2.x IT account has no binding type: OS2mo added it with its IT-account engagements',
  ['contract:ItUser', 'contract:ItUserCreate', 'os2mo:backend/mora/service/itsystem.py@2.4.0:80'],
  ['binding_type', 'binding_types'],
);
const noEngagement = facts.itUserNoEngagement;
const engagementsLink = `filter: UuidsBoundEngagementFilter, ${pageArgs}`;
const addressesFilter = 'ItuserBoundAddressFilter';
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
    // Not the fact's empty answer: OS2mo seeds the account into the address filter and ORs it with the
    // filter's `engagement` (`mora/graphapi/resolvers.py`@66.1.2:754-791), so an `engagement` given here
    // keeps the addresses of the engagements it picks, though no 2.x address names the account
    // (`facts.noItUserAddress`; `record-links.ts`).
    addresses_response: {
      since: responses,
      type: 'AddressResponsePaged!',
      response: 'paged',
      own: true,
      ...bound(addressesFilter, null, pageArgs),
    },
    addresses: {
      since: 22,
      type: '[Address!]!',
      deprecated: 'Use `addresses_response`.',
      own: true,
      ...bound(addressesFilter, null, pageArgs),
    },
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
    // The filter members of the extension facts. `external_ids` given a list (`[]` too) keeps the accounts
    // whose external id it names, so no 2.x account; given null it keeps every account: up to v29 OS2mo
    // reads null as not given, and v30's null keeps the accounts without an external id, every 2.x one
    // (`mora/graphapi/resolvers.py`@66.1.2:2682-2711; its default is not given,
    // `mora/graphapi/filters.py`@66.1.2:484-485). `binding_types` likewise, null not given (:2713-2727;
    // default null, filters.py:503-504). OS2mo added the one in v22, the other in v26; the bound filters
    // copy both, under their names before v26 and after.
    ...at(itUserNoExternalId, ['ITUserFilter.external_ids', 'UuidsBoundITUserFilter.external_ids'], {
      since: 22,
    }),
    ...at(
      itUserNoExternalId,
      ['EmployeesBoundITUserFilter.external_ids', 'OrgUnitsboundituserfilter.external_ids'],
      { since: 22, until: 26 },
    ),
    ...at(
      itUserNoExternalId,
      [
        'EmployeeBoundITUserFilter.external_ids',
        'OrgUnitboundituserfilter.external_ids',
        'EngagementBoundITUserFilter.external_ids',
      ],
      { since: 26 },
    ),
    ...at(
      itUserNoBindingType,
      [
        'ITUserFilter.binding_types',
        'UuidsBoundITUserFilter.binding_types',
        'EmployeeBoundITUserFilter.binding_types',
        'OrgUnitboundituserfilter.binding_types',
        'EngagementBoundITUserFilter.binding_types',
      ],
      { since: 26 },
    ),
  },
};
