import type { GraphQLResolveInfo } from 'graphql';
import type { GraphQLContext } from '../context.js';
import type { DetailType } from '../../legacy/legacy-loaders.js';
import { unitListings } from './entities.js';
import { childFieldNames, selectedFields, usesDefaultArguments } from './lookahead.js';

const unitLinks: (readonly [string, DetailType | 'children'])[] = [...unitListings, ['children', 'children']];

/**
 * Starts, in the same round as the units themselves, the per-unit reads the selection under
 * `objects` will make (managers, owners, engagements, IT users, children and every other detail listing), so the query needs one
 * dependent round fewer. Only selections with default arguments are prefetched, so a prefetch is the read
 * the field itself would make; `@skip` and `@include` are not evaluated here (the selection is read once per
 * document, not per variables), so a field they leave out still costs its prefetched read.
 */
export function prefetchUnitLinks(
  info: GraphQLResolveInfo,
  context: GraphQLContext,
  uuids: readonly string[],
  at: string,
  /** Where the units are selected below the root field: `objects` (v1, v2) or `objects.current` (v30). */
  prefix: readonly string[] = ['objects'],
): void {
  for (const [field, type] of unitLinks) {
    if (!usesDefaultArguments(selectedFields(info, [...prefix, field]))) continue;
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

/** Unit fields a manager record's embedded `org_unit` carries. */
const embeddedUnitFields = new Set(['uuid', 'name', 'user_key', 'validity', '__typename']);

/**
 * True when everything selected under `objects` is either in a manager record's embedded unit or the
 * managers themselves: then the manager listings alone answer the query and the units need no read of
 * their own (a unit without managers still gets one).
 */
export function unitsAnswerableFromManagers(
  info: GraphQLResolveInfo,
  prefix: readonly string[] = ['objects'],
): boolean {
  const managers = selectedFields(info, [...prefix, 'managers']);
  if (!usesDefaultArguments(managers)) return false;
  return childFieldNames(info, prefix).every((name) => name === 'managers' || embeddedUnitFields.has(name));
}
