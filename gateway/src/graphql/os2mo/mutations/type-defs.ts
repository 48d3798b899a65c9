/**
 * OS2mo's mutations (v29's SDL, which v30 serves unchanged) that the Service API can back: OS2mo's names,
 * input types, field types and defaults. The response types (`OrganisationUnitResponse`, …), the scalars
 * `UUID`, `DateTime`, `Date`, `CPR` and the enum `OwnerInferencePriority` belong to the read side and
 * are referenced, not defined, here. What OS2mo has and this leaves out is declared in `omissions.ts`.
 */
export const os2moMutationTypeDefs = /* GraphQL */ `
  type Mutation {
    org_unit_create(input: OrganisationUnitCreateInput!): OrganisationUnitResponse!
    org_unit_update(input: OrganisationUnitUpdateInput!): OrganisationUnitResponse!
    org_unit_terminate(input: OrganisationUnitTerminateInput!): OrganisationUnitResponse!
    employee_create(input: EmployeeCreateInput!): EmployeeResponse!
    employee_update(input: EmployeeUpdateInput!): EmployeeResponse!
    employee_terminate(input: EmployeeTerminateInput!): EmployeeResponse!
    engagement_create(input: EngagementCreateInput!): EngagementResponse!
    engagements_create(input: [EngagementCreateInput!]!): [EngagementResponse!]!
    engagement_update(input: EngagementUpdateInput!): EngagementResponse!
    engagements_update(input: [EngagementUpdateInput!]!): [EngagementResponse!]!
    engagement_terminate(input: EngagementTerminateInput!): EngagementResponse!
    manager_create(input: ManagerCreateInput!): ManagerResponse!
    managers_create(input: [ManagerCreateInput!]!): [ManagerResponse!]!
    manager_update(input: ManagerUpdateInput!): ManagerResponse!
    manager_terminate(input: ManagerTerminateInput!): ManagerResponse!
    owner_create(input: OwnerCreateInput!): OwnerResponse!
    owner_update(input: OwnerUpdateInput!): OwnerResponse!
    owner_terminate(input: OwnerTerminateInput!): OwnerResponse!
    address_create(input: AddressCreateInput!): AddressResponse!
    addresses_create(input: [AddressCreateInput!]!): [AddressResponse!]!
    address_update(input: AddressUpdateInput!): AddressResponse!
    address_terminate(input: AddressTerminateInput!): AddressResponse!
    association_create(input: AssociationCreateInput!): AssociationResponse!
    association_update(input: AssociationUpdateInput!): AssociationResponse!
    association_terminate(input: AssociationTerminateInput!): AssociationResponse!
    ituser_create(input: ITUserCreateInput!): ITUserResponse!
    itusers_create(input: [ITUserCreateInput!]!): [ITUserResponse!]!
    ituser_update(input: ITUserUpdateInput!): ITUserResponse!
    ituser_terminate(input: ITUserTerminateInput!): ITUserResponse!
    kle_create(input: KLECreateInput!): KLEResponse!
    kle_update(input: KLEUpdateInput!): KLEResponse!
    kle_terminate(input: KLETerminateInput!): KLEResponse!
    leave_create(input: LeaveCreateInput!): LeaveResponse!
    leave_update(input: LeaveUpdateInput!): LeaveResponse!
    leave_terminate(input: LeaveTerminateInput!): LeaveResponse!
    """
    From \`validity.from\` on, \`origin\` is related to exactly the units in \`destination\`; answers \`origin\`.
    """
    related_units_update(input: RelatedUnitsUpdateInput!): RelatedUnitResponse!
    """
    Creates a class in the facet \`facet_uuid\`. The Service API keeps a class for all time (OS2mo 2.4.0
    \`service/facet.py:763\`): \`validity.from\` is accepted and not kept, and a \`validity.to\` is refused.
    """
    class_create(input: ClassCreateInput!): ClassResponse!
    """
    Writes the class anew in the facet \`facet_uuid\` (OS2mo 2.4.0 \`service/facet.py:800\`): what the input leaves
    out is no longer set. The class holds for all time, as \`class_create\` says.
    """
    class_update(input: ClassUpdateInput!): ClassResponse!
  }

  """
  A class's period: the Service API keeps a class for all time, so \`to\` must be left out (or \`null\`).
  """
  input ValidityInput {
    from: DateTime = null
    to: DateTime = null
  }

  input ClassCreateInput {
    uuid: UUID = null
    name: String!
    user_key: String!
    facet_uuid: UUID!
    scope: String = null
    """
    The Service API publishes every class it writes: only \`"Publiceret"\` is accepted.
    """
    published: String! = "Publiceret"
    validity: ValidityInput!
  }

  input ClassUpdateInput {
    uuid: UUID!
    name: String!
    user_key: String!
    facet_uuid: UUID!
    scope: String = null
    """
    The Service API publishes every class it writes: only \`"Publiceret"\` is accepted.
    """
    published: String! = "Publiceret"
    validity: ValidityInput!
  }

  """
  The period a write is in force: from \`from\` up to, but not including, \`to\` (\`null\`: until further notice).
  Either bound may be a date or a date-time; the Service API behind this gateway keeps whole days.
  """
  input RAValidityInput {
    from: DateTime!
    to: DateTime = null
  }

  input OrganisationUnitCreateInput {
    uuid: UUID
    validity: RAValidityInput!
    name: String!
    user_key: String
    parent: UUID
    org_unit_type: UUID!
    org_unit_level: UUID
    time_planning: UUID
    org_unit_hierarchy: UUID
  }

  """
  A field left out keeps its value; a field given as \`null\` is cleared (\`parent: null\` makes the unit top-level).
  """
  input OrganisationUnitUpdateInput {
    uuid: UUID!
    validity: RAValidityInput!
    name: String
    user_key: String
    parent: UUID
    org_unit_type: UUID
    org_unit_level: UUID
    time_planning: UUID
    org_unit_hierarchy: UUID
  }

  """
  Without \`from\`, the unit ends at \`to\`; with it, the unit is inactive from \`from\` until \`to\`.
  """
  input OrganisationUnitTerminateInput {
    from: DateTime = null
    to: DateTime!
    uuid: UUID!
  }

  input EmployeeCreateInput {
    uuid: UUID = null
    user_key: String = null
    nickname_given_name: String = null
    nickname_surname: String = null
    seniority: Date = null
    cpr_number: CPR = null
    given_name: String!
    surname: String!
  }

  input EmployeeUpdateInput {
    uuid: UUID!
    user_key: String = null
    nickname_given_name: String = null
    nickname_surname: String = null
    seniority: Date = null
    cpr_number: CPR = null
    given_name: String = null
    surname: String = null
    validity: RAValidityInput!
  }

  input EmployeeTerminateInput {
    to: DateTime!
    uuid: UUID!
    vacate: Boolean! = false
  }

  input EngagementCreateInput {
    uuid: UUID = null
    user_key: String = null
    primary: UUID = null
    validity: RAValidityInput!
    fraction: Int = null
    extension_1: String = null
    extension_2: String = null
    extension_3: String = null
    extension_4: String = null
    extension_5: String = null
    extension_6: String = null
    extension_7: String = null
    extension_8: String = null
    extension_9: String = null
    extension_10: String = null
    employee: UUID = null
    person: UUID = null
    org_unit: UUID!
    engagement_type: UUID!
    job_function: UUID!
  }

  input EngagementUpdateInput {
    uuid: UUID!
    user_key: String = null
    primary: UUID = null
    validity: RAValidityInput!
    fraction: Int = null
    extension_1: String = null
    extension_2: String = null
    extension_3: String = null
    extension_4: String = null
    extension_5: String = null
    extension_6: String = null
    extension_7: String = null
    extension_8: String = null
    extension_9: String = null
    extension_10: String = null
    employee: UUID = null
    person: UUID = null
    org_unit: UUID = null
    engagement_type: UUID = null
    job_function: UUID = null
  }

  input EngagementTerminateInput {
    to: DateTime!
    uuid: UUID!
  }

  input ManagerCreateInput {
    uuid: UUID = null
    user_key: String = null
    person: UUID = null
    responsibility: [UUID!]!
    org_unit: UUID!
    manager_level: UUID!
    manager_type: UUID!
    validity: RAValidityInput!
  }

  input ManagerUpdateInput {
    uuid: UUID!
    validity: RAValidityInput!
    user_key: String = null
    person: UUID = null
    responsibility: [UUID!] = null
    org_unit: UUID = null
    manager_type: UUID = null
    manager_level: UUID = null
  }

  input ManagerTerminateInput {
    to: DateTime!
    uuid: UUID!
  }

  input OwnerCreateInput {
    uuid: UUID = null
    user_key: String = null
    org_unit: UUID = null
    person: UUID = null
    owner: UUID = null
    inference_priority: OwnerInferencePriority = null
    validity: RAValidityInput!
  }

  input OwnerUpdateInput {
    uuid: UUID!
    user_key: String = null
    org_unit: UUID = null
    person: UUID = null
    owner: UUID = null
    inference_priority: OwnerInferencePriority = null
    validity: RAValidityInput!
  }

  input OwnerTerminateInput {
    to: DateTime!
    uuid: UUID!
  }

  input AddressCreateInput {
    uuid: UUID = null
    org_unit: UUID = null
    person: UUID = null
    employee: UUID = null
    engagement: UUID = null
    visibility: UUID = null
    validity: RAValidityInput!
    user_key: String = null
    value: String!
    address_type: UUID!
  }

  input AddressUpdateInput {
    uuid: UUID!
    org_unit: UUID = null
    person: UUID = null
    employee: UUID = null
    engagement: UUID = null
    visibility: UUID = null
    validity: RAValidityInput!
    user_key: String = null
    value: String = null
    address_type: UUID = null
  }

  input AddressTerminateInput {
    to: DateTime!
    uuid: UUID!
  }

  input AssociationCreateInput {
    uuid: UUID = null
    user_key: String = null
    primary: UUID = null
    validity: RAValidityInput!
    person: UUID = null
    employee: UUID = null
    substitute: UUID = null
    org_unit: UUID!
    association_type: UUID!
  }

  input AssociationUpdateInput {
    uuid: UUID!
    user_key: String = null
    primary: UUID = null
    validity: RAValidityInput!
    person: UUID = null
    employee: UUID = null
    substitute: UUID = null
    org_unit: UUID = null
    association_type: UUID = null
  }

  input AssociationTerminateInput {
    to: DateTime!
    uuid: UUID!
  }

  input ITUserCreateInput {
    uuid: UUID = null
    person: UUID = null
    org_unit: UUID = null
    validity: RAValidityInput!
    user_key: String!
    itsystem: UUID!
  }

  input ITUserUpdateInput {
    uuid: UUID!
    person: UUID = null
    org_unit: UUID = null
    validity: RAValidityInput!
    user_key: String = null
    itsystem: UUID = null
  }

  input ITUserTerminateInput {
    to: DateTime!
    uuid: UUID!
  }

  input KLECreateInput {
    uuid: UUID = null
    user_key: String = null
    org_unit: UUID!
    kle_aspects: [UUID!]!
    kle_number: UUID!
    validity: RAValidityInput!
  }

  input KLEUpdateInput {
    uuid: UUID!
    user_key: String = null
    kle_number: UUID = null
    kle_aspects: [UUID!] = null
    org_unit: UUID = null
    validity: RAValidityInput!
  }

  input KLETerminateInput {
    to: DateTime!
    uuid: UUID!
  }

  input LeaveCreateInput {
    uuid: UUID = null
    user_key: String = null
    person: UUID!
    engagement: UUID!
    leave_type: UUID!
    validity: RAValidityInput!
  }

  input LeaveUpdateInput {
    uuid: UUID!
    user_key: String = null
    person: UUID = null
    engagement: UUID = null
    leave_type: UUID = null
    validity: RAValidityInput!
  }

  input LeaveTerminateInput {
    to: DateTime!
    uuid: UUID!
  }

  input RelatedUnitsUpdateInput {
    uuid: UUID = null
    origin: UUID!
    destination: [UUID!] = null
    validity: RAValidityInput!
  }
`;

/** The types the mutations name and the read side defines. */
export const referencedTypes = [
  'UUID',
  'DateTime',
  'Date',
  'CPR',
  'OwnerInferencePriority',
  'OrganisationUnitResponse',
  'EmployeeResponse',
  'EngagementResponse',
  'ManagerResponse',
  'OwnerResponse',
  'AddressResponse',
  'AssociationResponse',
  'ITUserResponse',
  'KLEResponse',
  'LeaveResponse',
  'RelatedUnitResponse',
  'ClassResponse',
] as const;
