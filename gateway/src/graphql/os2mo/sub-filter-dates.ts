import { GraphQLError } from 'graphql';
import { NOT_SERVED_CODE, notServedMessage } from './omission-errors.js';

/**
 * A sub-filter's own `from_date`/`to_date` (`engagements(filter: {employee: {from_date: …}})`) asks OS2mo for
 * the people, units or engagements valid in that window (`_get_tilstand_clause` and
 * `_get_active_period_clause` with the sub-filter, `mora/graphapi/resolvers.py`@HEAD), which may differ from
 * the window the listing is read in. The gateway reads a sub-filter's objects as of the listing's own day, so a
 * window given to a sub-filter is refused rather than ignored. `null` (OS2mo's unbounded end) and a
 * sub-filter naming only `uuids` (OS2mo's `uuid_shortcircuit`, which reads no dates) are served.
 */
export function refuseSubFilterDates(member: string, sub: object): void {
  const given = sub as { from_date?: unknown; to_date?: unknown; uuids?: unknown };
  const dated = given.from_date != null ? 'from_date' : given.to_date != null ? 'to_date' : undefined;
  if (dated === undefined) return;
  const onlyUuids = Object.entries(given).every(
    ([key, value]) => key === 'uuids' || key === 'from_date' || key === 'to_date' || value == null,
  );
  if (onlyUuids && given.uuids != null) return;
  const coordinate = `${member}.${dated}`;
  throw new GraphQLError(
    notServedMessage(
      coordinate,
      'a sub-filter is read as of the listing’s own day; give the window to the outer filter, or name the objects by `uuids`',
    ),
    { extensions: { code: NOT_SERVED_CODE, coordinate } },
  );
}
