import type { GraphQLResolveInfo } from 'graphql';
import { withDate, type GraphQLContext, type Source } from '../context.js';
import { unitFilterReads } from './collection-resolvers.js';
import { filterLink, pageLink, type LinkFilter } from './link-filters.js';
import { oneResponse } from './link-responses.js';
import { narrowsByTree, unitsMatching, type UnitFilter } from './unit-filters.js';
import { unitHierarchyUuid } from './unit-hierarchy.js';

/**
 * `OrganisationUnit.has_children(filter)`: whether the unit has a child as of the unit's own date, or one
 * matching the filter. Without a narrowing member it is the children listing `child_count` reads too.
 */
export async function hasChildren(
  source: Source,
  args: { filter?: UnitFilter | null },
  context: GraphQLContext,
  info: GraphQLResolveInfo,
): Promise<boolean> {
  const reads = unitFilterReads(info, context);
  const filter = args.filter ?? {};
  // A window is held as `child_count` holds it (the link's filter machinery), not dropped: OS2mo answers
  // whether a child matches the whole filter, window included, with the predicate `child_count` counts by
  // (`mora/graphapi/resolvers.py`@HEAD, `organisation_unit_has_children`).
  const dated = filter as { from_date?: unknown; to_date?: unknown };
  if (dated.from_date !== undefined || dated.to_date !== undefined) {
    return (await childCount(source, { filter: args.filter as LinkFilter }, context, info)) > 0;
  }
  if (!narrowsByTree(filter, reads) && !filter.uuids && !filter.user_keys) {
    if (typeof source.child_count === 'number') return source.child_count > 0;
    return (await context.legacy.children(source.uuid, source.__at)).length > 0;
  }
  const children = { ...filter, parents: [source.uuid] };
  const matching = await unitsMatching(context, children, source.__at, {
    ...reads,
    given: (checked, member) => (member === 'parents' ? true : reads.given(checked, member)),
  });
  return matching.length > 0;
}

/**
 * `OrganisationUnit.child_count(filter)`: how many children the unit has as of its own date; with a filter,
 * how many of them the filter keeps (as `children(filter)` lists them); with a page (v21), how many of it.
 */
export async function childCount(
  source: Source,
  args: { filter?: LinkFilter | null; limit?: number | null; cursor?: string | null },
  context: GraphQLContext,
  info: GraphQLResolveInfo,
): Promise<number> {
  const paged = args.limit != null || args.cursor != null;
  if (args.filter == null && !paged && typeof source.child_count === 'number') return source.child_count;
  const children = (await context.legacy.children(source.uuid, source.__at)).map((child) =>
    withDate(child, source.__at),
  );
  const link = { input: 'ParentBoundOrganisationUnitFilter', listing: null };
  const kept =
    args.filter == null
      ? children
      : (await filterLink(children, args.filter, link, source, context, info)).records;
  // v21 counted a page of the children: its `child_count` took `limit` and `cursor`.
  return paged ? pageLink(kept, args).length : kept.length;
}

/** OS2mo's hierarchy fields of a unit: the class in full, its response root, its UUID. */
export const unitHierarchyFields = {
  org_unit_hierarchy: (source: Source, _args: unknown, context: GraphQLContext) =>
    unitHierarchyUuid(source, context),
  org_unit_hierarchy_model: async (source: Source, _args: unknown, context: GraphQLContext) => {
    const uuid = await unitHierarchyUuid(source, context);
    const record = uuid === null ? null : await context.legacy.classWithFacet(uuid);
    return record ? withDate(record, source.__at) : null;
  },
  unit_hierarchy_response: async (source: Source, _args: unknown, context: GraphQLContext) =>
    oneResponse(await unitHierarchyUuid(source, context), { kind: 'class' }, source, context.today),
};
