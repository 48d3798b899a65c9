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
