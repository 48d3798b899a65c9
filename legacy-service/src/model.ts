/** Stored shapes of the legacy service. Temporal entities keep every version; reads pick by date. */

export type IsoDate = string;

/** A half-open-free interval: `to` is inclusive and null means "until further notice". */
export interface Validity {
  from: IsoDate;
  to: IsoDate | null;
}

export type Version<A> = Validity & A;

export interface Temporal<A> {
  uuid: string;
  versions: Version<A>[];
}

export interface Organisation {
  uuid: string;
  name: string;
  user_key: string;
}

export interface Facet {
  uuid: string;
  user_key: string;
  description: string;
}

export interface ClassRecord {
  uuid: string;
  facet: string;
  user_key: string;
  name: string;
  scope: string | null;
  example: string | null;
}

export interface ItSystem {
  uuid: string;
  name: string;
  user_key: string;
  system_type: string | null;
  validity: Validity;
}

export interface OrgUnitAttrs {
  name: string;
  user_key: string;
  parent: string | null;
  org_unit_type: string;
  org_unit_level: string | null;
}

export interface EmployeeAttrs {
  givenname: string;
  surname: string;
  user_key: string;
}

export interface EngagementAttrs {
  user_key: string;
  person: string;
  org_unit: string;
  job_function: string;
  engagement_type: string;
}

export interface ManagerAttrs {
  user_key: string;
  person: string | null;
  org_unit: string;
  manager_type: string;
  manager_level: string;
  responsibility: string[];
}

export interface OwnerAttrs {
  user_key: string;
  owner: string | null;
  org_unit: string | null;
  person: string | null;
}

export interface ItUserAttrs {
  user_key: string;
  itsystem: string;
  person: string | null;
  org_unit: string | null;
}

export type OrgUnit = Temporal<OrgUnitAttrs>;
export type Employee = Temporal<EmployeeAttrs>;
export type Engagement = Temporal<EngagementAttrs>;
export type Manager = Temporal<ManagerAttrs>;
export type Owner = Temporal<OwnerAttrs>;
export type ItUser = Temporal<ItUserAttrs>;

export const collections = {
  organisation: 'organisation',
  facet: 'facet',
  class: 'class',
  itsystem: 'itsystem',
  orgUnit: 'org_unit',
  employee: 'employee',
  engagement: 'engagement',
  manager: 'manager',
  owner: 'owner',
  it: 'it',
} as const;

/** The detail types that `/details/{type}` serves, with the collection that stores each. */
export const detailTypes = ['engagement', 'manager', 'owner', 'it'] as const;
export type DetailType = (typeof detailTypes)[number];

export const detailCollection: Record<DetailType, string> = {
  engagement: collections.engagement,
  manager: collections.manager,
  owner: collections.owner,
  it: collections.it,
};

/** The facet each class-valued field must belong to. */
export const classFacets = {
  org_unit_type: 'org_unit_type',
  org_unit_level: 'org_unit_level',
  job_function: 'engagement_job_function',
  engagement_type: 'engagement_type',
  manager_type: 'manager_type',
  manager_level: 'manager_level',
  responsibility: 'responsibility',
} as const;
