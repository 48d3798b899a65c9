import type { BackendVersion, ObjectType } from './backend-objects.js';
import {
  allTime,
  readByUuid,
  readOwnerListing,
  touchesDays,
  type BackendGet,
  type Days,
} from './backend-reads.js';
import type { Whereabouts } from './backend-record.js';

/**
 * The versions touching `days` of the objects of one type named by UUID alone, in a handful of legacy calls:
 *
 * 1. the reading API's `/api/v1/{type}/by_uuid` (OS2mo 2.4.0), one call, where the backend answers it;
 * 2. else the record's word on whose each object is, and that owner's Service API listing over all time (three
 *    calls an owner), so an object is told apart from one that no longer touches `days`.
 *
 * Undefined when neither can answer for certain (no record, an object it does not know, or a listing that no
 * longer holds an object the record placed there: stale): the caller then reads as it would without the record.
 * The record only ever says where to look; the answer is always the backend's.
 */
export async function lookUpByUuid(
  get: BackendGet,
  type: ObjectType,
  uuids: readonly string[],
  options: { days: Days; at: string; whereabouts?: Whereabouts },
): Promise<BackendVersion[] | undefined> {
  const asked = [...new Set(uuids.map((uuid) => uuid.toLowerCase()))];
  if (asked.some((uuid) => !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(uuid))) {
    // Not a UUID: no object has it, as OS2mo answers (the reading API would refuse it with 400).
    return [];
  }
  const read = await readByUuid(get, type, asked, options.days, options.at);
  if (read !== undefined) return read;
  if (!options.whereabouts) return undefined;
  const placed = await options.whereabouts(type, asked);
  if (placed.size < asked.length) return undefined;
  const owners = new Map([...placed.values()].map((owner) => [JSON.stringify(owner), owner]));
  const listings = await Promise.all(
    [...owners.values()].map((owner) => readOwnerListing(get, type, owner, allTime, options.at)),
  );
  const wanted = new Set(asked);
  const found = listings.flat().filter((version) => wanted.has(version.uuid.toLowerCase()));
  if (new Set(found.map((version) => version.uuid.toLowerCase())).size < asked.length) return undefined;
  return found.filter((version) => touchesDays(version, options.days));
}
