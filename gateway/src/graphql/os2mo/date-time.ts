import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';

/** OS2mo renders every instant in the organisation's own time zone. */
const zone = 'Europe/Copenhagen';

const offsetFormat = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
const dateFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: zone,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** Copenhagen's offset at an instant, written `+01:00` or `+02:00`. */
function offsetAt(instant: Date): string {
  const name = offsetFormat.formatToParts(instant).find((part) => part.type === 'timeZoneName')?.value;
  const offset = name?.replace('GMT', '') ?? '';
  return offset === '' ? '+00:00' : offset;
}

/** A legacy date (`YYYY-MM-DD`) as OS2mo renders the start of that day: `2026-01-02T00:00:00+01:00`. */
export function copenhagenMidnight(date: string): string {
  // Guess the offset at UTC midnight, step back to local midnight, and take the offset in force there.
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  const [sign, hours, minutes] =
    /^([+-])(\d{2}):(\d{2})$/.exec(offsetAt(new Date(utcMidnight)))?.slice(1) ?? [];
  const guess = (sign === '-' ? -1 : 1) * (Number(hours ?? 0) * 60 + Number(minutes ?? 0));
  return `${date}T00:00:00${offsetAt(new Date(utcMidnight - guess * 60_000))}`;
}

/** The calendar day after `date`. */
export function nextDay(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

/** The calendar day before `date`. */
export function previousDay(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() - 1);
  return day.toISOString().slice(0, 10);
}

/**
 * An instant OS2mo's `DateTime` accepts, kept as given and read as a Copenhagen calendar day (the legacy
 * API's finest time): a date, or a date and time with or without an offset (without one it is Copenhagen's
 * own clock time, as in OS2mo).
 */
export interface Instant {
  /** The Copenhagen calendar day the instant falls on. */
  day: string;
  /** True when the instant is that day's midnight, so an exclusive end there leaves the day out. */
  midnight: boolean;
}

const datePattern = /^(\d{4}-\d{2}-\d{2})$/;
const dateTimePattern =
  /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

function validDay(day: string): boolean {
  const parsed = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(day);
}

export function parseInstant(value: string): Instant | null {
  const dateOnly = datePattern.exec(value);
  if (dateOnly) return validDay(value) ? { day: value, midnight: true } : null;
  const match = dateTimePattern.exec(value);
  if (!match) return null;
  const [, day = '', hours = '', minutes = '', seconds = '00', offset] = match;
  if (!validDay(day)) return null;
  if (offset === undefined) {
    return { day, midnight: hours === '00' && minutes === '00' && seconds === '00' };
  }
  const instant = new Date(value.replace(' ', 'T'));
  if (Number.isNaN(instant.getTime())) return null;
  const localDay = dateFormat.format(instant);
  return { day: localDay, midnight: copenhagenMidnight(localDay) === toZoneString(instant, localDay) };
}

// Made once: building an Intl.DateTimeFormat costs far more than formatting with one, and every DateTime
// with an offset is read through it.
const timeFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: zone,
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** The instant written as Copenhagen clock time on `day`, to compare with that day's midnight. */
function toZoneString(instant: Date, day: string): string {
  return `${day}T${timeFormat.format(instant)}${offsetAt(instant)}`;
}

function parseValue(value: unknown): Instant {
  const instant = typeof value === 'string' ? parseInstant(value) : null;
  if (!instant) {
    throw new GraphQLError(
      `DateTime must be an ISO 8601 date or date and time, such as 2026-01-02 or 2026-01-02T00:00:00+01:00; got ${JSON.stringify(value)}.`,
      { extensions: { code: 'BAD_USER_INPUT' } },
    );
  }
  return instant;
}

/**
 * OS2mo's `DateTime`: read as an {@link Instant}; written from a legacy date as that day's Copenhagen
 * midnight (or passed on when already written in full).
 */
export const dateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  description: 'A date and time with its UTC offset (ISO 8601), shown in Copenhagen time.',
  serialize: (value) => {
    const text = String(value);
    return datePattern.test(text) ? copenhagenMidnight(text) : text;
  },
  parseValue,
  parseLiteral: (node: ValueNode) => parseValue(node.kind === Kind.STRING ? node.value : undefined),
});
