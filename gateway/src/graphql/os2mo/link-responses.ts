import type { GraphQLContext, Source } from '../context.js';
import type { LegacyRecord } from '../../legacy/legacy-loaders.js';
import { decodeCursor } from '../resolvers/pagination.js';
import { pageOf, responses, type ResponseRoot } from './collection-resolvers.js';
import { v30Collections, type CollectionSource } from './collections-view.js';
import type { DayWindow } from './time-window.js';

/** Where the objects of an `XResponse` (or `XResponsePaged`) come from: the collection of type `X`. */
export function responseTarget(responseType: string): CollectionSource {
  const element = responseType.replace(/[[\]!]/g, '').replace(/ResponsePaged$|Response$/, '');
  const collection = v30Collections.find((view) => view.type === element);
  if (!collection) throw new Error(`${responseType} wraps no collection v30 serves.`);
  return collection.source;
}

const isRecord = (value: unknown): value is Source =>
  typeof value === 'object' && value !== null && 'uuid' in value;

const timeless = (target: CollectionSource) =>
  target.kind === 'class' || target.kind === 'facet' || target.kind === 'itsystem';

/** The unit or person whose detail listing holds a record the source names only by its key. */
function ownerHint(source: Source): ResponseRoot['__owner'] {
  const person = (source.person as LegacyRecord | null | undefined)?.uuid;
  if (person) return { employee: person };
  const unit = (source.org_unit as LegacyRecord | null | undefined)?.uuid;
  return unit ? { unit } : undefined;
}

/**
 * OS2mo's response wrapper of one linked object (OS2mo: `Response(model, uuid=root.x_uuid)`, null without a
 * link). What the link already read is handed on: a class, facet or IT system is the same at every time,
 * and an object read as of today is what `current` shows; a detail record names the listing that holds it.
 */
export function oneResponse(
  value: unknown,
  target: CollectionSource,
  source: Source,
  today: string,
): ResponseRoot | null {
  if (typeof value === 'string') {
    return target.kind === 'detail' ? { uuid: value, __owner: ownerHint(source) } : { uuid: value };
  }
  if (!isRecord(value)) return null;
  if (target.kind === 'detail')
    return responses([value], target, { from: value.__at, to: value.__at }, today)[0] ?? null;
  const current = timeless(target) || value.__at === today;
  return { uuid: value.uuid, ...(current ? { __current: value } : {}) };
}

/**
 * OS2mo's page of response wrappers of a list link (OS2mo's `to_paged_response`): one per object, in the
 * link's order, over the day the link was read as of (or its filter's window), paged as a root collection is.
 */
export function pagedResponse(
  values: unknown,
  target: CollectionSource,
  source: Source,
  context: GraphQLContext,
  args: { limit?: number | null; cursor?: string | null },
  window: DayWindow = { from: source.__at, to: source.__at },
) {
  const records = (Array.isArray(values) ? values : []).filter(isRecord);
  const roots = responses(records, target, window, context.today).map((root) =>
    timeless(target) && !root.__current
      ? { ...root, __current: records.find((record) => record.uuid === root.uuid) }
      : root,
  );
  return pageOf(roots, decodeCursor(args.cursor), args.limit);
}
