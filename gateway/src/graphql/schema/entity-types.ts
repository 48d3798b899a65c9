/**
 * The org graph's entity types as the public versions show them. v1 and v2 differ only where a version
 * says so: in v1 an engagement's or manager's `employee` and a unit's `parent` are lists (as in the
 * specification's sample response); in v2 they are single objects.
 */
export interface EntityShape {
  /** Wraps a link to one object: `Employee` in v2, `[Employee!]!` in v1. */
  single(type: string): string;
}

export const v1Shape: EntityShape = { single: (type) => `[${type}!]!` };
export const v2Shape: EntityShape = { single: (type) => type };

export function entityTypeDefs(shape: EntityShape): string {
  return /* GraphQL */ `
"""A calendar date written YYYY-MM-DD."""
scalar Date

"""A UUID in its canonical text form (lower case, with hyphens)."""
scalar UUID

"""An opaque position in a paginated collection; pass \`page_info.next_cursor\` back as \`cursor\`."""
scalar Cursor

"""When a record is in force: from \`from\` up to and including \`to\`; \`to: null\` means until further notice."""
type Validity {
  from: Date!
  to: Date
}

"""A class: one value of a facet, such as a manager type or a job function."""
type Class {
  uuid: UUID!
  name: String!
  user_key: String!
  example: String
  scope: String
  """The facet this class belongs to."""
  facet: Facet
}

"""A facet: a set of classes, such as \`manager_type\` or \`engagement_job_function\`."""
type Facet {
  uuid: UUID!
  user_key: String!
  description: String
  classes: [Class!]!
}

"""An organisation unit."""
type OrgUnit {
  uuid: UUID!
  name: String!
  user_key: String!
  validity: Validity!
  org_unit_type: Class
  org_unit_level: Class
  """The unit above this one; ${shape.single('OrgUnit') === 'OrgUnit' ? 'null' : 'empty'} at the top."""
  parent: ${shape.single('OrgUnit')}
  """The units directly below this one."""
  children: [OrgUnit!]!
  """Manager positions of the unit. With \`inherit: true\`, a unit without managers shows its nearest ancestor's."""
  managers(inherit: Boolean = false): [Manager!]!
  """Owners of the unit. With \`inherit: true\`, a unit without owners shows its nearest ancestor's."""
  owners(inherit: Boolean = false): [Owner!]!
  engagements: [Engagement!]!
  itusers: [ITUser!]!
}

"""A person employed by the organisation."""
type Employee {
  uuid: UUID!
  """Given name and surname."""
  name: String!
  givenname: String!
  surname: String!
  user_key: String!
  validity: Validity!
  engagements: [Engagement!]!
  """The manager positions this person holds."""
  manager_roles: [Manager!]!
  """Owner records that name this person as the owned one."""
  owners: [Owner!]!
  itusers: [ITUser!]!
}

"""A person's engagement (employment) in a unit."""
type Engagement {
  uuid: UUID!
  user_key: String!
  validity: Validity!
  job_function: Class
  engagement_type: Class
  employee: ${shape.single('Employee')}
  org_unit: OrgUnit
}

"""A manager position of a unit; a vacant position has no employee."""
type Manager {
  uuid: UUID!
  user_key: String!
  validity: Validity!
  manager_type: Class
  manager_level: Class
  responsibility: [Class!]!
  employee: ${shape.single('Employee')}
  org_unit: OrgUnit
}

"""An owner record: \`owner\` owns the unit (or the person) it names."""
type Owner {
  uuid: UUID!
  user_key: String!
  validity: Validity!
  owner: Employee
  org_unit: OrgUnit
  person: Employee
}

"""An IT system, such as a directory or a payroll system."""
type ITSystem {
  uuid: UUID!
  name: String!
  user_key: String!
  system_type: String
  validity: Validity!
}

"""An account in an IT system, held by a person or a unit."""
type ITUser {
  uuid: UUID!
  """The account name."""
  user_key: String!
  validity: Validity!
  itsystem: ITSystem
  employee: Employee
  org_unit: OrgUnit
}
`;
}
