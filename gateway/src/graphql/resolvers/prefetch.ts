import type { GraphQLResolveInfo } from 'graphql';
import type { GraphQLContext } from '../context.js';
import type { DetailType } from '../legacy-loaders.js';
import { selectedFields, usesDefaultArguments } from './lookahead.js';

const unitLinks: [string, DetailType | 'children'][] = [
  ['managers', 'manager'],
  ['owners', 'owner'],
  ['engagements', 'engagement'],
  ['itusers', 'it'],
  ['children', 'children'],
];

/**
 * Starts, in the same round as the units themselves, the per-unit reads the selection under
 * `objects` will make (managers, owners, engagements, IT users, children), so the query needs one
 * dependent round fewer. Only selections with default arguments are prefetched: a prefetch is always
 * a read the query makes anyway.
 */
export function prefetchUnitLinks(
  info: GraphQLResolveInfo,
  context: GraphQLContext,
  uuids: readonly string[],
  at: string,
): void {
  for (const [field, type] of unitLinks) {
    if (!usesDefaultArguments(selectedFields(info, ['objects', field]))) continue;
    for (const uuid of uuids) {
      const load =
        type === 'children'
          ? context.legacy.children(uuid, at)
          : context.legacy.unitDetails(type, uuid, { at });
      // The resolver awaits the same cached promise and reports its error; this one must not be unhandled.
      load.catch(() => undefined);
    }
  }
}
