import { badUserInput } from '../errors.js';
import { previousDay, type Instant } from './date-time.js';

/**
 * A window of Copenhagen calendar days, both ends inclusive (`null`: open). The legacy API keeps dates, not
 * instants, so OS2mo's half-open `[from, to)` of instants becomes the days it touches.
 */
export interface DayWindow {
  from: string | null;
  to: string | null;
}

/** The Service API reads that cover a window: one date and the `validity` scopes to read at it. */
export interface WindowReads {
  at: string;
  scopes: ('past' | 'present' | 'future')[];
}

/** The last day an exclusive end touches: midnight ends the day before, any later instant its own day. */
const lastDayBefore = (end: Instant) => (end.midnight ? previousDay(end.day) : end.day);

/**
 * OS2mo's window from a pair of optional instants (`from_date`/`to_date`, `start`/`end`): an absent start is
 * now, an absent end is just after the start (one instant), and `null` leaves that end open. Both absent: now.
 * An absent end after an open start has no meaning (OS2mo refuses it too).
 */
export function dayWindow(
  start: Instant | null | undefined,
  end: Instant | null | undefined,
  today: string,
  names: { start: string; end: string },
): DayWindow {
  const from = start === undefined ? today : start === null ? null : start.day;
  if (end === undefined) {
    if (from === null) {
      throw badUserInput(`${names.end} must be given when ${names.start} is null (an open start).`);
    }
    return { from, to: from };
  }
  const to = end === null ? null : lastDayBefore(end);
  if (from !== null && to !== null && to < from) {
    throw badUserInput(`${names.end} must be after ${names.start}.`);
  }
  return { from, to };
}

/** The reads a window needs: one for a single day, two from its start on, three when it opens in the past. */
export function windowReads(window: DayWindow, today: string): WindowReads {
  if (window.from === null) return { at: today, scopes: ['past', 'present', 'future'] };
  if (window.to === window.from) return { at: window.from, scopes: ['present'] };
  return { at: window.from, scopes: ['present', 'future'] };
}

/** Whether a legacy validity (`to` inclusive, `null` open; `from` null since always) touches the window. */
export function overlaps(
  validity: { from?: string | null; to?: string | null } | undefined,
  window: DayWindow,
): boolean {
  if (!validity) return true;
  const startsInTime = window.to === null || validity.from == null || validity.from <= window.to;
  const endsInTime = window.from === null || validity.to == null || validity.to >= window.from;
  return startsInTime && endsInTime;
}

/** The day objects in the window are read as of (and their links followed at). */
export const windowDay = (window: DayWindow, today: string) => window.from ?? today;
