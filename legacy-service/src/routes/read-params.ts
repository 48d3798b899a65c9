import type { Context } from 'hono';
import { invalid } from '../errors.js';
import { readDateParam } from '../input.js';
import type { IsoDate } from '../model.js';
import { isIsoDate, today, type ValidityFilter } from '../time.js';

export interface TimeParams {
  at: IsoDate;
  validity: ValidityFilter | { from: IsoDate; to: IsoDate };
}

const validityFilters: readonly ValidityFilter[] = ['present', 'past', 'future'];

/** An ISO date-time such as `2017-01-01T00:00:00+01:00`, as OS2mo's `at` also takes. */
const dateTimePattern = /^(\d{4}-\d{2}-\d{2})[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * `at=YYYY-MM-DD` or an ISO date-time (default today; a date-time reads as its calendar date) and
 * `validity=present|past|future` (default present).
 */
export function readTimeParams(c: Context, clock: () => Date): TimeParams {
  const rawAt = c.req.query('at');
  const dateTime = rawAt === undefined ? null : dateTimePattern.exec(rawAt);
  const at = readDateParam('at', dateTime ? dateTime[1] : rawAt, today(clock()));
  const validity = c.req.query('validity') ?? 'present';
  if (validityFilters.includes(validity as ValidityFilter))
    return { at, validity: validity as ValidityFilter };
  // OS2mo also takes an interval `FROM/TO` (records that overlap it); an open end is written `infinity`.
  const interval = /^([^/]+)\/([^/]+)$/.exec(validity);
  const from = interval && readIntervalEnd(interval[1]!, '0001-01-01');
  const to = interval && readIntervalEnd(interval[2]!, '9999-12-31');
  if (!from || !to || to < from) throw invalid.validityFilter(validity);
  return { at, validity: { from, to } };
}

function readIntervalEnd(value: string, infinity: IsoDate): IsoDate | null {
  if (value === 'infinity' || value === '-infinity') return infinity;
  const dateTime = dateTimePattern.exec(value);
  const date = dateTime ? dateTime[1]! : value;
  return isIsoDate(date) ? date : null;
}

/** A flag as OS2mo reads one: false when absent or `0`, `false`, `no`, `n` (any case); anything else is true. */
export function readFlag(c: Context, name: string): boolean {
  const value = (c.req.query(name) ?? '').toLowerCase();
  return !['', '0', 'no', 'n', 'false'].includes(value);
}

/** OS2mo's default time zone (`mora.util.DEFAULT_TIMEZONE`): a time written without an offset is read in it. */
const defaultTimeZone = 'Europe/Copenhagen';

const changedSincePattern =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Minutes `timeZone` is ahead of UTC at `instant`. */
function zoneOffsetMinutes(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const field = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  const local = Date.UTC(field('year'), field('month') - 1, field('day'), field('hour'), field('minute'));
  return Math.round((local - Math.floor(instant / 60_000) * 60_000) / 60_000);
}

/**
 * `changed_since` as 2.4.0 reads it (`Optional[Union[date, datetime]]`, then `date_to_datetime`): a date is
 * its midnight, a date-time without an offset is in Copenhagen time. Anything else is OS2mo's request
 * validation error.
 */
export function readChangedSince(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const match = changedSincePattern.exec(value);
  const refuse = () =>
    invalid.input([{ key: 'changed_since', message: 'must be an ISO 8601 date or date-time' }]);
  if (!match) throw refuse();
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone] = match;
  const wallClock = Date.UTC(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hour),
    Number(minute),
    Number(second),
    Number(fraction.padEnd(3, '0').slice(0, 3)),
  );
  const asUtc = new Date(wallClock);
  if (
    Number.isNaN(wallClock) ||
    asUtc.getUTCDate() !== Number(day) ||
    asUtc.getUTCMonth() !== Number(month) - 1 ||
    Number(hour) > 23 ||
    Number(minute) > 59 ||
    Number(second) > 59
  ) {
    throw refuse();
  }
  if (zone === undefined) return new Date(wallClock - zoneOffsetMinutes(wallClock, defaultTimeZone) * 60_000);
  if (zone === 'Z') return asUtc;
  const sign = zone.startsWith('-') ? -1 : 1;
  const [hours, minutes] = [Number(zone.slice(1, 3)), Number(zone.slice(-2))];
  return new Date(wallClock - sign * (hours * 60 + minutes) * 60_000);
}
