import type { GraphQLResolveInfo } from 'graphql';
import type { GraphQLContext, Source } from '../context.js';
import { withDate } from '../context.js';
import type { DetailType, LegacyRecord } from '../../legacy/legacy-loaders.js';
import { graphLinks, type GatewayRecipe, type GraphLink } from '../graph-links.js';
import { v1ListLinks } from '../schema/v1-transform.js';

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

/** The UUID of an embedded reference, or null: OS2mo's graph shows these keys as `*_uuid` fields. */
const keyOf = (field: string) => (source: Source) => {
  const value = source[field];
  return value && typeof value === 'object' && 'uuid' in value ? (value as LegacyRecord).uuid : null;
};

/** How a version shows a link to one object: the object (v2) or a list of zero or one (v1). */
export type LinkShape = (source: Source | null) => Source | Source[] | null;
export const singleLink: LinkShape = (source) => source;
export const listLink: LinkShape = (source) => (source === null ? [] : [source]);

type Link = Exclude<GraphLink, { kind: 'custom' }>;
type TypeResolvers = Record<string, Record<string, Resolver>>;

/** A generic link's resolver, built once per version from its declaration in `graph-links.ts`. */
function linkResolver(coordinate: string, link: Link, shape: LinkShape): Resolver {
  switch (link.kind) {
    case 'listing': {
      const read = link.of === 'unit' ? 'unitDetails' : 'employeeDetails';
      const type = link.detail;
      if (link.inherit)
        return async (source, args, context) =>
          list(
            await context.legacy[read](type, source.uuid, {
              at: source.__at,
              inherit: args.inherit === true,
            }),
            source.__at,
          );
      return async (source, _args, context) =>
        list(await context.legacy[read](type, source.uuid, { at: source.__at }), source.__at);
    }
    case 'reference': {
      const field = link.field;
      // v1 lists a few links to one object (`v1ListLinks`); every other version and link shows the object.
      if (coordinate in v1ListLinks) return (source) => shape(ref(source[field], linkDate(source)));
      return (source) => ref(source[field], linkDate(source));
    }
    case 'references': {
      const field = link.field;
      return (source) =>
        ((source[field] as LegacyRecord[] | undefined) ?? []).map((record) =>
          withDate(record, linkDate(source)),
        );
    }
    case 'key':
      return keyOf(link.field);
    case 'keys': {
      const field = link.field;
      return (source) => ((source[field] as LegacyRecord[] | undefined) ?? []).map((record) => record.uuid);
    }
  }
}

/**
 * The declared links' resolvers: the generic kinds built from `graph-links.ts`, and the custom ones whose
 * recipe the gateway keeps in `module` (given as `recipes`). Fails when a custom link of that module has no
 * recipe, or a recipe is given for a field the declaration does not give that module.
 */
export function declaredLinkResolvers(
  shape: LinkShape,
  module: Exclude<GatewayRecipe, 'none'>,
  recipes: TypeResolvers,
): TypeResolvers {
  const resolvers: TypeResolvers = {};
  for (const [type, fields] of Object.entries(graphLinks) as [string, Record<string, GraphLink>][]) {
    const own: Record<string, Resolver> = {};
    for (const [field, link] of Object.entries(fields)) {
      const coordinate = `${type}.${field}`;
      if (link.kind !== 'custom') {
        if (module === 'entities') own[field] = linkResolver(coordinate, link, shape);
      } else if (link.gateway === module) {
        const recipe = recipes[type]?.[field];
        if (!recipe)
          throw new Error(`${coordinate} is declared custom in ${module} but has no recipe there.`);
        own[field] = recipe;
      }
    }
    if (Object.keys(own).length > 0) resolvers[type] = own;
  }
  for (const [type, fields] of Object.entries(recipes)) {
    for (const field of Object.keys(fields)) {
      const link = (graphLinks as Record<string, Record<string, GraphLink>>)[type]?.[field];
      if (link?.kind !== 'custom' || link.gateway !== module)
        throw new Error(
          `${type}.${field} has a recipe in ${module} but graph-links.ts does not declare it there.`,
        );
    }
  }
  return resolvers;
}

/** The custom links whose recipe is here (`graph-links.ts` says which). */
function entityLinkRecipes(): TypeResolvers {
  return {
    OrgUnit: {
      children: async (source, _args, context) =>
        list(await context.legacy.children(source.uuid, source.__at), source.__at),
    },
    Employee: {
      // OS2mo's person record has no validity; its `details/employee` versions do.
      validity: async (source, _args, context) => {
        if ('validity' in source) return source.validity;
        const [version] = await context.legacy.employeeVersions(source.uuid, source.__at);
        return version?.validity ?? null;
      },
    },
    ITUser: {
      // The IT account's embed carries the system's validity.
      itsystem: (source) => ref(source.itsystem, source.__at),
    },
    ITSystem: {
      // Only an IT system embedded in an IT account carries its validity; OS2mo's listing does not.
      validity: (source) => source.validity ?? null,
    },
    Class: {
      facet: async (source, _args, context) => {
        // A class embedded in a detail record carries its facet; elsewhere it is read once per class.
        if (source.facet && typeof source.facet === 'object') return ref(source.facet, source.__at);
        const record = await context.legacy.classWithFacet(source.uuid);
        return ref(record?.facet, source.__at);
      },
    },
    Facet: {
      classes: async (source, _args, context) => {
        const facet = await context.legacy.facet(source.uuid);
        return list(facet?.data.items ?? [], source.__at);
      },
    },
  };
}

/** The contract's fields the gateway resolves itself: read from the full record, or embedded classes. */
function contractFieldResolvers(link: LinkShape) {
  const orgUnitField = fieldOrFull(fullOrgUnit);
  const employeeField = fieldOrFull(fullEmployee);
  const classOf = (field: string) => (source: Source) => ref(source[field], source.__at);
  const classesOf = (field: string) => (source: Source) =>
    list((source[field] as LegacyRecord[] | undefined) ?? [], source.__at);
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
    },
    Employee: {
      name: employeeField,
      givenname: employeeField,
      surname: employeeField,
      user_key: employeeField,
    },
    Engagement: {
      job_function: classOf('job_function'),
      engagement_type: classOf('engagement_type'),
    },
    Manager: {
      manager_type: classOf('manager_type'),
      manager_level: classOf('manager_level'),
      responsibility: classesOf('responsibility'),
      // OS2mo's manager record has no `employee_uuid` of its own; the embedded person has the key.
      employee_uuid: keyOf('person'),
    },
    Address: {
      address_type: classOf('address_type'),
      visibility: classOf('visibility'),
    },
    Association: {
      association_type: classOf('association_type'),
      primary: classOf('primary'),
      dynamic_classes: classesOf('dynamic_classes'),
    },
    Role: { role_type: classOf('role_type') },
    Leave: { leave_type: classOf('leave_type') },
    KLE: {
      kle_number: classOf('kle_number'),
      // OS2mo's graph calls the legacy `kle_aspect` list `kle_aspects`.
      kle_aspects: classesOf('kle_aspect'),
    },
    EngagementAssociation: {
      engagement_association_type: classOf('engagement_association_type'),
    },
    Facet: {
      description: async (source: Source, _args: unknown, context: GraphQLContext) => {
        if ('description' in source) return source.description;
        return (await context.legacy.facet(source.uuid))?.description ?? null;
      },
    },
  };
}

/** Resolvers for the org graph's entity types; `link` decides the v1/v2 shape of `employee` and `parent`. */
export function entityResolvers(link: LinkShape) {
  const contractFields = contractFieldResolvers(link);
  const links = declaredLinkResolvers(link, 'entities', entityLinkRecipes());
  const resolvers: Record<string, Record<string, unknown>> = { ...contractFields };
  for (const [type, fields] of Object.entries(links)) {
    const own = resolvers[type] ?? {};
    const twice = Object.keys(fields).find((field) => field in own);
    if (twice) throw new Error(`${type}.${twice} is a declared link and a contract field resolver at once.`);
    resolvers[type] = { ...own, ...fields };
  }
  return resolvers as typeof contractFields & TypeResolvers;
}

/** The detail listings a unit's links read, by field (`managers` reads `/details/manager`, …). */
export const unitListings: readonly (readonly [string, DetailType])[] = Object.entries(
  graphLinks.OrgUnit,
).flatMap(([field, link]) => (link.kind === 'listing' ? [[field, link.detail] as const] : []));
