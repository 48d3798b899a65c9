import type { GraphQLContext } from '../context.js';
import type { LegacyRecord } from '../../legacy/legacy-loaders.js';
import { legacyPaths } from '../../legacy/legacy-paths.js';
import { allOrgUnits, matchesFilter } from '../resolvers/collections.js';
import { unitsInHierarchies } from './unit-hierarchy.js';

/** OS2mo's `OrganisationUnitFilter` members that pick units by the tree, by name or by a search. */
export interface UnitFilter {
  uuids?: string[] | null;
  user_keys?: string[] | null;
  query?: string | null;
  names?: string[] | null;
  parent?: UnitFilter | null;
  parents?: string[] | null;
  child?: UnitFilter | null;
  ancestor?: UnitFilter | null;
  descendant?: UnitFilter | null;
  subtree?: UnitFilter | null;
  engagement?: object | null;
  hierarchy?: { uuids?: string[] | null } | null;
  hierarchies?: string[] | null;
}

/** The members a unit filter narrows by beyond `uuids` and `user_keys`. */
export const unitTreeMembers = [
  'query',
  'names',
  'parent',
  'parents',
  'child',
  'ancestor',
  'descendant',
  'subtree',
  'engagement',
  'hierarchy',
  'hierarchies',
] as const;

/** How a filter's members are read: whether one was given (null is a value for `parent`), and the units
 * of people engaged as an engagement filter says (the detail collections know how to list those). */
export interface UnitFilterReads {
  given(filter: UnitFilter, member: keyof UnitFilter): boolean;
  engagementUnits(filter: object, at: string): Promise<string[]>;
  /** The UUIDs of the hierarchy classes (of the facet `org_unit_hierarchy`) a class filter keeps as of `at`. */
  hierarchyClasses(filter: object, at: string): Promise<string[]>;
}

const isRecord = (value: unknown): value is LegacyRecord =>
  typeof value === 'object' && value !== null && 'uuid' in value;

/** Keeps the items of `list` found in `other`, in `list`'s order. */
function intersect(list: LegacyRecord[], other: readonly LegacyRecord[]): LegacyRecord[] {
  const keep = new Set(other.map((record) => record.uuid));
  return list.filter((record) => keep.has(record.uuid));
}

const distinct = (records: LegacyRecord[]) => [
  ...new Map(records.map((record) => [record.uuid, record])).values(),
];

/** The top-level units as of `at` (OS2mo's `parent: null`). */
async function rootUnits(context: GraphQLContext, at: string): Promise<LegacyRecord[]> {
  const organisation = await context.legacy.organisationUuid();
  return context.legacy.get<LegacyRecord[]>(legacyPaths.rootOrgUnits(organisation, { at }));
}

async function childrenOf(context: GraphQLContext, uuids: readonly string[], at: string) {
  const lists = await Promise.all([...new Set(uuids)].map((uuid) => context.legacy.children(uuid, at)));
  return distinct(lists.flat() as LegacyRecord[]);
}

/** A unit listing narrowed by the Service API itself: its search (`query`) or the units at or below `root`. */
async function listing(context: GraphQLContext, at: string, narrow: { query?: string; root?: string }) {
  const organisation = await context.legacy.organisationUuid();
  const page = await context.legacy.get<{ items: LegacyRecord[] }>(
    legacyPaths.orgUnitPage(organisation, { at, start: 0, limit: 0, ...narrow }),
  );
  return page.items;
}

/** The unit and the chain of its parents as of `at`, nearest first (its record embeds the chain). */
async function withAncestors(context: GraphQLContext, uuid: string, at: string): Promise<LegacyRecord[]> {
  const chain: LegacyRecord[] = [];
  for (let unit: unknown = await context.legacy.orgUnit(uuid, at); isRecord(unit); unit = unit.parent) {
    if (chain.some((seen) => seen.uuid === unit.uuid)) break;
    chain.push(unit as LegacyRecord);
  }
  return chain;
}

/**
 * The units one tree or search member allows, as of `at`; null when the member was not given. Each follows
 * OS2mo's tests (`tests/graphapi/test_organisation_units.py`@HEAD): `parents`/`parent` null is the top level,
 * `subtree`/`descendant` keep the matched units and their ancestors, `ancestor` the matched units and
 * everything below them, `child` the parents of the matched units.
 */
async function memberUnits(
  context: GraphQLContext,
  filter: UnitFilter,
  member: (typeof unitTreeMembers)[number],
  at: string,
  reads: UnitFilterReads,
): Promise<LegacyRecord[] | null> {
  if (!reads.given(filter, member)) return null;
  const matching = (sub: UnitFilter) => unitsMatching(context, sub, at, nestedReads(reads));
  switch (member) {
    case 'query':
      return typeof filter.query === 'string' ? listing(context, at, { query: filter.query }) : null;
    case 'names':
      return null;
    case 'parents':
      return filter.parents == null ? rootUnits(context, at) : childrenOf(context, filter.parents, at);
    case 'parent':
      return filter.parent == null
        ? rootUnits(context, at)
        : childrenOf(
            context,
            (await matching(filter.parent)).map((unit) => unit.uuid),
            at,
          );
    case 'child': {
      if (filter.child == null) return null;
      const chains = await Promise.all(
        (await matching(filter.child)).map((unit) => withAncestors(context, unit.uuid, at)),
      );
      return distinct(chains.flatMap((chain) => chain.slice(1, 2)));
    }
    case 'ancestor': {
      if (filter.ancestor == null) return null;
      const below = await Promise.all(
        (await matching(filter.ancestor)).map((unit) => listing(context, at, { root: unit.uuid })),
      );
      return distinct(below.flat());
    }
    case 'descendant':
    case 'subtree': {
      const sub = filter[member];
      if (sub == null) return null;
      const chains = await Promise.all(
        (await matching(sub)).map((unit) => withAncestors(context, unit.uuid, at)),
      );
      return distinct(chains.flat());
    }
    case 'hierarchy':
    case 'hierarchies':
      // Decided once for both members, in `hierarchyUnits`.
      return null;
    case 'engagement': {
      if (filter.engagement == null) return null;
      const uuids = new Set(await reads.engagementUnits(filter.engagement, at));
      return (await allOrgUnits(context, at)).filter((unit) => uuids.has(unit.uuid));
    }
  }
}

/** Inside a nested filter, a member is given when the object holds it (null included). */
export function nestedReads(
  reads: Pick<UnitFilterReads, 'engagementUnits' | 'hierarchyClasses'>,
): UnitFilterReads {
  return { ...reads, given: (filter, member) => member in filter };
}

/**
 * The units (listing records: uuid, name, user_key) a unit filter selects as of `at`, in the order the
 * first narrowing member lists them; every member given must hold.
 */
export async function unitsMatching(
  context: GraphQLContext,
  filter: UnitFilter,
  at: string,
  reads: UnitFilterReads,
): Promise<LegacyRecord[]> {
  const [narrowed, inHierarchy] = await Promise.all([
    Promise.all(unitTreeMembers.map((member) => memberUnits(context, filter, member, at, reads))),
    hierarchyUnits(context, filter, at, reads),
  ]);
  let units: LegacyRecord[] | null = null;
  for (const found of narrowed) if (found !== null) units = units === null ? found : intersect(units, found);
  units ??= await allOrgUnits(context, at);
  const names = reads.given(filter, 'names') ? filter.names : null;
  return units.filter(
    (unit) =>
      matchesFilter(unit, filter) &&
      (names == null || names.includes(String(unit.name ?? ''))) &&
      (inHierarchy === null || inHierarchy.has(unit.uuid)),
  );
}

/**
 * The UUIDs of the units a filter's `hierarchy` and `hierarchies` keep as of `at`; null when neither is given
 * (null filters nothing). As OS2mo (`mora/graphapi/resolvers.py`@HEAD, `handle_deprecated_hierarchy_filters`
 * and the `# Hierarchies` clause of the unit predicate): `hierarchies` is added to `hierarchy.uuids`; given
 * `uuids` are the hierarchies as they are (`uuid_shortcircuit`), else the classes the class filter keeps (an
 * empty filter: every hierarchy); a unit is kept when it belongs to one of them (an empty list keeps none).
 */
async function hierarchyUnits(
  context: GraphQLContext,
  filter: UnitFilter,
  at: string,
  reads: UnitFilterReads,
): Promise<Set<string> | null> {
  if (filter.hierarchy == null && filter.hierarchies == null) return null;
  const classFilter = { ...filter.hierarchy };
  if (filter.hierarchies != null) classFilter.uuids = [...(classFilter.uuids ?? []), ...filter.hierarchies];
  const hierarchies = classFilter.uuids ?? (await reads.hierarchyClasses(classFilter, at));
  return unitsInHierarchies(context, hierarchies, at);
}

/**
 * Whether a unit filter narrows by the tree, by name or by a search (else `uuids` and `user_keys` do). A member
 * given as null narrows nothing (`memberUnits`), except `parent`/`parents`, whose null is the top level: a
 * filter in a variable carries its members' defaults (`engagement: null`, `hierarchy: null`), which must not
 * turn a listing over a window into today's units.
 */
export function narrowsByTree(filter: UnitFilter, reads: Pick<UnitFilterReads, 'given'>): boolean {
  return unitTreeMembers.some(
    (member) =>
      reads.given(filter, member) && (filter[member] != null || member === 'parent' || member === 'parents'),
  );
}
