/**
 * The org graph's links, declared once: every field `.meshrc.yaml` adds to the contract's types
 * (`additionalTypeDefs`), with what backs it in the legacy contract. The gateway's resolvers
 * (`resolvers/entities.ts`) and the Mesh peer's (`gateway/mesh/org-graph-resolvers.js`, through
 * the `gateway/mesh/graph-links.generated.js` that `npm run graph:generate` writes from this module)
 * build the generic kinds from it; a `custom` link names where each side keeps its one recipe.
 *
 * Legacy names are the contract's: a detail type (`/service/{ou|e}/{uuid}/details/{type}`) and a record's
 * body field. Mesh's renamed fields (`org_unit_ref`, …) and operation ids are derived when generating.
 */
import type { DetailRecords, DetailType } from '../legacy/legacy-loaders.js';

/** Whose detail listing: a unit's (`/service/ou/{uuid}/…`) or a person's (`/service/e/{uuid}/…`). */
export type ListingOwner = 'unit' | 'person';

/** The full records a reference leads to: a unit (`/service/ou/{uuid}/`) or a person (`/service/e/{uuid}/`). */
export type ReferenceTarget = 'OrgUnit' | 'Employee';

/** Where the gateway keeps a custom link's recipe; `none`: the field serves the Mesh peer only. */
export type GatewayRecipe = 'entities' | 'hierarchy' | 'organisation' | 'none';

/**
 * How Mesh answers a custom link: its recipe in `org-graph-resolvers.js`, or `carried`: Mesh's default
 * resolver gives what the legacy record carries under the field's name.
 */
export type MeshRecipe = 'recipe' | 'carried';

export type GraphLink<Field extends string = string> =
  /** A detail listing of the unit or person (`inherit`: the listing's flag that the `inherit` argument sets). */
  | {
      kind: 'listing';
      of: ListingOwner;
      detail: DetailType;
      inherit?: 'inherit_manager' | 'inherit_owner';
    }
  /** The full record of an embedded reference (`field`), or null where the record has none. */
  | { kind: 'reference'; field: Field; target: ReferenceTarget }
  /** The full records of a list of embedded references. */
  | { kind: 'references'; field: Field; target: ReferenceTarget }
  /** The UUID of an embedded reference, or null: OS2mo's graph shows these keys as `*_uuid` fields. */
  | { kind: 'key'; field: Field }
  /** The UUIDs of a list of embedded references. */
  | { kind: 'keys'; field: Field }
  /** A recipe of its own on each side. */
  | { kind: 'custom'; gateway: GatewayRecipe; mesh: MeshRecipe };

/** A detail record's links: `tsc` refuses a field the contract's record type (`DetailRecords`) lacks. */
type RecordLinks<Detail extends DetailType> = Record<
  string,
  GraphLink<Extract<keyof DetailRecords[Detail], string>>
>;

const custom = (gateway: GatewayRecipe, mesh: MeshRecipe = 'recipe') =>
  ({ kind: 'custom', gateway, mesh }) as const;
const unitListing = (detail: DetailType) => ({ kind: 'listing', of: 'unit', detail }) as const;
const personListing = (detail: DetailType) => ({ kind: 'listing', of: 'person', detail }) as const;
const unit = <Field extends string>(field: Field) =>
  ({ kind: 'reference', field, target: 'OrgUnit' }) as const;
const person = <Field extends string>(field: Field) =>
  ({ kind: 'reference', field, target: 'Employee' }) as const;
const key = <Field extends string>(field: Field) => ({ kind: 'key', field }) as const;

/** Every field `.meshrc.yaml` adds, by type, with what backs it (`graph-links.test.ts` holds the two equal). */
export const graphLinks = {
  OrgUnit: {
    managers: { ...unitListing('manager'), inherit: 'inherit_manager' },
    owners: { ...unitListing('owner'), inherit: 'inherit_owner' },
    engagements: unitListing('engagement'),
    itusers: unitListing('it'),
    addresses: unitListing('address'),
    associations: unitListing('association'),
    roles: unitListing('role'),
    leaves: unitListing('leave'),
    kles: unitListing('kle'),
    related_units: unitListing('related_unit'),
    engagement_associations: unitListing('engagement_association'),
    // The legacy listing has list items; Mesh reads each child in full.
    children: custom('entities'),
    detail_types: custom('organisation'),
    ancestors: custom('hierarchy'),
    child_count: custom('hierarchy'),
    validities: custom('hierarchy'),
  },
  Employee: {
    engagements: personListing('engagement'),
    manager_roles: personListing('manager'),
    owners: personListing('owner'),
    itusers: personListing('it'),
    addresses: personListing('address'),
    associations: personListing('association'),
    roles: personListing('role'),
    leaves: personListing('leave'),
    kles: personListing('kle'),
    related_units: personListing('related_unit'),
    engagement_associations: personListing('engagement_association'),
    // A person record has no validity: the gateway reads the person's versions; Mesh has none to give.
    validity: custom('entities', 'carried'),
    detail_types: custom('organisation'),
    validities: custom('hierarchy'),
  },
  Manager: {
    employee: person('person'),
    org_unit: unit('org_unit'),
    org_unit_uuid: key('org_unit'),
    manager_type_uuid: key('manager_type'),
    manager_level_uuid: key('manager_level'),
  } satisfies RecordLinks<'manager'>,
  Engagement: {
    employee: person('person'),
    org_unit: unit('org_unit'),
    employee_uuid: key('person'),
    org_unit_uuid: key('org_unit'),
    job_function_uuid: key('job_function'),
    engagement_type_uuid: key('engagement_type'),
  } satisfies RecordLinks<'engagement'>,
  Owner: {
    owner: person('owner'),
    org_unit: unit('org_unit'),
    person: person('person'),
  } satisfies RecordLinks<'owner'>,
  ITUser: {
    // The reference lacks the system's validity: Mesh finds the system in the organisation's listing.
    itsystem: custom('entities'),
    employee: person('person'),
    org_unit: unit('org_unit'),
    itsystem_uuid: key('itsystem'),
    employee_uuid: key('person'),
    org_unit_uuid: key('org_unit'),
  } satisfies RecordLinks<'it'>,
  Address: {
    employee: person('person'),
    employee_uuid: key('person'),
    org_unit: unit('org_unit'),
    org_unit_uuid: key('org_unit'),
    engagement_uuid: key('engagement'),
  } satisfies RecordLinks<'address'>,
  Association: {
    employee: person('person'),
    employee_uuid: key('person'),
    org_unit: unit('org_unit'),
    org_unit_uuid: key('org_unit'),
    substitute: person('substitute'),
    substitute_uuid: key('substitute'),
  } satisfies RecordLinks<'association'>,
  Role: {
    employee: person('person'),
    employee_uuid: key('person'),
    org_unit: unit('org_unit'),
    org_unit_uuid: key('org_unit'),
  } satisfies RecordLinks<'role'>,
  Leave: {
    employee: person('person'),
    employee_uuid: key('person'),
    engagement_uuid: key('engagement'),
  } satisfies RecordLinks<'leave'>,
  KLE: {
    org_unit: unit('org_unit'),
    org_unit_uuid: key('org_unit'),
  } satisfies RecordLinks<'kle'>,
  RelatedUnit: {
    org_units: { kind: 'references', field: 'org_unit', target: 'OrgUnit' },
    org_unit_uuids: { kind: 'keys', field: 'org_unit' },
  } satisfies RecordLinks<'related_unit'>,
  EngagementAssociation: {
    org_unit: unit('org_unit'),
    org_unit_uuid: key('org_unit'),
    engagement_uuid: key('engagement'),
  } satisfies RecordLinks<'engagement_association'>,
  // Only a system embedded in an IT account carries its validity; the organisation's listing does not.
  ITSystem: { validity: custom('entities', 'carried') },
  Class: {
    // OS2mo embeds a class's facet only when asked (`facet=1`).
    facet: custom('entities'),
    children: custom('hierarchy'),
    child_count: custom('hierarchy'),
  },
  Facet: {
    classes: custom('entities'),
    top_level_classes: custom('hierarchy'),
  },
  // The graph's root fields serve the Mesh peer; the gateway's versions have roots of their own.
  Query: {
    org_units: custom('none'),
    itsystems: custom('none'),
    org: custom('none'),
    cpr_lookup: custom('none'),
  },
  OrgUnitObjects: { objects: custom('none') },
  ITSystemObjects: { objects: custom('none') },
  OrganisationObjects: { objects: custom('none') },
  CprLookupObjects: { objects: custom('none') },
} as const satisfies Record<string, Record<string, GraphLink>>;

export type GraphLinks = typeof graphLinks;
