import type { GraphQLContext, Source } from '../context.js';
import { LegacyResponseError } from '../../legacy/legacy-client.js';
import { classRecords, matchesFilter } from '../resolvers/collections.js';
import { asksForParent, type FacetFilter } from './facet-filters.js';
import { nestedReads, unitsMatching, type UnitFilter, type UnitFilterReads } from './unit-filters.js';

/** OS2mo's `ClassOwnerFilter`: a unit filter for the class's owner, and whether classes without one count. */
export interface ClassOwnerFilter extends UnitFilter {
  include_none?: boolean | null;
}

/**
 * How an owner filter's unit members are read: the units of the engagements an `engagement` member finds, and
 * the hierarchy classes a `hierarchy` member keeps.
 */
export type OwnerReads = Pick<UnitFilterReads, 'engagementUnits' | 'hierarchyClasses'>;

/** OS2mo's `ClassFilter` members the Service API's class reads can decide. */
export interface ClassFilter {
  uuids?: string[] | null;
  user_keys?: string[] | null;
  facet?: FacetFilter | null;
  facets?: string[] | null;
  facet_user_keys?: string[] | null;
  name?: string[] | null;
  scope?: string[] | null;
  parent?: ClassFilter | null;
  parents?: string[] | null;
  parent_user_keys?: string[] | null;
  it_system?: object | null;
  owner?: ClassOwnerFilter | null;
}

/**
 * The facets (by user key) a class filter names through `facet`, `facets` or `facet_user_keys`; null: any.
 * A `facet` asking for a parent facet names none, unless UUIDs name the facets: OS2mo then takes those UUIDs
 * whatever else the sub-filter says (`uuid_shortcircuit`, `mora/graphapi/resolvers.py`@66.1.2:111-122, used
 * for a class's facet at :466-483, with `facets` folded into the UUIDs).
 */
async function facetKeysOf(context: GraphQLContext, filter: ClassFilter): Promise<string[] | null> {
  let keys: string[] | null = filter.facet_user_keys ?? null;
  const narrow = (named: string[]) => (keys = keys ? keys.filter((key) => named.includes(key)) : named);
  const { facet, facets } = filter;
  if (facet?.uuids == null && facets == null && asksForParent(facet)) return [];
  if (facet?.uuids || facet?.user_keys || facets) {
    const all = await context.legacy.facets();
    if (facet?.uuids || facet?.user_keys) {
      narrow(all.filter((record) => matchesFilter(record, facet)).map((record) => String(record.user_key)));
    }
    if (facets) {
      narrow(all.filter((record) => facets.includes(record.uuid)).map((record) => String(record.user_key)));
    }
  }
  return keys;
}

/** The UUIDs of the classes directly below the classes a filter's parent members select; null: any. */
async function childUuids(context: GraphQLContext, filter: ClassFilter, at: string, reads: OwnerReads) {
  const parentSets: string[][] = [];
  if (filter.parents) parentSets.push(filter.parents);
  if (filter.parent_user_keys) {
    const keyed = await classesMatching(context, { user_keys: filter.parent_user_keys }, at, reads);
    parentSets.push(keyed.map((record) => record.uuid));
  }
  if (filter.parent)
    parentSets.push((await classesMatching(context, filter.parent, at, reads)).map((c) => c.uuid));
  if (parentSets.length === 0) return null;
  const children = await Promise.all(
    parentSets.map(async (parents) => {
      const lists = await Promise.all(
        // A parent no class has has no children: OS2mo's `parents` then keeps none, not an error.
        [...new Set(parents)].map((uuid) =>
          context.legacy.classChildren(uuid).catch((error: unknown) => {
            if (error instanceof LegacyResponseError && error.status === 404) return [];
            throw error;
          }),
        ),
      );
      return new Set(lists.flat().map((child) => child.uuid));
    }),
  );
  return children.reduce((kept, next) => new Set([...kept].filter((uuid) => next.has(uuid))));
}

/** The owner unit a class names: the Service API gives its UUID (OS2mo 2.4.0 `service/facet.py`), or null. */
function ownerOf(record: Source): string | null {
  const owner = record.owner as string | { uuid?: string } | null | undefined;
  if (typeof owner === 'string') return owner;
  return owner?.uuid ?? null;
}

/**
 * The classes an owner filter keeps, as OS2mo's class predicate (`mora/graphapi/resolvers.py`@HEAD): those
 * whose owner is a unit the filter matches, and with `include_none` those without an owner. Only the
 * owners the classes name are matched, so classes that all lack one need no unit read.
 */
export async function classesOwnedBy<T extends Source>(
  context: GraphQLContext,
  records: readonly T[],
  owner: ClassOwnerFilter,
  at: string,
  reads: OwnerReads,
): Promise<T[]> {
  const named = [...new Set(records.map(ownerOf).filter((uuid): uuid is string => uuid !== null))];
  const { include_none: includeNone, ...unitFilter } = owner;
  const candidates = unitFilter.uuids ? named.filter((uuid) => unitFilter.uuids!.includes(uuid)) : named;
  const matched = new Set(
    candidates.length === 0
      ? []
      : (await unitsMatching(context, { ...unitFilter, uuids: candidates }, at, nestedReads(reads))).map(
          (unit) => unit.uuid,
        ),
  );
  return records.filter((record) => {
    const uuid = ownerOf(record);
    return uuid === null ? includeNone === true : matched.has(uuid);
  });
}

/**
 * Whether a class filter names facets (or asks for facets with a parent, which names none), which decide
 * whose classes are read rather than which are kept.
 */
export const namesFacets = (filter: ClassFilter): boolean =>
  filter.facet?.uuids != null ||
  filter.facet?.user_keys != null ||
  asksForParent(filter.facet) ||
  filter.facets != null ||
  filter.facet_user_keys != null;

/**
 * The classes among `records` a class filter keeps, as of `at`, by every member but the facet ones: by UUID,
 * user key, name and scope (OS2mo's `tests/graphapi/test_classes.py`@HEAD: `name` and `scope` match exactly,
 * null is no filter), by parent through the Service API's children listings, and by owner. A link's classes
 * are decided here on the classes the link holds; the collection reads its classes first.
 */
export async function classesAmong<T extends Source>(
  context: GraphQLContext,
  records: readonly T[] | Promise<readonly T[]>,
  filter: ClassFilter,
  at: string,
  reads: OwnerReads,
): Promise<T[]> {
  // A 2.x class names no IT system (the contract's `Class` has none): an IT-system filter keeps none.
  if (filter.it_system != null) return [];
  const [listed, children] = await Promise.all([records, childUuids(context, filter, at, reads)]);
  const kept = listed.filter(
    (record) =>
      matchesFilter(record, filter) &&
      (!filter.name || filter.name.includes(String(record.name))) &&
      (!filter.scope || filter.scope.includes(String(record.scope))) &&
      (!children || children.has(record.uuid)),
  );
  return filter.owner == null ? kept : classesOwnedBy(context, kept, filter.owner, at, reads);
}

/**
 * The classes a class filter selects, as of `at`: those of the facets it names (every facet's without),
 * kept by `classesAmong`. Null members filter nothing, as OS2mo's defaults say.
 */
export async function classesMatching(
  context: GraphQLContext,
  filter: ClassFilter,
  at: string,
  reads: OwnerReads,
): Promise<Source[]> {
  if (filter.it_system != null) return [];
  const records = facetKeysOf(context, filter).then((keys) =>
    classRecords(context, { uuids: filter.uuids, facets: keys }, at),
  );
  return classesAmong(context, records, filter, at, reads);
}
