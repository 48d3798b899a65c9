import {
  at,
  added,
  bound,
  byUuids,
  omitted,
  pageArgs,
  responses,
  useUuidField,
  type NullFact,
  type TypeLedger,
} from './entry.js';
import * as facts from './facts.js';

/** The unit filter's members that search the tree around a unit, which OS2mo added in v22. */
const unitSearch = ['names', 'child', 'subtree', 'descendant', 'ancestor', 'engagement'];

/**
 * OS2mo reads a `null` in `org_unit_update` as a clear from v22 on (its migration.md, "Version 22"; up to v21
 * `update_org_unit` strips every `None`, `mora/graphapi/org_unit.py`@66.1.2 line 40). OS2mo 2.4.0's unit edit
 * stores a level, a hierarchy and a time planning only when given a value (`if data.get(…)`,
 * `backend/mora/service/orgunit.py`@2.4.0 lines 248, 255 and 262), and no other write of it clears them.
 */
const unitNull = (
  answer: NullFact['answer'],
  what: string,
  reason: string,
  line: number,
  v1v2?: string,
): NullFact => ({
  since: 22,
  answer,
  what,
  reason,
  evidence: [
    `os2mo:backend/mora/service/orgunit.py@2.4.0:${line}`,
    'os2mo:mora/graphapi/org_unit.py@66.1.2:40',
  ],
  ...(v1v2 ? { v1v2 } : {}),
});

const cannotClear = (what: string) =>
  `the Service API's unit edit stores a unit's ${what} only when given one, so it would answer success and keep it: a null asking to clear one the unit holds is refused rather than ignored`;

/**
 * A time planning's `null` is kept, not refused: OS2mo's UI sends `time_planning: null` with every rename while
 * its time-planning field is hidden, its default (naldo `web/src/lib/env.ts`, `PUBLIC_SHOW_TIME_PLANNING`; the
 * rename form's `+page.server.ts` reads the absent field as null), so there the null means "not asked":
 * refusing it would refuse every rename of a unit that has a time planning. `docs/graphql.md` tells a client
 * that means to clear one that it cannot.
 */
const keptTimePlanning = `the Service API's unit edit stores a time planning only when given one; OS2mo's UI sends a null time planning with every rename while its time-planning field is hidden (its default), so the null is read as "not asked" and the unit keeps its time planning, as 2.4.0 and v21 do`;

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
  nulls: {
    'OrganisationUnitUpdateInput.org_unit_level': unitNull(
      'refused when held',
      'level',
      cannotClear('level'),
      248,
      'OrgUnitUpdateInput.org_unit_level',
    ),
    'OrganisationUnitUpdateInput.org_unit_hierarchy': unitNull(
      'refused when held',
      'hierarchy',
      cannotClear('hierarchy'),
      255,
    ),
    'OrganisationUnitUpdateInput.time_planning': unitNull('kept', 'time planning', keptTimePlanning, 262),
  },
};
