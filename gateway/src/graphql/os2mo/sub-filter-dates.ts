import {
  getNamedType,
  GraphQLError,
  isInputObjectType,
  type GraphQLInputObjectType,
  type GraphQLResolveInfo,
} from 'graphql';
import type { Instant } from './date-time.js';
import { NOT_SERVED_CODE, notServedMessage } from './omission-errors.js';
import { dayWindow } from './time-window.js';

/** Classes, facets and IT systems have no validity in 2.x: a window on their sub-filters changes nothing. */
const timeless = (type: GraphQLInputObjectType) => /(Class|Facet|ITSystem)Filter$/i.test(type.name);

/** The day the listing reads its sub-filters' objects as of, and today (a sub-filter's absent start). */
interface ListingDay {
  day: string;
  today: string;
}

/**
 * Refuses a window given to a sub-filter at any depth (`engagements(filter: {employee: {from_date: …}})`)
 * that differs from the day the listing is read as of. OS2mo picks a sub-filter's people, units, engagements
 * or IT users valid in the sub-filter's own window (`_get_tilstand_clause` and `_get_active_period_clause` with
 * the sub-filter, `mora/graphapi/resolvers.py`@HEAD); the gateway reads a sub-filter's objects as of the
 * listing's own day, so another window is refused rather than ignored. Served: a window that is that day
 * (os2mo-naldo's tree gives its date to the outer filter and the sub-filter alike), a sub-filter naming only
 * `uuids` (OS2mo's `uuid_shortcircuit`, which reads no dates), and a window on a class, facet or IT system
 * (which 2.x keeps without validity). A unit `hierarchy` is read as of the listing's day too (2.4.0's
 * children reads filter by it as of `at`), so it gets no exemption.
 */
export function refuseSubFilterWindows(info: GraphQLResolveInfo, filter: unknown, listing: ListingDay): void {
  if (typeof filter !== 'object' || filter === null) return;
  const field = info.parentType?.getFields()[info.fieldName];
  const type = getNamedType(field?.args.find((arg) => arg.name === 'filter')?.type);
  if (isInputObjectType(type)) walk(type, filter as Record<string, unknown>, '', listing);
}

function walk(
  type: GraphQLInputObjectType,
  value: Record<string, unknown>,
  path: string,
  listing: ListingDay,
): void {
  const fields = type.getFields();
  for (const [member, inner] of Object.entries(value)) {
    const named = getNamedType(fields[member]?.type);
    if (!isInputObjectType(named) || typeof inner !== 'object' || inner === null) continue;
    const at = path === '' ? member : `${path}.${member}`;
    const sub = inner as Record<string, unknown>;
    if (!timeless(named)) refuseWindow(at, sub, listing);
    walk(named, sub, at, listing);
  }
}

function refuseWindow(at: string, sub: Record<string, unknown>, listing: ListingDay): void {
  if (sub.from_date === undefined && sub.to_date === undefined) return;
  const window = dayWindow(
    sub.from_date as Instant | null | undefined,
    sub.to_date as Instant | null | undefined,
    listing.today,
    { start: `filter.${at}.from_date`, end: `filter.${at}.to_date` },
  );
  if (window.from === listing.day && window.to === listing.day) return;
  const onlyUuids = Object.entries(sub).every(
    ([key, value]) => key === 'uuids' || key === 'from_date' || key === 'to_date' || value == null,
  );
  if (onlyUuids && sub.uuids != null) return;
  const dated = sub.from_date !== undefined && window.from !== listing.day ? 'from_date' : 'to_date';
  const coordinate = `filter.${at}.${dated}`;
  throw new GraphQLError(
    notServedMessage(
      coordinate,
      'a sub-filter is read as of the listing’s own day; give the window to the outer filter, or name the objects by `uuids`',
    ),
    { extensions: { code: NOT_SERVED_CODE, coordinate } },
  );
}
