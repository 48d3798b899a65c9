import type { GraphQLContext } from '../context.js';
import type { LegacyRecord } from '../../legacy/legacy-loaders.js';
import { allEmployees, matchesFilter } from '../resolvers/collections.js';
import { classesMatching, type ClassFilter, type OwnerReads } from './class-filters.js';
import { peopleMatching } from './person-filters.js';

/** A manager filter's members beyond the common ones and the unit and person narrowing. */
export interface ManagerOnlyFilter {
  responsibility?: ClassFilter | null;
  manager_type?: ClassFilter | null;
  exclude?: PersonSubFilter | null;
}

interface PersonSubFilter {
  uuids?: string[] | null;
  user_keys?: string[] | null;
  query?: string | null;
  cpr_numbers?: string[] | null;
}

/** Whether a class sub-filter gives members beyond `uuids`, which then need the classes read. */
const onlyUuids = (filter: object) =>
  Object.entries(filter).every(([key, value]) => key === 'uuids' || value === null || value === undefined);

/** The class UUIDs a class sub-filter allows; its `uuids` alone need no read (as OS2mo short-circuits them). */
async function allowedClasses(
  context: GraphQLContext,
  filter: ClassFilter,
  at: string,
  reads: OwnerReads,
): Promise<Set<string>> {
  if (filter.uuids && onlyUuids(filter)) return new Set(filter.uuids);
  return new Set((await classesMatching(context, filter, at, reads)).map((record) => record.uuid));
}

/** The people an `exclude` sub-filter names; null: every person (a filter without members matches all). */
async function excludedPeople(
  context: GraphQLContext,
  filter: PersonSubFilter,
  at: string,
): Promise<Set<string> | null> {
  let chosen: string[] | null = filter.uuids ?? null;
  const narrow = (found: string[]) =>
    (chosen = chosen ? chosen.filter((uuid) => found.includes(uuid)) : found);
  if (filter.user_keys) {
    const people = await allEmployees(context, at);
    narrow(
      people.filter((person) => matchesFilter(person, { user_keys: filter.user_keys })).map((p) => p.uuid),
    );
  }
  const searched = await peopleMatching(context, filter, at, {
    query: filter.query != null,
    cpr_numbers: filter.cpr_numbers != null,
  });
  if (searched) narrow(searched);
  return chosen ? new Set(chosen) : null;
}

const uuidOf = (value: unknown) => (value as LegacyRecord | null | undefined)?.uuid;

/**
 * The test OS2mo's manager filter applies for `responsibility` (any of the manager's responsibilities),
 * `manager_type` and `exclude` (the holder is not one of those people; a vacancy is never excluded), as
 * `manager_predicate` in OS2mo's `mora/graphapi/resolvers.py` at HEAD. Null members are no filter.
 */
export async function managerMatcher(
  context: GraphQLContext,
  filter: ManagerOnlyFilter | null | undefined,
  at: string,
  reads: OwnerReads,
): Promise<(record: LegacyRecord) => boolean> {
  const [responsibilities, types, excluded] = await Promise.all([
    filter?.responsibility ? allowedClasses(context, filter.responsibility, at, reads) : undefined,
    filter?.manager_type ? allowedClasses(context, filter.manager_type, at, reads) : undefined,
    filter?.exclude ? excludedPeople(context, filter.exclude, at) : undefined,
  ]);
  return (record) => {
    if (responsibilities) {
      const held = (record.responsibility as unknown[] | null | undefined) ?? [];
      if (!held.some((item) => responsibilities.has(uuidOf(item) ?? ''))) return false;
    }
    if (types && !types.has(uuidOf(record.manager_type) ?? '')) return false;
    if (excluded !== undefined) {
      const person = uuidOf(record.person);
      if (person !== undefined && (excluded === null || excluded.has(person))) return false;
    }
    return true;
  };
}
