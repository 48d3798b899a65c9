import type { GraphQLResolveInfo } from 'graphql';
import type { GraphQLContext, Source } from '../context.js';
import type { DetailType, LegacyRecord } from '../../legacy/legacy-loaders.js';
import { matchesFilter } from '../resolvers/collections.js';
import { classesOwnedBy, type ClassOwnerFilter } from './class-filters.js';
import { detailListing, ownerReads, windowOf } from './collection-resolvers.js';
import type { Instant } from './date-time.js';
import type { DayWindow } from './time-window.js';

/** A link's filter as the gateway serves it: OS2mo's `*Bound*Filter` members the Service API can back. */
export interface LinkFilter {
  uuids?: string[] | null;
  user_keys?: string[] | null;
  from_date?: Instant | null;
  to_date?: Instant | null;
  it_system?: object | null;
  owner?: ClassOwnerFilter | null;
}

/** The bound filters of links to classes, which filter by the class's owner too. */
const classLinkFilters: ReadonlySet<string> = new Set(['FacetBoundClassFilter', 'ItSystemboundclassfilter']);

/**
 * OS2mo's bound filter types of the links the gateway filters, each with the members it serves; a
 * `UuidsBound…` filter is bound to the link's own UUIDs and has no `uuids` of its own.
 */
export const linkFilterTypeDefs = (names: readonly string[]) =>
  names
    .map(
      (name) => `
"""Which of the link's objects to give: those matching every field given, valid somewhere in [from_date, to_date)."""
input ${name} {${name.startsWith('UuidsBound') ? '' : '\n  uuids: [UUID!] = null'}
  user_keys: [String!] = null
  from_date: DateTime
  to_date: DateTime${name === 'FacetBoundClassFilter' ? '\n  it_system: ITSystemFilter = null' : ''}${classLinkFilters.has(name) ? '\n  owner: ClassOwnerFilter = null' : ''}
}
`,
    )
    .join('');

/** Where a filtered link's objects come from: a unit's or a person's detail listing of one type. */
export interface LinkListing {
  type: DetailType;
  owner: 'unit' | 'employee';
}

/**
 * A link's objects narrowed by its `filter`, as OS2mo's seeded resolvers narrow them: the window
 * (`from_date`, `to_date`; absent: today, OS2mo's `get_date_interval`) reads the owner's listing over it
 * when it is not the day the link was read as of, then `uuids` and `user_keys` keep the matching objects.
 * A class filter by IT system keeps none: no 2.x class names an IT system (`backend-holds-none.ts`); one by
 * owner keeps the classes OS2mo's owner filter keeps (`class-filters.ts`).
 */
export async function filterLink(
  records: readonly Source[],
  filter: LinkFilter,
  listing: LinkListing | null,
  source: Source,
  context: GraphQLContext,
  info: GraphQLResolveInfo,
): Promise<{ records: Source[]; window: DayWindow }> {
  const day = { from: source.__at, to: source.__at };
  if (listing === null) {
    let kept = (filter.it_system != null ? [] : records).filter((r) =>
      matchesFilter(r as LegacyRecord, filter),
    );
    if (filter.owner != null)
      kept = await classesOwnedBy(context, kept, filter.owner, source.__at, ownerReads(context));
    return { records: kept, window: day };
  }
  const window = windowOf(filter as never, info, context.today);
  const sameDay = window.from === day.from && window.to === day.to;
  const read = sameDay
    ? records
    : await detailListing(context, listing.type, { [listing.owner]: source.uuid }, window);
  return { records: read.filter((record) => matchesFilter(record as LegacyRecord, filter)), window };
}
