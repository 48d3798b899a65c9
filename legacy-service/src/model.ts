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
  /**
   * The municipality's code (OS2mo's `myndighed` relation `urn:dk:kommune:{code}`): its own addresses are the
   * ones `address_autocomplete` finds without `global`. Absent in older stores means none.
   */
  municipality_code?: number;
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
  /** The organisation unit that owns the class (OS2mo's `owner`); absent in older stores means null. */
  owner?: string | null;
  /** A parent class (OS2mo's hierarchical classes); `full_name` joins the chain's names. */
  parent?: string | null;
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
  /** OS2mo's time-planning class (2.4.0 `service/orgunit.py`); absent in older stores means null. */
  time_planning?: string | null;
  /**
   * The unit's hierarchy, a class of `org_unit_hierarchy` (2.4.0 stores it as LoRa's `opmærkning` and filters
   * children by it, `service/orgunit.py`); absent in older stores means null.
   */
  org_unit_hierarchy?: string | null;
}

export interface EmployeeAttrs {
  givenname: string;
  surname: string;
  user_key: string;
  /** Ten digits, or absent for people without a CPR number. Stores written before it lack these fields. */
  cpr_no?: string | null;
  nickname_givenname?: string;
  nickname_surname?: string;
  /** A date written YYYY-MM-DD, or '' as OS2mo answers when unknown. */
  seniority?: string;
}

/** The engagement's generic extension fields, `extension_1` to `extension_10`. */
export const extensionFields = [
  'extension_1',
  'extension_2',
  'extension_3',
  'extension_4',
  'extension_5',
  'extension_6',
  'extension_7',
  'extension_8',
  'extension_9',
  'extension_10',
] as const;
export type ExtensionField = (typeof extensionFields)[number];

export interface EngagementAttrs {
  user_key: string;
  person: string;
  org_unit: string;
  job_function: string;
  engagement_type: string;
  /** A class of the `primary_type` facet; its scope is the priority `calculate_primary` ranks by. */
  primary?: string | null;
  fraction?: number | null;
  extensions?: Partial<Record<ExtensionField, string | null>>;
}

export interface ManagerAttrs {
  user_key: string;
  person: string | null;
  org_unit: string;
  manager_type: string;
  manager_level: string;
  responsibility: string[];
}

export const ownerInferencePriorities = ['engagement_priority', 'association_priority'] as const;
export type OwnerInferencePriority = (typeof ownerInferencePriorities)[number];

export interface OwnerAttrs {
  user_key: string;
  owner: string | null;
  org_unit: string | null;
  person: string | null;
  /** For a person's owner only: take the owner from the person's primary engagement or association unit. */
  owner_inference_priority?: OwnerInferencePriority | null;
}

export interface AddressAttrs {
  user_key: string;
  /** A class of `org_unit_address_type` or `employee_address_type`; its scope (EMAIL, PHONE, DAR, …) says how to show the value. */
  address_type: string;
  value: string;
  person: string | null;
  org_unit: string | null;
  engagement: string | null;
  visibility: string | null;
}

export interface AssociationAttrs {
  user_key: string;
  person: string | null;
  org_unit: string;
  association_type: string;
  primary: string | null;
  substitute: string | null;
  dynamic_classes: string[];
}

export interface EngagementAssociationAttrs {
  user_key: string;
  engagement: string;
  org_unit: string;
  engagement_association_type: string;
}

export interface KleAttrs {
  user_key: string;
  org_unit: string;
  kle_number: string;
  kle_aspect: string[];
}

export interface LeaveAttrs {
  user_key: string;
  person: string;
  leave_type: string;
  engagement: string | null;
}

export interface RelatedUnitAttrs {
  user_key: string;
  /** The two related units. */
  org_units: string[];
}

export interface RoleAttrs {
  user_key: string;
  person: string;
  org_unit: string;
  role_type: string;
}

export interface ItUserAttrs {
  user_key: string;
  itsystem: string;
  person: string | null;
  org_unit: string | null;
}

/**
 * An address of the national address register (DAR), as DAWA answers it with `struktur=mini`: what OS2mo
 * 2.4.0 renders a DAR address from (`service/address_handler/dar.py`). The stand-in keeps the few it needs
 * instead of calling DAWA.
 */
export interface DarAddress {
  uuid: string;
  vejnavn: string;
  husnr: string | null;
  etage: string | null;
  dør: string | null;
  supplerendebynavn: string | null;
  postnr: string;
  postnrnavn: string;
  /** The municipality the address lies in (DAWA's `kommunekode`); absent in older stores means unknown. */
  kommunekode?: number;
  /** Longitude and latitude: OS2mo links to OpenStreetMap when both are known. */
  x: number | null;
  y: number | null;
}

export type OrgUnit = Temporal<OrgUnitAttrs>;
export type Employee = Temporal<EmployeeAttrs>;
export type Engagement = Temporal<EngagementAttrs>;
export type Manager = Temporal<ManagerAttrs>;
export type Owner = Temporal<OwnerAttrs>;
export type ItUser = Temporal<ItUserAttrs>;

export type Address = Temporal<AddressAttrs>;
export type Association = Temporal<AssociationAttrs>;
export type EngagementAssociation = Temporal<EngagementAssociationAttrs>;
export type Kle = Temporal<KleAttrs>;
export type Leave = Temporal<LeaveAttrs>;
export type RelatedUnit = Temporal<RelatedUnitAttrs>;
export type Role = Temporal<RoleAttrs>;

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
  address: 'address',
  association: 'association',
  engagementAssociation: 'engagement_association',
  kle: 'kle',
  leave: 'leave',
  relatedUnit: 'related_unit',
  role: 'role',
  darAddress: 'dar_address',
} as const;

/** The detail types that `/details/{type}` serves (OS2mo 2.4.0's organisation functions), each in its own collection. */
export const detailTypes = [
  'address',
  'association',
  'engagement',
  'engagement_association',
  'it',
  'kle',
  'leave',
  'manager',
  'owner',
  'related_unit',
  'role',
] as const;
export type DetailType = (typeof detailTypes)[number];

export const detailCollection: Record<DetailType, string> = {
  address: collections.address,
  association: collections.association,
  engagement: collections.engagement,
  engagement_association: collections.engagementAssociation,
  it: collections.it,
  kle: collections.kle,
  leave: collections.leave,
  manager: collections.manager,
  owner: collections.owner,
  related_unit: collections.relatedUnit,
  role: collections.role,
};

/** The facet each class-valued field must belong to. */
export const classFacets = {
  org_unit_type: 'org_unit_type',
  org_unit_level: 'org_unit_level',
  time_planning: 'time_planning',
  org_unit_hierarchy: 'org_unit_hierarchy',
  job_function: 'engagement_job_function',
  engagement_type: 'engagement_type',
  manager_type: 'manager_type',
  manager_level: 'manager_level',
  responsibility: 'responsibility',
  primary: 'primary_type',
  association_type: 'association_type',
  role_type: 'role_type',
  leave_type: 'leave_type',
  kle_number: 'kle_number',
  kle_aspect: 'kle_aspect',
  engagement_association_type: 'engagement_association_type',
  visibility: 'visibility',
} as const;

/** The facets an address type may come from: one for units, one for people. */
export const addressTypeFacets = {
  org_unit: 'org_unit_address_type',
  person: 'employee_address_type',
} as const;
