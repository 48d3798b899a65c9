import type { GraphQLResolveInfo } from 'graphql';
import type { GraphQLContext, Source } from '../context.js';
import { unitFilterReads } from './collection-resolvers.js';
import { narrowsByTree, unitsMatching, type UnitFilter } from './unit-filters.js';

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
