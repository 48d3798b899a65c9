/**
 * v1: the original shape. Every collection returns a list with one element per matching entity,
 * `{uuid, objects}`, where `objects` are the entity's validities in the time window (default: the present).
 */
export const v1RootTypeDefs = /* GraphQL */ `
  """
  Selects records; every member narrows the selection. \`from_date\`/\`to_date\` set the time window (default: today).
  """
  input OrgUnitFilter {
    uuids: [UUID!]
    user_keys: [String!]
    from_date: Date
    to_date: Date
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
    from_date: Date
    to_date: Date
    """
    Free text: people whose name, user key or configured attributes match every word (\`/service/e/autocomplete/\`); an empty text matches none.
    """
    query: String
  }

  """
  Detail records (engagements, managers, owners, addresses, …) are found through their units or employees; without either, every unit is walked (every employee, for leaves).
  """
  input DetailFilter {
    uuids: [UUID!]
    user_keys: [String!]
    org_units: [UUID!]
    employees: [UUID!]
    from_date: Date
    to_date: Date
  }

  input ClassFilter {
    uuids: [UUID!]
    user_keys: [String!]
    facets: [String!]
    from_date: Date
    to_date: Date
  }

  input FacetFilter {
    uuids: [UUID!]
    user_keys: [String!]
    from_date: Date
    to_date: Date
  }

  input ITSystemFilter {
    uuids: [UUID!]
    user_keys: [String!]
    from_date: Date
    to_date: Date
  }

  type OrgUnitResponse {
    uuid: UUID!
    objects: [OrgUnit!]!
  }

  type EmployeeResponse {
    uuid: UUID!
    objects: [Employee!]!
  }

  type EngagementResponse {
    uuid: UUID!
    objects: [Engagement!]!
  }

  type ManagerResponse {
    uuid: UUID!
    objects: [Manager!]!
  }

  type OwnerResponse {
    uuid: UUID!
    objects: [Owner!]!
  }

  type AddressResponse {
    uuid: UUID!
    objects: [Address!]!
  }

  type AssociationResponse {
    uuid: UUID!
    objects: [Association!]!
  }

  type RoleResponse {
    uuid: UUID!
    objects: [Role!]!
  }

  type LeaveResponse {
    uuid: UUID!
    objects: [Leave!]!
  }

  type ITUserResponse {
    uuid: UUID!
    objects: [ITUser!]!
  }

  type KLEResponse {
    uuid: UUID!
    objects: [KLE!]!
  }

  type RelatedUnitResponse {
    uuid: UUID!
    objects: [RelatedUnit!]!
  }

  type EngagementAssociationResponse {
    uuid: UUID!
    objects: [EngagementAssociation!]!
  }

  type ClassResponse {
    uuid: UUID!
    objects: [Class!]!
  }

  type FacetResponse {
    uuid: UUID!
    objects: [Facet!]!
  }

  type ITSystemResponse {
    uuid: UUID!
    objects: [ITSystem!]!
  }

  type Query {
    org_units(filter: OrgUnitFilter): [OrgUnitResponse!]!
    employees(filter: EmployeeFilter): [EmployeeResponse!]!
    engagements(filter: DetailFilter): [EngagementResponse!]!
    managers(filter: DetailFilter): [ManagerResponse!]!
    owners(filter: DetailFilter): [OwnerResponse!]!
    addresses(filter: DetailFilter): [AddressResponse!]!
    associations(filter: DetailFilter): [AssociationResponse!]!
    roles(filter: DetailFilter): [RoleResponse!]!
    leaves(filter: DetailFilter): [LeaveResponse!]!
    itusers(filter: DetailFilter): [ITUserResponse!]!
    kles(filter: DetailFilter): [KLEResponse!]!
    related_units(filter: DetailFilter): [RelatedUnitResponse!]!
    engagement_associations(filter: DetailFilter): [EngagementAssociationResponse!]!
    itsystems(filter: ITSystemFilter): [ITSystemResponse!]!
    classes(filter: ClassFilter): [ClassResponse!]!
    facets(filter: FacetFilter): [FacetResponse!]!
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
