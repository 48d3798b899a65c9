import type { IsoDate, Temporal, Validity, Version } from './model.js';

const isoDatePattern = /^\d{4}-\d{2}-\d{2}$/;

/** True for a real calendar date written YYYY-MM-DD. */
export function isIsoDate(value: unknown): value is IsoDate {
  if (typeof value !== 'string' || !isoDatePattern.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
}

export function today(now: Date = new Date()): IsoDate {
  return now.toISOString().slice(0, 10);
}

export function addDays(date: IsoDate, days: number): IsoDate {
  const parsed = new Date(`${date}T00:00:00Z`);
  parsed.setUTCDate(parsed.getUTCDate() + days);
  return parsed.toISOString().slice(0, 10);
}

/** `to` null sorts after every date. */
export function endsBefore(to: IsoDate | null, date: IsoDate): boolean {
  return to !== null && to < date;
}

export function covers(validity: Validity, date: IsoDate): boolean {
  return validity.from <= date && !endsBefore(validity.to, date);
}

export type ValidityFilter = 'present' | 'past' | 'future';

/** Whether a version passes `validity=present|past|future` as of `at`, or overlaps an interval `{from, to}`. */
export function matchesValidity(
  validity: Validity,
  filter: ValidityFilter | { from: IsoDate; to: IsoDate },
  at: IsoDate,
): boolean {
  if (typeof filter === 'object') return validity.from <= filter.to && !endsBefore(validity.to, filter.from);
  switch (filter) {
    case 'present':
      return covers(validity, at);
    case 'past':
      return endsBefore(validity.to, at);
    case 'future':
      return validity.from > at;
  }
}

export function versionAt<A>(entity: Temporal<A>, date: IsoDate): Version<A> | undefined {
  return entity.versions.find((version) => covers(version, date));
}

/** The date at which a version's references are resolved: the read date, moved inside the version. */
export function resolutionDate(validity: Validity, at: IsoDate): IsoDate {
  if (at < validity.from) return validity.from;
  if (validity.to !== null && at > validity.to) return validity.to;
  return at;
}

export function firstFrom(entity: Temporal<unknown>): IsoDate | undefined {
  return entity.versions[0]?.from;
}

export function lastTo(entity: Temporal<unknown>): IsoDate | null | undefined {
  const last = entity.versions[entity.versions.length - 1];
  return last === undefined ? undefined : last.to;
}

/** True when the entity has a version on every day of [from, to]. */
export function coversInterval(entity: Temporal<unknown>, interval: Validity): boolean {
  let cursor: IsoDate | null = interval.from;
  for (const version of entity.versions) {
    if (cursor === null) return true;
    if (version.from > cursor) return false;
    if (endsBefore(version.to, cursor)) continue;
    if (version.to === null) return true;
    if (interval.to !== null && version.to >= interval.to) return true;
    cursor = addDays(version.to, 1);
  }
  return false;
}

function sameAttributes<A>(a: Version<A>, b: Version<A>): boolean {
  const { from: _fa, to: _ta, ...restA } = a;
  const { from: _fb, to: _tb, ...restB } = b;
  return JSON.stringify(restA) === JSON.stringify(restB);
}

/** Joins neighbouring versions that carry the same attributes, so history stays minimal. */
function mergeAdjacent<A>(versions: Version<A>[]): Version<A>[] {
  const merged: Version<A>[] = [];
  for (const version of versions) {
    const previous = merged[merged.length - 1];
    if (
      previous !== undefined &&
      previous.to !== null &&
      addDays(previous.to, 1) === version.from &&
      sameAttributes(previous, version)
    ) {
      merged[merged.length - 1] = { ...previous, to: version.to };
    } else {
      merged.push(version);
    }
  }
  return merged;
}

/**
 * Applies `change` to every day of [interval.from, interval.to] the entity already covers: versions are
 * split at the interval's edges, so an edit from a date starts a new validity and history is kept.
 */
export function editVersions<A>(
  versions: Version<A>[],
  interval: Validity,
  change: (attributes: Version<A>) => Version<A>,
): Version<A>[] {
  const result: Version<A>[] = [];
  for (const version of versions) {
    const startsInside = !endsBefore(interval.to, version.from);
    const endsInside = !endsBefore(version.to, interval.from);
    if (!startsInside || !endsInside) {
      result.push(version);
      continue;
    }
    if (version.from < interval.from) {
      result.push({ ...version, to: addDays(interval.from, -1) });
    }
    const from = version.from < interval.from ? interval.from : version.from;
    const to =
      interval.to === null
        ? version.to
        : version.to === null || version.to > interval.to
          ? interval.to
          : version.to;
    result.push({ ...change(version), from, to });
    if (interval.to !== null && (version.to === null || version.to > interval.to)) {
      result.push({ ...version, from: addDays(interval.to, 1) });
    }
  }
  return mergeAdjacent(result);
}

/** Ends every version on `to` (inclusive); versions that start after it disappear. */
export function terminateVersions<A>(versions: Version<A>[], to: IsoDate): Version<A>[] {
  return versions
    .filter((version) => version.from <= to)
    .map((version) => (version.to === null || version.to > to ? { ...version, to } : version));
}
