import type { DetailType } from '../../legacy/legacy-paths.js';
import type { DetailOwner } from '../detail-listings.js';

/**
 * Where OS2mo's GraphQL (v30, as the gateway serves it) answers a `/service` read: the query in OS2mo's
 * shape (`objects { current { … } }`, relations filtered by their owner), or why it has no place for it.
 * The coverage report proves each read on v2; this names the newest version a client can move to.
 */
export type V30Answer = { query: string } | { reason: string };

const unitFields = 'uuid name user_key validity { from to }';
const facetClasses =
  'classes(filter: { facet: { user_keys: [$facet] } }) { objects { current { uuid name user_key } } }';
const versions = (root: string, fields: string) =>
  `${root}(filter: { uuids: [$uuid] }) { objects { validities(start: $start, end: $end) { ${fields} validity { from to } } } }`;
const search =
  "OS2mo's v30 filters units and people by uuid and user key, never by free text: v2's `query` filter is the newest that searches them.";
const detailTypes =
  "OS2mo's v30 has no `detail_types` field: v2 is the newest that says which listings hold records.";

/** The v30 answer of each read but the detail listings, by operation. */
export const v30Answers: Record<string, V30Answer> = {
  listOrgUnits: { query: `org_units { objects { current { ${unitFields} } } }` },
  listEmployees: {
    query: 'persons { objects { current { uuid name given_name surname nickname user_key } } }',
  },
  listItSystems: { query: 'itsystems { objects { current { uuid name user_key system_type } } }' },
  listFacets: { query: 'facets { objects { current { uuid user_key } } }' },
  getFacet: { query: facetClasses },
  listFacetClasses: { query: facetClasses },
  getClass: { query: 'classes(filter: { uuids: [$uuid] }) { objects { current { uuid name user_key } } }' },
  listOrgUnitChildren: {
    query: `org_units(filter: { uuids: [$uuid] }) { objects { current { children { ${unitFields} } } } }`,
  },
  getOrgUnit: {
    query: `org_units(filter: { uuids: [$uuid] }) { objects { current { ${unitFields} unit_type { uuid } org_unit_level { uuid } parent { uuid } } } }`,
  },
  getEmployee: {
    query:
      'persons(filter: { uuids: [$uuid] }) { objects { current { uuid name given_name surname user_key } } }',
  },
  getOrgUnitTree: {
    query: `org_units(filter: { uuids: $uuids }) { objects { current { ${unitFields} child_count ancestors { ${unitFields} } } } }`,
  },
  getOrgUnitAncestorTree: {
    query: `org_units(filter: { uuids: $uuids }) { objects { current { ${unitFields} child_count children { ${unitFields} child_count } ancestors { ${unitFields} child_count children { ${unitFields} child_count } } } } }`,
  },
  listFacetChildren: {
    reason:
      "OS2mo's v30 Facet has no `top_level_classes`: v2 is the newest that lists a facet's top classes.",
  },
  listClassChildren: {
    reason: "OS2mo's v30 Class has no `children`: v2 is the newest that lists a class's children.",
  },
  // past/present/future as a window: `end: now` for the past, `start: now` for the future.
  listOrgUnitVersions: { query: versions('org_units', 'name user_key') },
  listEmployeeVersions: {
    reason:
      "OS2mo's v30 Employee carries no validity, so its versions cannot be told apart: v2's `validities(validity:)` is the newest that lists them.",
  },
  listOrganisations: { query: 'org { uuid name user_key }' },
  getOrganisation: {
    reason:
      "OS2mo's v30 Organisation has no counts (unit_count, person_count, …): v2 is the newest that has them.",
  },
  listRootOrgUnits: {
    reason:
      "OS2mo's v30 unit filter has no `parent`: v2's `parent: null` is the newest way to list the top units.",
  },
  getOrgUnitDetailTypes: { reason: detailTypes },
  getEmployeeDetailTypes: { reason: detailTypes },
  autocompleteOrgUnits: { reason: search },
  autocompleteEmployees: { reason: search },
  lookupCpr: {
    reason: "OS2mo's v30 has no `cpr_lookup`: v2 is the newest that looks a CPR number up in the registry.",
  },
};

/** The v30 collections that hold each detail type, filtered by the unit or person that owns them. */
const v30DetailRoots: Partial<Record<DetailType, string>> = {
  engagement: 'engagements',
  manager: 'managers',
  owner: 'owners',
  it: 'itusers',
  address: 'addresses',
  association: 'associations',
  leave: 'leaves',
  kle: 'kles',
  related_unit: 'related_units',
};

/** Detail types v30 files under units only. */
const unitOnly = new Set<DetailType>(['kle', 'related_unit']);

/** The v30 answer of a detail listing: its collection filtered by owner, or why v30 has none. */
export function v30DetailAnswer(detail: { owner: DetailOwner; type: DetailType }): V30Answer {
  const root = v30DetailRoots[detail.type];
  if (root === undefined) {
    return {
      reason: `OS2mo's v30 as served has no collection of ${detail.type} records: v2 is the newest that lists them.`,
    };
  }
  const owner = detail.owner === 'org_units' ? 'org_unit' : 'employee';
  if (owner === 'employee' && unitOnly.has(detail.type)) {
    return {
      reason: `OS2mo's v30 ${root} belong to units only (their filter has no \`employee\`): v2 is the newest that lists a person's.`,
    };
  }
  return {
    query: `${root}(filter: { ${owner}: { uuids: [$uuid] } }) { objects { current { uuid validity { from to } } } }`,
  };
}
