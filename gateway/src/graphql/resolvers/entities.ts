import type { GraphQLResolveInfo } from 'graphql';
import type { GraphQLContext, Source } from '../context.js';
import { withDate } from '../context.js';
import type { DetailType, LegacyRecord } from '../../legacy/legacy-loaders.js';

type Resolver = (
  source: Source,
  args: Record<string, unknown>,
  context: GraphQLContext,
  info: GraphQLResolveInfo,
) => unknown;

/**
 * A field the source may already carry (from an embed); otherwise it is read from the full record. A field
 * the source carries is answered synchronously: a promise per leaf field makes graphql-js complete the whole
 * object asynchronously, which costs more than the field itself.
 */
function fieldOrFull(
  load: (source: Source, context: GraphQLContext) => Promise<LegacyRecord | null>,
): Resolver {
  return (source, _args, context, info) => {
    const name = info.fieldName;
    if (name in source) return source[name];
    return load(source, context).then((full) => full?.[name] ?? null);
  };
}

const fullOrgUnit = (source: Source, context: GraphQLContext) =>
  context.legacy.orgUnit(source.uuid, source.__at);
const fullEmployee = (source: Source, context: GraphQLContext) =>
  context.legacy.employee(source.uuid, source.__at);

const ref = (value: unknown, at: string): Source | null =>
  value && typeof value === 'object' && 'uuid' in value ? withDate(value as LegacyRecord, at) : null;

const list = (records: LegacyRecord[], at: string) => records.map((record) => withDate(record, at));

/** The date a detail record's links are read as of: the read date, moved inside the record's validity. */
function linkDate(source: Source): string {
  const validity = source.validity as { from: string; to: string | null } | undefined;
  if (!validity) return source.__at;
  if (source.__at < validity.from) return validity.from;
  if (validity.to !== null && source.__at > validity.to) return validity.to;
  return source.__at;
}

/**
 * The graph's list field for each detail listing a unit and a person share (`OrgUnit.addresses` reads
 * `/details/address`, …); engagements, managers, owners and IT users have their own resolvers above.
 */
export const detailFields = {
  addresses: 'address',
  associations: 'association',
  roles: 'role',
  leaves: 'leave',
  kles: 'kle',
  related_units: 'related_unit',
  engagement_associations: 'engagement_association',
} as const satisfies Record<string, DetailType>;

const detailLists = (read: 'unitDetails' | 'employeeDetails') =>
  Object.fromEntries(
    Object.entries(detailFields).map(([field, type]) => [
      field,
      async (source: Source, _args: unknown, context: GraphQLContext) =>
        list(await context.legacy[read](type, source.uuid, { at: source.__at }), source.__at),
    ]),
  );

/** The UUID of an embedded reference, or null: OS2mo's graph shows these keys as `*_uuid` fields. */
const keyOf = (field: string) => (source: Source) => {
  const value = source[field];
  return value && typeof value === 'object' && 'uuid' in value ? (value as LegacyRecord).uuid : null;
};

/** How a version shows a link to one object: the object (v2) or a list of zero or one (v1). */
export type LinkShape = (source: Source | null) => Source | Source[] | null;
export const singleLink: LinkShape = (source) => source;
export const listLink: LinkShape = (source) => (source === null ? [] : [source]);

/** Resolvers for the org graph's entity types; `link` decides the v1/v2 shape of `employee` and `parent`. */
export function entityResolvers(link: LinkShape) {
  const orgUnitField = fieldOrFull(fullOrgUnit);
  const employeeField = fieldOrFull(fullEmployee);
  const classOf = (field: string) => (source: Source) => ref(source[field], source.__at);
  const personLink = (field: string) => (source: Source) => link(ref(source[field], linkDate(source)));
  const unitOf = (source: Source) => ref(source.org_unit, linkDate(source));
  const classesOf = (field: string) => (source: Source) =>
    list((source[field] as LegacyRecord[] | undefined) ?? [], source.__at);
  /** The links and keys of a detail record with a person (`person`) and a unit (`org_unit`) reference. */
  const personAndUnit = {
    employee: (source: Source) => ref(source.person, linkDate(source)),
    employee_uuid: keyOf('person'),
    org_unit: unitOf,
    org_unit_uuid: keyOf('org_unit'),
  };

  return {
    OrgUnit: {
      name: orgUnitField,
      user_key: orgUnitField,
      validity: orgUnitField,
      org_unit_type: async (
        source: Source,
        args: Record<string, unknown>,
        context: GraphQLContext,
        info: GraphQLResolveInfo,
      ) => ref(await orgUnitField(source, args, context, info), source.__at),
      org_unit_level: async (
        source: Source,
        args: Record<string, unknown>,
        context: GraphQLContext,
        info: GraphQLResolveInfo,
      ) => ref(await orgUnitField(source, args, context, info), source.__at),
      parent: async (source: Source, _args: unknown, context: GraphQLContext) => {
        const full = 'parent' in source ? source : await fullOrgUnit(source, context);
        return link(ref(full?.parent, source.__at));
      },
      children: async (source: Source, _args: unknown, context: GraphQLContext) =>
        list(await context.legacy.children(source.uuid, source.__at), source.__at),
      managers: async (source: Source, args: { inherit?: boolean }, context: GraphQLContext) =>
        list(
          await context.legacy.unitDetails('manager', source.uuid, {
            at: source.__at,
            inherit: args.inherit === true,
          }),
          source.__at,
        ),
      owners: async (source: Source, args: { inherit?: boolean }, context: GraphQLContext) =>
        list(
          await context.legacy.unitDetails('owner', source.uuid, {
            at: source.__at,
            inherit: args.inherit === true,
          }),
          source.__at,
        ),
      engagements: async (source: Source, _args: unknown, context: GraphQLContext) =>
        list(await context.legacy.unitDetails('engagement', source.uuid, { at: source.__at }), source.__at),
      itusers: async (source: Source, _args: unknown, context: GraphQLContext) =>
        list(await context.legacy.unitDetails('it', source.uuid, { at: source.__at }), source.__at),
      ...detailLists('unitDetails'),
    },
    Employee: {
      name: employeeField,
      givenname: employeeField,
      surname: employeeField,
      user_key: employeeField,
      // OS2mo's person record has no validity; its `details/employee` versions do.
      validity: async (source: Source, _args: unknown, context: GraphQLContext) => {
        if ('validity' in source) return source.validity;
        const [version] = await context.legacy.employeeVersions(source.uuid, source.__at);
        return version?.validity ?? null;
      },
      engagements: async (source: Source, _args: unknown, context: GraphQLContext) =>
        list(
          await context.legacy.employeeDetails('engagement', source.uuid, { at: source.__at }),
          source.__at,
        ),
      manager_roles: async (source: Source, _args: unknown, context: GraphQLContext) =>
        list(await context.legacy.employeeDetails('manager', source.uuid, { at: source.__at }), source.__at),
      owners: async (source: Source, _args: unknown, context: GraphQLContext) =>
        list(await context.legacy.employeeDetails('owner', source.uuid, { at: source.__at }), source.__at),
      itusers: async (source: Source, _args: unknown, context: GraphQLContext) =>
        list(await context.legacy.employeeDetails('it', source.uuid, { at: source.__at }), source.__at),
      ...detailLists('employeeDetails'),
    },
    Engagement: {
      job_function: classOf('job_function'),
      engagement_type: classOf('engagement_type'),
      employee: personLink('person'),
      org_unit: unitOf,
      employee_uuid: keyOf('person'),
      org_unit_uuid: keyOf('org_unit'),
      job_function_uuid: keyOf('job_function'),
      engagement_type_uuid: keyOf('engagement_type'),
    },
    Manager: {
      manager_type: classOf('manager_type'),
      manager_level: classOf('manager_level'),
      responsibility: (source: Source) =>
        list((source.responsibility as LegacyRecord[] | undefined) ?? [], source.__at),
      employee: personLink('person'),
      org_unit: unitOf,
      // OS2mo's manager record has no `employee_uuid` of its own; the embedded person has the key.
      employee_uuid: keyOf('person'),
      org_unit_uuid: keyOf('org_unit'),
      manager_type_uuid: keyOf('manager_type'),
      manager_level_uuid: keyOf('manager_level'),
    },
    Owner: {
      owner: (source: Source) => ref(source.owner, linkDate(source)),
      person: (source: Source) => ref(source.person, linkDate(source)),
      org_unit: unitOf,
    },
    ITUser: {
      itsystem: (source: Source) => ref(source.itsystem, source.__at),
      employee: (source: Source) => ref(source.person, linkDate(source)),
      org_unit: unitOf,
      itsystem_uuid: keyOf('itsystem'),
      employee_uuid: keyOf('person'),
      org_unit_uuid: keyOf('org_unit'),
    },
    Address: {
      ...personAndUnit,
      engagement_uuid: keyOf('engagement'),
      address_type: classOf('address_type'),
      visibility: classOf('visibility'),
    },
    Association: {
      ...personAndUnit,
      substitute: (source: Source) => ref(source.substitute, linkDate(source)),
      substitute_uuid: keyOf('substitute'),
      association_type: classOf('association_type'),
      primary: classOf('primary'),
      dynamic_classes: classesOf('dynamic_classes'),
    },
    Role: { ...personAndUnit, role_type: classOf('role_type') },
    Leave: {
      employee: personAndUnit.employee,
      employee_uuid: keyOf('person'),
      engagement_uuid: keyOf('engagement'),
      leave_type: classOf('leave_type'),
    },
    KLE: {
      org_unit: unitOf,
      org_unit_uuid: keyOf('org_unit'),
      kle_number: classOf('kle_number'),
      // OS2mo's graph calls the legacy `kle_aspect` list `kle_aspects`.
      kle_aspects: classesOf('kle_aspect'),
    },
    RelatedUnit: {
      org_units: (source: Source) =>
        ((source.org_unit as LegacyRecord[] | undefined) ?? []).map((unit) =>
          withDate(unit, linkDate(source)),
        ),
      org_unit_uuids: (source: Source) =>
        ((source.org_unit as LegacyRecord[] | undefined) ?? []).map((unit) => unit.uuid),
    },
    EngagementAssociation: {
      org_unit: unitOf,
      org_unit_uuid: keyOf('org_unit'),
      engagement_uuid: keyOf('engagement'),
      engagement_association_type: classOf('engagement_association_type'),
    },
    ITSystem: {
      // Only an IT system embedded in an IT account carries its validity; OS2mo's listing does not.
      validity: (source: Source) => source.validity ?? null,
    },
    Class: {
      facet: async (source: Source, _args: unknown, context: GraphQLContext) => {
        // A class embedded in a detail record carries its facet; elsewhere it is read once per class.
        if (source.facet && typeof source.facet === 'object') return ref(source.facet, source.__at);
        const record = await context.legacy.classWithFacet(source.uuid);
        return ref(record?.facet, source.__at);
      },
    },
    Facet: {
      description: async (source: Source, _args: unknown, context: GraphQLContext) => {
        if ('description' in source) return source.description;
        return (await context.legacy.facet(source.uuid))?.description ?? null;
      },
      classes: async (source: Source, _args: unknown, context: GraphQLContext) => {
        const facet = await context.legacy.facet(source.uuid);
        return list(facet?.data.items ?? [], source.__at);
      },
    },
  };
}
