import { isAbsentPath, LegacyResponseError } from '../legacy/legacy-errors.js';
import { legacyPaths, type DetailType } from '../legacy/legacy-paths.js';
import type { BackendVersion, ObjectOwner, ObjectType } from './backend-objects.js';

/** One GET of the backend, answering its JSON (a `LegacyResponseError` for a status that is not 2xx). */
export type BackendGet = <T>(path: string) => Promise<T>;

/** Days, both ends inclusive; null: open. */
export interface Days {
  from: string | null;
  to: string | null;
}

/** All time: every version an object ever had or will have. */
export const allTime: Days = { from: null, to: null };

/** The reading API's `validity` for days: an interval, `-infinity`/`infinity` for an open end. */
export const readingValidity = (days: Days) => `${days.from ?? '-infinity'}/${days.to ?? 'infinity'}`;

export { isAbsentPath };

/**
 * The versions touching `days` of the objects named, through the reading API's `by_uuid` (one call); undefined
 * when the backend does not answer the reading API (the path is not found).
 */
export async function readByUuid(
  get: BackendGet,
  type: ObjectType,
  uuids: readonly string[],
  days: Days,
  at: string,
): Promise<BackendVersion[] | undefined> {
  try {
    const versions = await get<BackendVersion[]>(
      legacyPaths.readingByUuid(type, uuids, { at, validity: readingValidity(days) }),
    );
    const asked = new Set(uuids.map((uuid) => uuid.toLowerCase()));
    return versions.filter((version) => asked.has(version.uuid.toLowerCase()));
  } catch (error) {
    if (isAbsentPath(error)) return undefined;
    throw error;
  }
}

/** The Service API's scopes that cover `days` read at `at`: one for a single day, three for all time. */
function scopesFor(days: Days, at: string): ('past' | 'present' | 'future')[] {
  if (days.from !== null && days.from === days.to && days.from === at) return ['present'];
  const scopes: ('past' | 'present' | 'future')[] = ['present'];
  if (days.from === null || days.from < at) scopes.unshift('past');
  if (days.to === null || days.to > at) scopes.push('future');
  return scopes;
}

/**
 * The versions of one owner's listing of a type touching `days`, through the Service API: a unit's or person's
 * `details/{type}` (its own versions for `org_unit` and `employee`), one call per `validity` scope.
 */
export async function readOwnerListing(
  get: BackendGet,
  type: ObjectType,
  owner: ObjectOwner,
  days: Days,
  at: string,
): Promise<BackendVersion[]> {
  const pathFor = (validity: 'past' | 'present' | 'future') => {
    const query = { at, validity: validity === 'present' ? undefined : validity };
    if (type === 'org_unit') return legacyPaths.orgUnitVersions(owner.unit ?? '', query);
    if (type === 'employee') return legacyPaths.employeeVersions(owner.person ?? '', query);
    return owner.person !== undefined
      ? legacyPaths.employeeDetails(type as DetailType, owner.person, query)
      : legacyPaths.unitDetails(type as DetailType, owner.unit ?? '', query);
  };
  const batches = await Promise.all(
    scopesFor(days, at).map(async (validity) => {
      try {
        return await get<BackendVersion[]>(pathFor(validity));
      } catch (error) {
        // An owner that is gone, or a listing its kind does not have: it holds nothing of the type.
        if (error instanceof LegacyResponseError && (error.status === 404 || error.status === 400)) return [];
        throw error;
      }
    }),
  );
  const seen = new Set<string>();
  return batches.flat().filter((version) => {
    const validity = (version.validity ?? {}) as { from?: string | null; to?: string | null };
    const key = `${version.uuid}/${validity.from ?? ''}/${validity.to ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return touchesDays(version, days);
  });
}

/** The day of a validity bound as the Service API writes it (a date or a date-time); null: none. */
export const dayOf = (value: unknown) => (typeof value === 'string' ? value.slice(0, 10) : null);

/** Whether a version's validity (its days inclusive; null or absent: open) touches `days`. */
export function touchesDays(version: BackendVersion, days: Days): boolean {
  const validity = (version.validity ?? {}) as { from?: unknown; to?: unknown };
  const from = dayOf(validity.from);
  const to = dayOf(validity.to);
  return (
    (days.to === null || from === null || from <= days.to) &&
    (days.from === null || to === null || to >= days.from)
  );
}
