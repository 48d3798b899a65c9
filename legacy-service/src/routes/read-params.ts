import type { Context } from 'hono';
import { invalid } from '../errors.js';
import { readDateParam } from '../input.js';
import type { IsoDate } from '../model.js';
import { today, type ValidityFilter } from '../time.js';

export interface TimeParams {
  at: IsoDate;
  validity: ValidityFilter;
}

const validityFilters: readonly ValidityFilter[] = ['present', 'past', 'future'];

/** `at=YYYY-MM-DD` (default today) and `validity=present|past|future` (default present). */
export function readTimeParams(c: Context, clock: () => Date): TimeParams {
  const at = readDateParam('at', c.req.query('at'), today(clock()));
  const validity = c.req.query('validity') ?? 'present';
  if (!validityFilters.includes(validity as ValidityFilter)) {
    throw invalid.input([{ key: 'validity', message: 'must be one of present, past, future' }]);
  }
  return { at, validity: validity as ValidityFilter };
}

/** Flags written `inherit_manager=1` (also `true`). */
export function readFlag(c: Context, name: string): boolean {
  const value = c.req.query(name);
  if (value === undefined || value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  throw invalid.input([{ key: name, message: 'must be 1 or 0' }]);
}
