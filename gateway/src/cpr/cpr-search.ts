import type { Principal } from '../auth/principal.js';
import type { Logger } from '../observability/logger.js';
import { readerOf, type CprRequestIds } from './cpr-policy.js';

/**
 * Most CPR numbers one request may search by when `CPR_MAX_NUMBERS_PER_REQUEST` is not set: every number in
 * every `cpr_numbers` filter, and every search text that is a CPR number, counted together. A person's page
 * or an integration's lookup asks for a few; a request for thousands only bisects the register.
 */
export const defaultMaxCprNumbers = 100;

/**
 * Whether a search text is a CPR number, so that the Service API's person search matches it against the
 * register rather than names: OS2mo 2.4.0 treats a `query` of ten characters that form a birth date as a
 * number (`backend/mora/service/employee.py`@2.4.0 lines 461–464, `util.is_cpr_number`). Taken wider here
 * (surrounding blanks, a dash after the date), so no text the backend could read as a number goes unseen.
 */
export function isCprSearch(text: unknown): text is string {
  return typeof text === 'string' && /^\s*\d{6}-?\d{4}\s*$/.test(text);
}

/**
 * How many CPR numbers a filter value (or a whole request's variables) searches by, at any depth: each
 * item of a `cpr_numbers` list (a lone string is one, as GraphQL's list coercion makes it) and each `query`
 * that is a CPR number.
 */
export function cprNumbersIn(value: unknown): number {
  if (Array.isArray(value)) return value.reduce<number>((sum, item) => sum + cprNumbersIn(item), 0);
  if (typeof value !== 'object' || value === null) return 0;
  let count = 0;
  for (const [key, member] of Object.entries(value)) {
    if (key === 'cpr_numbers' && Array.isArray(member)) count += member.length;
    else if (key === 'cpr_numbers' && typeof member === 'string') count += 1;
    else if (key === 'query' && isCprSearch(member)) count += 1;
    else count += cprNumbersIn(member);
  }
  return count;
}

/** What one request searched by CPR number: how many numbers, and the people they found. */
export interface CprSearchTally {
  numbers: Set<string>;
  subjects: Set<string>;
}

export const emptyTally = (): CprSearchTally => ({ numbers: new Set(), subjects: new Set() });

/** Who searched, for the line: the token, the request's id as every line carries it, the CPR lines' ids. */
export interface CprSearcher {
  principal: Principal | undefined;
  requestId: string | undefined;
  ids: CprRequestIds;
}

/**
 * The one line a request that searched by CPR number writes: how many numbers it searched by, whose
 * records they found (none for a reader `CPR_READ_ROLES` leaves out, who is found no one), who searched;
 * never a number. One line per request, however many numbers (within the bound) or filters it used.
 */
export function logCprSearch(
  logger: Logger | undefined,
  where: { road: 'graphql' | 'service'; endpoint: string },
  tally: CprSearchTally,
  searcher: CprSearcher,
  withheld: boolean,
): void {
  if (tally.numbers.size === 0) return;
  logger?.info(
    {
      requestId: searcher.requestId,
      cpr_search: {
        ...where,
        count: tally.numbers.size,
        subjects: [...tally.subjects],
        withheld,
        ...readerOf(searcher.principal),
        ...searcher.ids,
      },
    },
    'CPR numbers searched',
  );
}
