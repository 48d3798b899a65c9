import {
  at,
  added,
  bound,
  byUuids,
  omitted,
  pageArgs,
  responses,
  useUuidField,
  type TypeLedger,
} from './entry.js';
import * as facts from './facts.js';

/** The unit filter's members that search the tree around a unit, which OS2mo added in v22. */
const unitSearch = ['names', 'child', 'subtree', 'descendant', 'ancestor', 'engagement'];

/** The ledger of OS2mo's `OrganisationUnit`: its fields, and the coordinates of its filters and inputs. */
export const organisationUnit: TypeLedger = {
  type: 'OrganisationUnit',
  graphType: 'OrgUnit',
  description: 'An organisation unit.',
  contract: [
    'OrgUnit',
    'OrgUnitRef',
    'OrgUnitListItem',
    'OrgUnitSearchItem',
    'OrgUnitTreeNode',
    'OrgUnitCreate',
    'OrgUnitEdit',
  ],
  fields: {
    uuid: { type: 'UUID!' },
    user_key: { type: 'String!' },
    name: { type: 'String!' },
    validity: { type: 'Validity!' },
    parent: {
      type: 'OrganisationUnit',
      deprecated: 'Use `parent_response`.',
      ...byUuids('OrganisationUnit'),
    },
    parent_uuid: { type: 'UUID', from: 'parent', deprecated: useUuidField('parent') },
    ancestors: { type: '[OrganisationUnit!]!' },
    root: {
      since: 26,
      type: '[OrganisationUnit!]',
      deprecated: 'Use `root_response`.',
      own: true,
      ...bound('DescendantParentBoundOrganisationUnitFilter', null, pageArgs),
    },
    root_response: { since: responses, type: 'OrganisationUnitResponse', response: 'one', own: true },
    children: {
      type: '[OrganisationUnit!]!',
      deprecated: 'Use `children_response`.',
      ...bound('ParentBoundOrganisationUnitFilter', null, pageArgs),
    },
    child_count: { type: 'Int!', args: 'filter: ParentBoundOrganisationUnitFilter', own: true },
    has_children: {
      since: 22,
      type: 'Boolean!',
      args: 'filter: ParentBoundOrganisationUnitFilter',
      own: true,
    },
    unit_type: {
      type: 'Class',
      from: 'org_unit_type',
      deprecated: 'Use `unit_type_response`.',
      ...byUuids('Class'),
    },
    unit_type_uuid: { type: 'UUID', from: 'org_unit_type', deprecated: useUuidField('unit_type') },
    time_planning: { type: 'Class', deprecated: 'Use `time_planning_response`.', ...byUuids('Class') },
    time_planning_uuid: { type: 'UUID', from: 'time_planning', deprecated: useUuidField('time_planning') },
    org_unit_level: { type: 'Class', deprecated: 'Use `unit_level_response`.', ...byUuids('Class') },
    org_unit_level_uuid: {
      type: 'UUID',
      from: 'org_unit_level',
      deprecated: useUuidField('org_unit_level'),
    },
    // No unit read of 2.4.0 gives a unit's hierarchy; its filtered children reads do (`unit-hierarchy.ts`).
    unit_hierarchy_response: { since: responses, type: 'ClassResponse', response: 'one', own: true },
    org_unit_hierarchy_model: {
      type: 'Class',
      deprecated: 'Use `unit_hierarchy_response`.',
      own: true,
      ...byUuids('Class'),
    },
    org_unit_hierarchy: { type: 'UUID', deprecated: useUuidField('org_unit_hierarchy_model'), own: true },
    managers: {
      type: '[Manager!]!',
      deprecated: 'Use `managers_response`.',
      ...bound(
        'OrgUnitboundmanagerfilter',
        { type: 'manager', owner: 'unit' },
        `${pageArgs}, inherit: Boolean! = false`,
      ),
    },
    engagements: {
      type: '[Engagement!]!',
      deprecated: 'Use `engagements_response`.',
      ...bound('OrgUnitboundengagementfilter', { type: 'engagement', owner: 'unit' }, pageArgs),
    },
    owners: {
      type: '[Owner!]!',
      ...bound(
        'OrgUnitboundownerfilter = null',
        { type: 'owner', owner: 'unit' },
        'inherit: Boolean! = false',
      ),
    },
    addresses: {
      type: '[Address!]!',
      deprecated: 'Use `addresses_response`.',
      ...bound('OrgUnitboundaddressfilter', { type: 'address', owner: 'unit' }, pageArgs),
    },
    associations: {
      type: '[Association!]!',
      deprecated: 'Use `associations_response`.',
      ...bound('OrgUnitboundassociationfilter', { type: 'association', owner: 'unit' }, pageArgs),
    },
    itusers: {
      type: '[ITUser!]!',
      deprecated: 'Use `itusers_response`.',
      ...bound('OrgUnitboundituserfilter', { type: 'it', owner: 'unit' }, pageArgs),
    },
    kles: {
      type: '[KLE!]!',
      deprecated: 'Use `kles_response`.',
      ...bound('OrgUnitboundklefilter', { type: 'kle', owner: 'unit' }, pageArgs),
    },
    leaves: {
      type: '[Leave!]!',
      deprecated: 'Use `leaves_response`.',
      ...bound('OrgUnitboundleavefilter', { type: 'leave', owner: 'unit' }, pageArgs),
    },
    related_units: {
      type: '[RelatedUnit!]!',
      deprecated: 'Use `related_units_response`.',
      ...bound('OrgUnitboundrelatedunitfilter', { type: 'related_unit', owner: 'unit' }, pageArgs),
    },
    parent_response: { since: responses, type: 'OrganisationUnitResponse', from: 'parent', response: 'one' },
    children_response: {
      since: responses,
      type: 'OrganisationUnitResponsePaged!',
      from: 'children',
      response: 'paged',
      ...bound('ParentBoundOrganisationUnitFilter', null, pageArgs),
    },
    unit_type_response: { since: responses, type: 'ClassResponse', from: 'org_unit_type', response: 'one' },
    unit_level_response: { since: responses, type: 'ClassResponse', from: 'org_unit_level', response: 'one' },
    time_planning_response: {
      since: responses,
      type: 'ClassResponse',
      from: 'time_planning',
      response: 'one',
    },
    managers_response: {
      since: responses,
      type: 'ManagerResponsePaged!',
      from: 'managers',
      response: 'paged',
      ...bound(
        'OrgUnitboundmanagerfilter',
        { type: 'manager', owner: 'unit' },
        `${pageArgs}, inherit: Boolean! = false`,
      ),
    },
    engagements_response: {
      since: responses,
      type: 'EngagementResponsePaged!',
      from: 'engagements',
      response: 'paged',
      ...bound('OrgUnitboundengagementfilter', { type: 'engagement', owner: 'unit' }, pageArgs),
    },
    addresses_response: {
      since: responses,
      type: 'AddressResponsePaged!',
      from: 'addresses',
      response: 'paged',
      ...bound('OrgUnitboundaddressfilter', { type: 'address', owner: 'unit' }, pageArgs),
    },
    associations_response: {
      since: responses,
      type: 'AssociationResponsePaged!',
      from: 'associations',
      response: 'paged',
      ...bound('OrgUnitboundassociationfilter', { type: 'association', owner: 'unit' }, pageArgs),
    },
    itusers_response: {
      since: responses,
      type: 'ITUserResponsePaged!',
      from: 'itusers',
      response: 'paged',
      ...bound('OrgUnitboundituserfilter', { type: 'it', owner: 'unit' }, pageArgs),
    },
    kles_response: {
      since: responses,
      type: 'KLEResponsePaged!',
      from: 'kles',
      response: 'paged',
      ...bound('OrgUnitboundklefilter', { type: 'kle', owner: 'unit' }, pageArgs),
    },
    leaves_response: {
      since: responses,
      type: 'LeaveResponsePaged!',
      from: 'leaves',
      response: 'paged',
      ...bound('OrgUnitboundleavefilter', { type: 'leave', owner: 'unit' }, pageArgs),
    },
    related_units_response: {
      since: responses,
      type: 'RelatedUnitResponsePaged!',
      from: 'related_units',
      response: 'paged',
      ...bound('OrgUnitboundrelatedunitfilter', { type: 'related_unit', owner: 'unit' }, pageArgs),
    },
    type: omitted(facts.typeField),
    roles: omitted(facts.roles, { until: 22 }),
    addresses_validity: omitted(facts.validityLinks, { until: 26 }),
    ancestors_validity: omitted(facts.validityLinks, { until: 26 }),
    associations_validity: omitted(facts.validityLinks, { until: 26 }),
    itusers_validity: omitted(facts.validityLinks, { until: 26 }),
  },
  more: {
    ...added(
      22,
      unitSearch.map((member) => `OrganisationUnitFilter.${member}`),
    ),
    // The parent-bound filter under its name up to v25 (`older-versions.ts` renames it).
    ...at(
      undefined,
      unitSearch.map((member) => `ParentsBoundOrganisationUnitFilter.${member}`),
      { since: 22, until: 26 },
    ),
  },
};
