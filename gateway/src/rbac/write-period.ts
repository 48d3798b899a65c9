import { endOfTime, type Period } from './unit-ownership.js';

/**
 * The days a write affects: from its date until its end when it gives one, otherwise for good. A write
 * with no end changes every version from its date on, the ones already scheduled included (an admin's
 * planned move, rename or new owner), so it is judged on all of them, up to where the unit or record
 * ends. A termination's date is its last day, and it changes every version after it.
 */
export function periodOf(intent: { date: string; until?: string }): Period {
  const end = intent.until ?? endOfTime;
  return { from: intent.date, to: end < intent.date ? intent.date : end };
}

/** A period as a refusal says it: `on 2026-01-01`, `from 2026-01-01 on`, `from … to …`. */
export const describePeriod = (period: Period) =>
  period.from === period.to
    ? `on ${period.from}`
    : period.to === endOfTime
      ? `from ${period.from} on`
      : `from ${period.from} to ${period.to}`;
