import { invalid, notFound } from '../errors.js';
import { detailCollection, type Temporal, type Validity } from '../model.js';
import type { OrgData } from '../org-data.js';
import { coversInterval } from '../time.js';

/** Referential checks every write makes before anything is stored. */

/** The class exists and belongs to the facet (or one of the facets) named; an empty list takes any facet. */
export function requireClass(
  data: OrgData,
  key: string,
  uuid: string,
  facetKeys: string | readonly string[],
): string {
  const record = data.class(uuid);
  const wanted = typeof facetKeys === 'string' ? [facetKeys] : facetKeys;
  if (wanted.length === 0) return uuid;
  const facets = wanted.map((facetKey) => data.findFacet(facetKey)?.uuid);
  if (!facets.includes(record.facet)) throw invalid.wrongFacet(key, uuid, wanted.join(' or '));
  return uuid;
}

export function requireUnitDuring(data: OrgData, uuid: string, validity: Validity): void {
  const unit = data.orgUnit(uuid);
  if (!coversInterval(unit, validity)) throw invalid.unitOutsideRange(uuid, validity, rangeOf(unit));
}

export function requireEmployeeDuring(data: OrgData, uuid: string, validity: Validity): void {
  const employee = data.employee(uuid);
  if (!coversInterval(employee, validity))
    throw invalid.employeeOutsideRange(uuid, validity, rangeOf(employee));
}

export function requireItSystem(data: OrgData, uuid: string): string {
  data.itSystem(uuid);
  return uuid;
}

/** Each stretch of a temporal entity, for checking its references version by version. */
export function eachVersion<A>(entity: Temporal<A>, check: (version: A, validity: Validity) => void): void {
  for (const version of entity.versions) check(version, { from: version.from, to: version.to });
}

export function requireFree(data: OrgData, collection: string, uuid: string | undefined): void {
  if (uuid !== undefined && data.store.get(collection, uuid)) throw invalid.alreadyExists(uuid);
}

/**
 * A new detail's UUID names no detail of any type: OS2mo keeps every detail type in one table
 * (organisationfunktion), where a create with a UUID in use would write over the record of another type.
 */
export function requireFreeDetail(data: OrgData, uuid: string | undefined): void {
  for (const collection of Object.values(detailCollection)) requireFree(data, collection, uuid);
}

/** Exactly one of a unit and a person (OS2mo answers E_INVALID_INPUT for none as for both). */
export function requireOneOf(
  _key: string,
  a: string | undefined | null,
  b: string | undefined | null,
  obj: unknown = null,
): void {
  const given = [a, b].filter((value) => value !== undefined && value !== null).length;
  if (given !== 1) throw invalid.exactlyOne(obj);
}

/** From the first version's start to the last one's end. */
function rangeOf(entity: Temporal<unknown>): Validity | null {
  const first = entity.versions[0];
  const last = entity.versions[entity.versions.length - 1];
  return first && last ? { from: first.from, to: last.to } : null;
}

export { notFound };
