import { GraphQLError } from 'graphql';

/** OS2mo reads every date in its own time zone. */
const zone = 'Europe/Copenhagen';

const copenhagenDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: zone,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

const dateOnly = /^(\d{4}-\d{2}-\d{2})$/;
/** A date-time without an offset is Copenhagen's wall clock, as OS2mo reads it. */
const localDateTime = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?$/;

function addDays(date: string, days: number): string {
  const moved = new Date(`${date}T00:00:00Z`);
  moved.setUTCDate(moved.getUTCDate() + days);
  return moved.toISOString().slice(0, 10);
}

function invalid(value: unknown): GraphQLError {
  return new GraphQLError(
    `A date must be written YYYY-MM-DD or as an ISO 8601 date-time; got ${JSON.stringify(value)}.`,
    { extensions: { code: 'BAD_USER_INPUT' } },
  );
}

/** Whether `day` (YYYY-MM-DD) is a day of the calendar (not 2021-02-30). */
function isCalendarDay(day: string): boolean {
  const parsed = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(day);
}

/** An instant, or a Copenhagen wall-clock reading (the day, and whether it is exactly midnight). */
type Moment = { instant: Date } | { day: string; midnight: boolean };

/** The served `DateTime` scalar's parsed value (`../date-time.ts`, `Instant`): a Copenhagen day already. */
function isParsedInstant(value: unknown): value is { day: string; midnight: boolean } {
  if (typeof value !== 'object' || value === null) return false;
  const { day, midnight } = value as { day?: unknown; midnight?: unknown };
  return typeof day === 'string' && dateOnly.test(day) && isCalendarDay(day) && typeof midnight === 'boolean';
}

/**
 * A `DateTime` input as the scalar hands it over: the served scalar's parsed instant, an ISO string (date or
 * date-time) or a `Date`.
 */
function moment(value: unknown): Moment {
  if (isParsedInstant(value)) return { day: value.day, midnight: value.midnight };
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw invalid(value);
    return { instant: value };
  }
  if (typeof value !== 'string') throw invalid(value);
  const date = dateOnly.exec(value);
  if (date && isCalendarDay(date[1]!)) return { day: date[1]!, midnight: true };
  const local = localDateTime.exec(value);
  if (local && isCalendarDay(local[1]!)) {
    const [, day, hours, minutes, seconds = '0', fraction = '0'] = local;
    return { day: day!, midnight: [hours, minutes, seconds, fraction].every((part) => Number(part) === 0) };
  }
  const instant = new Date(value);
  const written = /^(\d{4}-\d{2}-\d{2})T/.exec(value);
  if (Number.isNaN(instant.getTime()) || !written || !isCalendarDay(written[1]!)) throw invalid(value);
  return { instant };
}

const dayOf = (instant: Date) => copenhagenDay.format(instant);

/** The Service API day a start (`from`, inclusive) falls on. */
export function startDay(value: unknown): string {
  const read = moment(value);
  return 'instant' in read ? dayOf(read.instant) : read.day;
}

/**
 * The Service API's last day (its `to` is inclusive) of a period that ends at `value`, exclusive, as OS2mo's
 * GraphQL reads an end since v29 (its migration guide, "Version 29": intervals are `[from, to)`). An end at
 * midnight leaves out that whole day; an end later in the day keeps the day it falls on.
 */
export function lastDayBefore(value: unknown): string {
  const read = moment(value);
  if ('instant' in read) return dayOf(new Date(read.instant.getTime() - 1));
  return read.midnight ? addDays(read.day, -1) : read.day;
}

/** The Service API's last day of a period whose end is inclusive (OS2mo's GraphQL before v29). */
export function lastDayThrough(value: unknown): string {
  return startDay(value);
}

/** How one version reads the end of a period it is given. */
export type EndReading = 'exclusive' | 'inclusive';

export function endDay(value: unknown, reading: EndReading): string {
  return reading === 'exclusive' ? lastDayBefore(value) : lastDayThrough(value);
}
