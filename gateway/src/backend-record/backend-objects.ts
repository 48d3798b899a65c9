import { createHash } from 'node:crypto';
import { detailTypes } from '../legacy/legacy-paths.js';

/**
 * The kinds of object the record keeps: every detail type, units and people, named as OS2mo 2.4.0's reading API
 * names them (`backend/mora/api/v1/reading_endpoints.py`: `/api/v1/{type}`).
 */
export const objectTypes = [...detailTypes, 'org_unit', 'employee'] as const;
export type { ObjectType, ObjectOwner } from '../legacy/backend-hooks.js';
import type { ObjectOwner, ObjectType } from '../legacy/backend-hooks.js';

export const isObjectType = (value: unknown): value is ObjectType =>
  typeof value === 'string' && (objectTypes as readonly string[]).includes(value);

/** One version of an object as the backend answers it (any reading API or Service API record). */
export type BackendVersion = { uuid: string; [field: string]: unknown };

/** What the record keeps of one object: never its content, only what a lookup and a change need. */
export interface ObjectSighting {
  type: ObjectType;
  uuid: string;
  owner: ObjectOwner;
  validFrom: string | null;
  validTo: string | null;
  contentHash: string;
  /** The first day after `today` on which a version starts or the day after one ends; null: none to come. */
  nextBoundary: string | null;
}

const uuidOf = (value: unknown): string | undefined =>
  value !== null && typeof value === 'object' && typeof (value as { uuid?: unknown }).uuid === 'string'
    ? (value as { uuid: string }).uuid
    : undefined;

/** The detail types the Service API lists under a person, never a unit (`/service/e/{uuid}/details/{type}`). */
const personOnly: ReadonlySet<string> = new Set(['leave']);

/**
 * Whose listing holds a version: its person's when it names one, else its unit's (a related-unit version names
 * two; either unit's listing holds it, the first is kept). Units and people are their own owners.
 */
export function ownerOf(type: ObjectType, version: BackendVersion): ObjectOwner {
  if (type === 'employee') return { person: version.uuid };
  if (type === 'org_unit') return { unit: version.uuid };
  const units = version.org_unit;
  const unit = Array.isArray(units) ? uuidOf(units[0]) : uuidOf(units);
  const person = uuidOf(version.person);
  if (person !== undefined)
    return unit !== undefined && !personOnly.has(type) ? { person, unit } : { person };
  return unit !== undefined ? { unit } : {};
}

/** A version's own content: links reduced to the UUIDs they name, so a renamed unit changes no engagement. */
function ownContent(value: unknown, depth = 0): unknown {
  if (Array.isArray(value)) return value.map((item) => ownContent(item, depth));
  if (value === null || typeof value !== 'object') return value;
  if (depth > 0 && uuidOf(value) !== undefined) return uuidOf(value);
  const entries = Object.entries(value as Record<string, unknown>)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, field]) => [key, ownContent(field, depth + 1)]);
  return Object.fromEntries(entries);
}

const validityOf = (version: BackendVersion) =>
  (version.validity ?? {}) as { from?: string | null; to?: string | null };

/** sha256 of an object's versions' own content, in the order of their start: the same object hashes alike. */
export function contentHash(versions: readonly BackendVersion[]): string {
  const ordered = versions
    .map((version) => JSON.stringify(ownContent(version)))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256').update(ordered.join('\n')).digest('hex');
}

/** The day after an ISO day. */
export function nextDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

/**
 * The next day after `today` on which the object's state in force changes: a version starts on it, or the day
 * after a version's last day (a `to` is inclusive in the Service API). OS2mo sends an event on such a day too.
 */
export function nextBoundary(versions: readonly BackendVersion[], today: string): string | null {
  let next: string | null = null;
  for (const version of versions) {
    const { from, to } = validityOf(version);
    for (const day of [from?.slice(0, 10), to ? nextDay(to.slice(0, 10)) : undefined]) {
      if (day !== undefined && day > today && (next === null || day < next)) next = day;
    }
  }
  return next;
}

/** What the record keeps of an object, from all of its versions (over all time) as the backend answered them. */
export function sighting(
  type: ObjectType,
  versions: readonly BackendVersion[],
  today: string,
): ObjectSighting {
  const first = versions[0]!;
  let validFrom: string | null | undefined;
  let validTo: string | null | undefined;
  for (const version of versions) {
    const { from, to } = validityOf(version);
    const start = from?.slice(0, 10) ?? null;
    const end = to?.slice(0, 10) ?? null;
    if (validFrom === undefined || start === null || (validFrom !== null && start < validFrom))
      validFrom = start;
    if (validTo === undefined || end === null || (validTo !== null && end > validTo)) validTo = end;
  }
  return {
    type,
    uuid: first.uuid,
    owner: ownerOf(type, first),
    validFrom: validFrom ?? null,
    validTo: validTo ?? null,
    contentHash: contentHash(versions),
    nextBoundary: nextBoundary(versions, today),
  };
}

/** Versions grouped by the object they are of. */
export function byObject(versions: readonly BackendVersion[]): BackendVersion[][] {
  const groups = new Map<string, BackendVersion[]>();
  for (const version of versions) {
    const group = groups.get(version.uuid);
    if (group) group.push(version);
    else groups.set(version.uuid, [version]);
  }
  return [...groups.values()];
}
