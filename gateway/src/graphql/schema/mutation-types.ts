/** Mutations are the same in every version: each writes through one legacy `/service` write endpoint. */
export const mutationTypeDefs = /* GraphQL */ `
  """
  When a change takes effect: from \`from\`, up to and including \`to\` (\`null\`: until further notice).
  """
  input ValidityInput {
    from: Date!
    to: Date
  }

  input OrgUnitCreateInput {
    """
    Leave out to let the service choose one.
    """
    uuid: UUID
    name: String!
    """
    Defaults to the name.
    """
    user_key: String
    """
    Leave out for a top-level unit.
    """
    parent: UUID
    org_unit_type: UUID!
    org_unit_level: UUID
    validity: ValidityInput!
  }

  """
  Changes a unit from \`validity.from\`: fields left out keep their value; giving \`parent\` moves the unit.
  """
  input OrgUnitUpdateInput {
    uuid: UUID!
    name: String
    user_key: String
    parent: UUID
    org_unit_type: UUID
    org_unit_level: UUID
    validity: ValidityInput!
  }

  """
  Ends a record: it is in force up to and including \`to\`.
  """
  input TerminateInput {
    uuid: UUID!
    to: Date!
  }

  input EmployeeCreateInput {
    uuid: UUID
    givenname: String!
    surname: String!
    user_key: String
  }

  input EmployeeUpdateInput {
    uuid: UUID!
    givenname: String
    surname: String
    user_key: String
    validity: ValidityInput!
  }

  """
  Ends the person's engagements, IT accounts and owner records on \`to\`; manager positions end too, or stay vacant with \`vacate: true\`.
  """
  input EmployeeTerminateInput {
    uuid: UUID!
    to: Date!
    vacate: Boolean = false
  }

  input EngagementCreateInput {
    uuid: UUID
    user_key: String
    employee: UUID!
    org_unit: UUID!
    job_function: UUID!
    engagement_type: UUID!
    validity: ValidityInput!
  }

  input EngagementUpdateInput {
    uuid: UUID!
    user_key: String
    employee: UUID
    org_unit: UUID
    job_function: UUID
    engagement_type: UUID
    validity: ValidityInput!
  }

  input ManagerCreateInput {
    uuid: UUID
    user_key: String
    """
    Leave out (or null) for a vacant position.
    """
    employee: UUID
    org_unit: UUID!
    manager_type: UUID!
    manager_level: UUID!
    responsibility: [UUID!]
    validity: ValidityInput!
  }

  """
  \`employee: null\` makes the position vacant from \`validity.from\`.
  """
  input ManagerUpdateInput {
    uuid: UUID!
    user_key: String
    employee: UUID
    org_unit: UUID
    manager_type: UUID
    manager_level: UUID
    responsibility: [UUID!]
    validity: ValidityInput!
  }

  """
  \`owner\` owns either a unit (\`org_unit\`) or a person (\`person\`): give exactly one.
  """
  input OwnerCreateInput {
    uuid: UUID
    owner: UUID!
    org_unit: UUID
    person: UUID
    validity: ValidityInput!
  }

  input OwnerUpdateInput {
    uuid: UUID!
    owner: UUID
    """
    Giving \`org_unit\` makes it a unit's owner record, \`person\` a person's; the other becomes null.
    """
    org_unit: UUID
    person: UUID
    validity: ValidityInput!
  }

  """
  An account in an IT system, of a person (\`employee\`) or of a unit (\`org_unit\`): give exactly one.
  """
  input ITUserCreateInput {
    uuid: UUID
    """
    The account name in the IT system.
    """
    user_key: String!
    itsystem: UUID!
    employee: UUID
    org_unit: UUID
    validity: ValidityInput!
  }

  input ITUserUpdateInput {
    uuid: UUID!
    user_key: String
    itsystem: UUID
    employee: UUID
    org_unit: UUID
    validity: ValidityInput!
  }

  """
  An address of a person (\`employee\`), a unit (\`org_unit\`) or an engagement (\`engagement\`): give exactly one.
  The legacy service checks \`value\` against the address type's scope (e-mail, phone, EAN, …).
  """
  input AddressCreateInput {
    uuid: UUID
    user_key: String
    address_type: UUID!
    value: String!
    value2: String
    visibility: UUID
    employee: UUID
    org_unit: UUID
    engagement: UUID
    validity: ValidityInput!
  }

  input AddressUpdateInput {
    uuid: UUID!
    user_key: String
    address_type: UUID
    value: String
    value2: String
    visibility: UUID
    employee: UUID
    org_unit: UUID
    engagement: UUID
    validity: ValidityInput!
  }

  """
  Leave out \`employee\` for a vacant association.
  """
  input AssociationCreateInput {
    uuid: UUID
    user_key: String
    employee: UUID
    org_unit: UUID!
    association_type: UUID!
    primary: UUID
    dynamic_classes: [UUID!]
    substitute: UUID
    validity: ValidityInput!
  }

  input AssociationUpdateInput {
    uuid: UUID!
    user_key: String
    employee: UUID
    org_unit: UUID
    association_type: UUID
    primary: UUID
    dynamic_classes: [UUID!]
    substitute: UUID
    validity: ValidityInput!
  }

  input RoleCreateInput {
    uuid: UUID
    user_key: String
    employee: UUID!
    org_unit: UUID!
    role_type: UUID!
    validity: ValidityInput!
  }

  input RoleUpdateInput {
    uuid: UUID!
    user_key: String
    employee: UUID
    org_unit: UUID
    role_type: UUID
    validity: ValidityInput!
  }

  input LeaveCreateInput {
    uuid: UUID
    user_key: String
    employee: UUID!
    leave_type: UUID!
    """
    The engagement the leave is from.
    """
    engagement: UUID
    validity: ValidityInput!
  }

  input LeaveUpdateInput {
    uuid: UUID!
    user_key: String
    employee: UUID
    leave_type: UUID
    engagement: UUID
    validity: ValidityInput!
  }

  input KLECreateInput {
    uuid: UUID
    user_key: String
    org_unit: UUID!
    kle_number: UUID!
    """
    At least one aspect (a class of the \`kle_aspect\` facet).
    """
    kle_aspects: [UUID!]!
    validity: ValidityInput!
  }

  input KLEUpdateInput {
    uuid: UUID!
    user_key: String
    org_unit: UUID
    kle_number: UUID
    kle_aspects: [UUID!]
    validity: ValidityInput!
  }

  input EngagementAssociationCreateInput {
    uuid: UUID
    user_key: String
    engagement: UUID!
    org_unit: UUID!
    engagement_association_type: UUID!
    validity: ValidityInput!
  }

  input EngagementAssociationUpdateInput {
    uuid: UUID!
    user_key: String
    engagement: UUID
    org_unit: UUID
    engagement_association_type: UUID
    validity: ValidityInput!
  }

  """
  From \`validity.from\` on, \`origin\` is related to exactly the units in \`destination\`: relations are added for new
  ones and ended for ones no longer listed (an empty list ends them all).
  """
  input RelatedUnitsUpdateInput {
    origin: UUID!
    destination: [UUID!]!
    validity: RelatedUnitsValidityInput!
  }

  input RelatedUnitsValidityInput {
    from: Date!
  }

  """
  The result of a write: the record's UUID and, where the gateway can read it back, the record as of the change.
  """
  type OrgUnitPayload {
    uuid: UUID!
    object: OrgUnit
  }

  type EmployeePayload {
    uuid: UUID!
    object: Employee
  }

  type EngagementPayload {
    uuid: UUID!
    """
    The engagement as of the change; null when the input names neither its employee nor its unit.
    """
    object: Engagement
  }

  type ManagerPayload {
    uuid: UUID!
    """
    The position as of the change; null when the input names neither its unit nor its employee.
    """
    object: Manager
  }

  type OwnerPayload {
    uuid: UUID!
    """
    The owner record as of the change; null when the input names neither the unit nor the person.
    """
    object: Owner
  }

  type ITUserPayload {
    uuid: UUID!
    """
    The account as of the change; null when the input names neither its unit nor its employee.
    """
    object: ITUser
  }

  type AddressPayload {
    uuid: UUID!
    """
    The address as of the change; null when the input names neither its unit nor its employee.
    """
    object: Address
  }

  type AssociationPayload {
    uuid: UUID!
    """
    The association as of the change; null when the input names neither its unit nor its employee.
    """
    object: Association
  }

  type RolePayload {
    uuid: UUID!
    """
    The role as of the change; null when the input names neither its unit nor its employee.
    """
    object: Role
  }

  type LeavePayload {
    uuid: UUID!
    """
    The leave as of the change; null when the input does not name the employee.
    """
    object: Leave
  }

  type KLEPayload {
    uuid: UUID!
    """
    The KLE number as of the change; null when the input does not name the unit.
    """
    object: KLE
  }

  type EngagementAssociationPayload {
    uuid: UUID!
    """
    The engagement association as of the change; null when the input does not name the unit.
    """
    object: EngagementAssociation
  }

  """
  The related-unit records the change added, ended and left as they were.
  """
  type RelatedUnitsPayload {
    added: [UUID!]!
    deleted: [UUID!]!
    unchanged: [UUID!]!
  }

  """
  Every mutation is one legacy write. A write that is refused (RBAC: \`FORBIDDEN\`) or fails is \`null\` with an
  error saying why; the operation's other mutations are not affected.
  """
  type Mutation {
    org_unit_create(input: OrgUnitCreateInput!): OrgUnitPayload
    org_unit_update(input: OrgUnitUpdateInput!): OrgUnitPayload
    org_unit_terminate(input: TerminateInput!): OrgUnitPayload
    employee_create(input: EmployeeCreateInput!): EmployeePayload
    employee_update(input: EmployeeUpdateInput!): EmployeePayload
    employee_terminate(input: EmployeeTerminateInput!): EmployeePayload
    engagement_create(input: EngagementCreateInput!): EngagementPayload
    engagement_update(input: EngagementUpdateInput!): EngagementPayload
    engagement_terminate(input: TerminateInput!): EngagementPayload
    manager_create(input: ManagerCreateInput!): ManagerPayload
    manager_update(input: ManagerUpdateInput!): ManagerPayload
    manager_terminate(input: TerminateInput!): ManagerPayload
    owner_create(input: OwnerCreateInput!): OwnerPayload
    owner_update(input: OwnerUpdateInput!): OwnerPayload
    owner_terminate(input: TerminateInput!): OwnerPayload
    ituser_create(input: ITUserCreateInput!): ITUserPayload
    ituser_update(input: ITUserUpdateInput!): ITUserPayload
    ituser_terminate(input: TerminateInput!): ITUserPayload
    address_create(input: AddressCreateInput!): AddressPayload
    address_update(input: AddressUpdateInput!): AddressPayload
    address_terminate(input: TerminateInput!): AddressPayload
    association_create(input: AssociationCreateInput!): AssociationPayload
    association_update(input: AssociationUpdateInput!): AssociationPayload
    association_terminate(input: TerminateInput!): AssociationPayload
    role_create(input: RoleCreateInput!): RolePayload
    role_update(input: RoleUpdateInput!): RolePayload
    role_terminate(input: TerminateInput!): RolePayload
    leave_create(input: LeaveCreateInput!): LeavePayload
    leave_update(input: LeaveUpdateInput!): LeavePayload
    leave_terminate(input: TerminateInput!): LeavePayload
    kle_create(input: KLECreateInput!): KLEPayload
    kle_update(input: KLEUpdateInput!): KLEPayload
    kle_terminate(input: TerminateInput!): KLEPayload
    engagement_association_create(input: EngagementAssociationCreateInput!): EngagementAssociationPayload
    engagement_association_update(input: EngagementAssociationUpdateInput!): EngagementAssociationPayload
    engagement_association_terminate(input: TerminateInput!): EngagementAssociationPayload
    related_units_update(input: RelatedUnitsUpdateInput!): RelatedUnitsPayload
  }
`;
