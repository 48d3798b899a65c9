import type { DetailType } from '../../legacy/legacy-loaders.js';

/** Where a collection's objects come from in the Service API. */
export type CollectionSource =
  | { kind: 'unit' }
  | { kind: 'employee' }
  | { kind: 'detail'; type: DetailType }
  | { kind: 'class' }
  | { kind: 'facet' }
  | { kind: 'itsystem' }
  /** None: the backend never holds such an object (the ledger: `ledger/role-binding.ts`), so the collection is empty. */
  | { kind: 'none' };

/** One of OS2mo's root collections: `roots(filter: XFilter, limit, cursor): XResponsePaged!`. */
export interface CollectionView {
  /** The root fields, with our one-line deprecation reason for those OS2mo deprecates. */
  roots: Readonly<Record<string, string | null>>;
  /** The entity type (`XResponse` and `XResponsePaged` wrap it). */
  type: string;
  filter: string;
  /** The filter's fields beyond `uuids`, `user_keys`, `from_date` and `to_date`, as SDL. */
  extraFilterFields?: string;
  /** The root fields' arguments after `filter`, `limit` and `cursor`, as SDL. */
  extraRootArgs?: string;
  source: CollectionSource;
}

const byOrgUnitAndPerson = `
  employee: EmployeeFilter
  employees: [UUID!] = null @deprecated(reason: "Use \`employee\`.")
  org_unit: OrganisationUnitFilter = null
  org_units: [UUID!] = null @deprecated(reason: "Use \`org_unit\`.")`;

const byOrgUnit = `
  org_unit: OrganisationUnitFilter = null
  org_units: [UUID!] = null @deprecated(reason: "Use \`org_unit\`.")`;

/** A unit filter's members beyond its parent: search, names and the tree around the unit. */
const unitSearchFields = `
  query: String
  names: [String!]
  child: OrganisationUnitFilter
  subtree: OrganisationUnitFilter @deprecated(reason: "Use \`descendant\`.")
  descendant: OrganisationUnitFilter
  ancestor: OrganisationUnitFilter
  engagement: EngagementFilter = null
  hierarchy: ClassFilter = null
  hierarchies: [UUID!] = null @deprecated(reason: "Use \`hierarchy\`.")`;

/** A class's owner (OS2mo's `ClassOwnerFilter`): a unit filter, and whether classes without an owner count. */
export const classOwnerFilterTypeDefs = `
"""Which owner units a class may have: units matching every field given, or none with \`include_none\`."""
input ClassOwnerFilter {
  uuids: [UUID!] = null
  user_keys: [String!] = null
  from_date: DateTime
  to_date: DateTime${unitSearchFields}
  parent: OrganisationUnitFilter
  parents: [UUID!] @deprecated(reason: "Use \`parent\`.")
  include_none: Boolean! = false
}
`;

export const v30Collections: readonly CollectionView[] = [
  {
    roots: { org_units: null },
    type: 'OrganisationUnit',
    filter: 'OrganisationUnitFilter',
    extraFilterFields: `${unitSearchFields}
  parent: OrganisationUnitFilter
  parents: [UUID!] @deprecated(reason: "Use \`parent\`.")`,
    source: { kind: 'unit' },
  },
  {
    roots: { employees: 'Use `persons`.', persons: null },
    type: 'Employee',
    filter: 'EmployeeFilter',
    extraFilterFields: `
  query: String
  cpr_numbers: [CPR!] = null`,
    source: { kind: 'employee' },
  },
  {
    roots: { engagements: null },
    type: 'Engagement',
    filter: 'EngagementFilter',
    extraFilterFields: `${byOrgUnitAndPerson}
  job_function: ClassFilter = null
  engagement_type: ClassFilter = null
  ituser: ITUserFilter = null`,
    source: { kind: 'detail', type: 'engagement' },
  },
  {
    roots: { managers: null },
    type: 'Manager',
    filter: 'ManagerFilter',
    extraFilterFields: `${byOrgUnitAndPerson}
  responsibility: ClassFilter = null
  manager_type: ClassFilter = null
  exclude: EmployeeFilter = null
  engagement: EngagementFilter = null`,
    extraRootArgs: 'inherit: Boolean! = false',
    source: { kind: 'detail', type: 'manager' },
  },
  {
    roots: { classes: null },
    type: 'Class',
    filter: 'ClassFilter',
    extraFilterFields: `
  facet: FacetFilter = null
  facets: [UUID!] = null @deprecated(reason: "Use \`facet\`.")
  facet_user_keys: [String!] = null @deprecated(reason: "Use \`facet\`.")
  name: [String!] = null
  scope: [String!] = null
  parent: ClassFilter = null
  parents: [UUID!] = null @deprecated(reason: "Use \`parent\`.")
  parent_user_keys: [String!] = null @deprecated(reason: "Use \`parent\`.")
  it_system: ITSystemFilter = null
  owner: ClassOwnerFilter = null`,
    source: { kind: 'class' },
  },
  {
    roots: { owners: null },
    type: 'Owner',
    filter: 'OwnerFilter',
    extraFilterFields: `${byOrgUnitAndPerson}
  owner: EmployeeFilter = null`,
    source: { kind: 'detail', type: 'owner' },
  },
  {
    roots: { addresses: null },
    type: 'Address',
    filter: 'AddressFilter',
    extraFilterFields: `${byOrgUnitAndPerson}
  address_type: ClassFilter = null
  address_types: [UUID!] = null @deprecated(reason: "Use \`address_type\`.")
  address_type_user_keys: [String!] = null @deprecated(reason: "Use \`address_type\`.")
  engagement: EngagementFilter = null
  engagements: [UUID!] = null @deprecated(reason: "Use \`engagement\`.")
  ituser: ITUserFilter = null
  visibility: ClassFilter = null`,
    source: { kind: 'detail', type: 'address' },
  },
  {
    roots: { associations: null },
    type: 'Association',
    filter: 'AssociationFilter',
    extraFilterFields: `${byOrgUnitAndPerson}
  association_type: ClassFilter = null
  association_types: [UUID!] = null @deprecated(reason: "Use \`association_type\`.")
  association_type_user_keys: [String!] = null @deprecated(reason: "Use \`association_type\`.")
  it_association: Boolean = null`,
    source: { kind: 'detail', type: 'association' },
  },
  {
    roots: { itusers: null },
    type: 'ITUser',
    filter: 'ITUserFilter',
    extraFilterFields: `${byOrgUnitAndPerson}
  itsystem: ITSystemFilter = null
  itsystem_uuids: [UUID!] = null @deprecated(reason: "Use \`itsystem\`.")
  engagement: EngagementFilter = null
  external_ids: [String!]
  binding_types: [String!] = null`,
    source: { kind: 'detail', type: 'it' },
  },
  {
    roots: { kles: null },
    type: 'KLE',
    filter: 'KLEFilter',
    extraFilterFields: byOrgUnit,
    source: { kind: 'detail', type: 'kle' },
  },
  {
    roots: { leaves: null },
    type: 'Leave',
    filter: 'LeaveFilter',
    extraFilterFields: byOrgUnitAndPerson,
    source: { kind: 'detail', type: 'leave' },
  },
  {
    roots: { related_units: null },
    type: 'RelatedUnit',
    filter: 'RelatedUnitFilter',
    extraFilterFields: byOrgUnit,
    source: { kind: 'detail', type: 'related_unit' },
  },
  {
    roots: { rolebindings: null },
    type: 'RoleBinding',
    filter: 'RoleBindingFilter',
    extraFilterFields: `${byOrgUnit}
  ituser: ITUserFilter = null
  role: ClassFilter = null`,
    source: { kind: 'none' },
  },
  {
    roots: { facets: null },
    type: 'Facet',
    filter: 'FacetFilter',
    extraFilterFields: `
  parent: FacetFilter = null
  parents: [UUID!] = null @deprecated(reason: "Use \`parent\`.")
  parent_user_keys: [String!] = null @deprecated(reason: "Use \`parent\`.")`,
    source: { kind: 'facet' },
  },
  { roots: { itsystems: null }, type: 'ITSystem', filter: 'ITSystemFilter', source: { kind: 'itsystem' } },
];

/** A collection filter's members, one SDL line each: the common four, then the collection's own. */
export function filterMembers(collection: CollectionView): string[] {
  const common = [
    'uuids: [UUID!] = null',
    'user_keys: [String!] = null',
    'from_date: DateTime',
    'to_date: DateTime',
  ];
  const own = (collection.extraFilterFields ?? '').split('\n').map((line) => line.trim());
  return [...common, ...own].filter((line) => line.length > 0).map((line) => `  ${line}`);
}

const deprecation = (reason: string | null) =>
  reason === null ? '' : ` @deprecated(reason: ${JSON.stringify(reason)})`;

/** The response wrappers, pages, filters and root fields of the collections, in OS2mo's shape. */
export function collectionTypeDefs(collections: readonly CollectionView[]): string {
  const perCollection = collections.map(
    (collection) => `
"""One object through time: \`current\` as of a moment, \`validities\` over a window."""
type ${collection.type}Response {
  uuid: UUID!
  current(at: DateTime): ${collection.type}
  objects(start: DateTime, end: DateTime): [${collection.type}!]! @deprecated(reason: "Use \`validities\`.")
  validities(start: DateTime, end: DateTime): [${collection.type}!]!
}

type ${collection.type}ResponsePaged {
  objects: [${collection.type}Response!]!
  page_info: PageInfo!
}

"""Which objects to list: those matching every field given, valid somewhere in [from_date, to_date)."""
input ${collection.filter} {
${filterMembers(collection).join('\n')}
}
`,
  );
  const roots = collections.flatMap((collection) =>
    Object.entries(collection.roots).map(
      ([root, reason]) =>
        `  ${root}(filter: ${collection.filter} = null, limit: int = null, cursor: Cursor = null${collection.extraRootArgs ? `, ${collection.extraRootArgs}` : ''}): ${collection.type}ResponsePaged!${deprecation(reason)}`,
    ),
  );
  return `
scalar DateTime

"""A page size: how many objects at most; null or absent for all of them."""
scalar int

"""Where the next page starts: the previous page's \`next_cursor\`."""
scalar Cursor

type PageInfo {
  next_cursor: Cursor
}
${perCollection.join('')}
type Query {
${roots.join('\n')}
}
`;
}
