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
    owner_terminate(input: TerminateInput!): OwnerPayload
  }
`;
