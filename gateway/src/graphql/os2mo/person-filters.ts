import type { GraphQLContext } from '../context.js';
import type { LegacyRecord } from '../../legacy/legacy-loaders.js';
import { legacyPaths } from '../../legacy/legacy-paths.js';
import { allEmployees } from '../resolvers/collections.js';
import { cprCheckedNumbers, cprCheckedSearch } from '../cpr-searches.js';

/** OS2mo's `EmployeeFilter` members that pick people beyond `uuids` and `user_keys`. */
export interface PersonFilter {
  query?: string | null;
  cpr_numbers?: string[] | null;
}

/** The people the Service API's own search finds as of `at`: every word in a name, user key or UUID. */
async function searched(context: GraphQLContext, query: string, at: string): Promise<LegacyRecord[]> {
  // A text that is a CPR number is a search of the register (`cprCheckedSearch`).
  return cprCheckedSearch(context, query, async () => {
    const organisation = await context.legacy.organisationUuid();
    const page = await context.legacy.get<{ items: LegacyRecord[] }>(
      legacyPaths.employeePage(organisation, { at, start: 0, limit: 0, query }),
    );
    return page.items;
  });
}

/**
 * The people with one of the CPR numbers, from the person listing (which carries each number): a search of
 * the register, tallied for the request's one `cpr_search` line and found no one for a reader
 * `CPR_READ_ROLES` leaves out (`cprCheckedNumbers`).
 */
function byCprNumber(context: GraphQLContext, numbers: readonly string[], at: string) {
  return cprCheckedNumbers(context, numbers, async () => {
    const wanted = new Set(numbers);
    return (await allEmployees(context, at)).filter((person) => wanted.has(String(person.cpr_no ?? '')));
  });
}

/**
 * The UUIDs a person filter's `query` and `cpr_numbers` select as of `at` (both must hold), in the listing's
 * order; null when neither is given (null for either is no filter, as in OS2mo).
 */
export async function peopleMatching(
  context: GraphQLContext,
  filter: PersonFilter,
  at: string,
  given: { query: boolean; cpr_numbers: boolean },
): Promise<string[] | null> {
  const query = given.query && typeof filter.query === 'string' ? filter.query : null;
  const numbers = given.cpr_numbers ? (filter.cpr_numbers ?? null) : null;
  if (query === null && numbers === null) return null;
  const [bySearch, byNumber] = await Promise.all([
    query === null ? null : searched(context, query, at),
    numbers === null ? null : byCprNumber(context, numbers, at),
  ]);
  const keep = byNumber && new Set(byNumber.map((person) => person.uuid));
  const people = bySearch ?? byNumber ?? [];
  return people.filter((person) => !keep || keep.has(person.uuid)).map((person) => person.uuid);
}
