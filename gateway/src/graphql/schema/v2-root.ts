/** v2: every collection is paginated (`limit`, `cursor`) and shows its objects as of `filter.at`. */
export const v2RootTypeDefs = /* GraphQL */ `
  """
  Selects records; every member narrows the selection. \`at\` (default today) is the date the objects are shown as of.
  """
  input OrgUnitFilter {
    uuids: [UUID!]
    user_keys: [String!]
    at: Date
    """
    Free text: units whose name, user key or configured attributes match every word (\`/service/ou/autocomplete/\`); an empty text matches none.
    """
    query: String
    """
    \`null\`: the top-level units; \`{ uuids }\`: the units directly below those.
    """
    parent: ParentFilter
  }

  """
  The units whose children are selected. Its own type, not \`OrgUnitFilter\`: an input type that contains itself cannot be compiled for execution (graphql-jit), and only \`uuids\` is honoured here.
  """
  input ParentFilter {
    uuids: [UUID!]!
  }

  input EmployeeFilter {
    uuids: [UUID!]
    user_keys: [String!]
    at: Date
    """
    Free text: people whose name, user key or configured attributes match every word (\`/service/e/autocomplete/\`); an empty text matches none.
    """
    query: String
  }

  """
  Detail records (engagements, managers, owners, addresses, …) are found through their units or employees; without either, every unit is walked page by page (every employee, for leaves).
  """
  input DetailFilter {
    uuids: [UUID!]
    user_keys: [String!]
    org_units: [UUID!]
    employees: [UUID!]
    at: Date
  }

  input ClassFilter {
    uuids: [UUID!]
    user_keys: [String!]
    """
    Facet user keys, such as \`manager_type\`.
    """
    facets: [String!]
  }

  input FacetFilter {
    uuids: [UUID!]
    user_keys: [String!]
  }

  input ITSystemFilter {
    uuids: [UUID!]
    user_keys: [String!]
  }

  type PageInfo {
    """
    Pass as \`cursor\` to get the next page; null on the last page.
    """
    next_cursor: Cursor
  }

  type OrgUnitPage {
    objects: [OrgUnit!]!
    page_info: PageInfo!
  }

  type EmployeePage {
    objects: [Employee!]!
    page_info: PageInfo!
  }

  type EngagementPage {
    objects: [Engagement!]!
    page_info: PageInfo!
  }

  type ManagerPage {
    objects: [Manager!]!
    page_info: PageInfo!
  }

  type OwnerPage {
    objects: [Owner!]!
    page_info: PageInfo!
  }

  type AddressPage {
    objects: [Address!]!
    page_info: PageInfo!
  }

  type AssociationPage {
    objects: [Association!]!
    page_info: PageInfo!
  }

  type RolePage {
    objects: [Role!]!
    page_info: PageInfo!
  }

  type LeavePage {
    objects: [Leave!]!
    page_info: PageInfo!
  }

  type ITUserPage {
    objects: [ITUser!]!
    page_info: PageInfo!
  }

  type KLEPage {
    objects: [KLE!]!
    page_info: PageInfo!
  }

  type RelatedUnitPage {
    objects: [RelatedUnit!]!
    page_info: PageInfo!
  }

  type EngagementAssociationPage {
    objects: [EngagementAssociation!]!
    page_info: PageInfo!
  }

  type ClassPage {
    objects: [Class!]!
    page_info: PageInfo!
  }

  type FacetPage {
    objects: [Facet!]!
    page_info: PageInfo!
  }

  type ITSystemPage {
    objects: [ITSystem!]!
    page_info: PageInfo!
  }

  type Query {
    """
    Organisation units. \`limit\` is 1–1000 (default 100).
    """
    org_units(filter: OrgUnitFilter, limit: Int = 100, cursor: Cursor): OrgUnitPage!
    employees(filter: EmployeeFilter, limit: Int = 100, cursor: Cursor): EmployeePage!
    engagements(filter: DetailFilter, limit: Int = 100, cursor: Cursor): EngagementPage!
    managers(filter: DetailFilter, limit: Int = 100, cursor: Cursor): ManagerPage!
    owners(filter: DetailFilter, limit: Int = 100, cursor: Cursor): OwnerPage!
    addresses(filter: DetailFilter, limit: Int = 100, cursor: Cursor): AddressPage!
    associations(filter: DetailFilter, limit: Int = 100, cursor: Cursor): AssociationPage!
    roles(filter: DetailFilter, limit: Int = 100, cursor: Cursor): RolePage!
    leaves(filter: DetailFilter, limit: Int = 100, cursor: Cursor): LeavePage!
    itusers(filter: DetailFilter, limit: Int = 100, cursor: Cursor): ITUserPage!
    kles(filter: DetailFilter, limit: Int = 100, cursor: Cursor): KLEPage!
    related_units(filter: DetailFilter, limit: Int = 100, cursor: Cursor): RelatedUnitPage!
    engagement_associations(
      filter: DetailFilter
      limit: Int = 100
      cursor: Cursor
    ): EngagementAssociationPage!
    itsystems(filter: ITSystemFilter, limit: Int = 100, cursor: Cursor): ITSystemPage!
    classes(filter: ClassFilter, limit: Int = 100, cursor: Cursor): ClassPage!
    facets(filter: FacetFilter, limit: Int = 100, cursor: Cursor): FacetPage!
    """
    The organisation (there is one), with its counts as of today.
    """
    org: Organisation!
    """
    The name the CPR register gives a CPR number (ten digits); null when the backend has no CPR register. The number itself is not echoed.
    """
    cpr_lookup(cpr_number: String!): CprLookup
  }
`;
