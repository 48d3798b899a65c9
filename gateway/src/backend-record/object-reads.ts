import {
  byObject,
  sighting,
  type BackendVersion,
  type ObjectOwner,
  type ObjectSighting,
  type ObjectType,
} from './backend-objects.js';
import { allTime, readByUuid, readOwnerListing, type BackendGet } from './backend-reads.js';
import type { Whereabouts } from './backend-record.js';

/** What a write or a boundary touched: an object by UUID, or (UUID unknown) every object of a type an owner holds. */
export interface Touch {
  type: ObjectType;
  uuid?: string;
  owner?: ObjectOwner;
}

/** UUIDs per reading API call: the query string stays well under any proxy's limit. */
const uuidsPerCall = 50;

const hasOwner = (owner: ObjectOwner | undefined): owner is ObjectOwner =>
  owner !== undefined && (owner.person !== undefined || owner.unit !== undefined);

/**
 * Every version, over all time, of the objects touched, as the backend answers now: through the reading API's
 * `by_uuid` (one call per type and 50 UUIDs) where it answers, else through the listing of the owner the touch
 * names or the record knows. An object found nowhere is left out (the record keeps what it had).
 */
export async function readTouched(
  get: BackendGet,
  touches: readonly Touch[],
  options: { whereabouts?: Whereabouts; today: string },
): Promise<ObjectSighting[]> {
  const versions: { type: ObjectType; versions: BackendVersion[] }[] = [];
  const byType = new Map<ObjectType, Touch[]>();
  for (const touch of touches) byType.set(touch.type, [...(byType.get(touch.type) ?? []), touch]);

  await Promise.all(
    [...byType].map(async ([type, touched]) => {
      const named = [...new Set(touched.flatMap((touch) => (touch.uuid ? [touch.uuid] : [])))];
      const owners = touched.filter((touch) => touch.uuid === undefined && hasOwner(touch.owner));
      let throughOwners: Touch[] = owners;
      for (let start = 0; start < named.length; start += uuidsPerCall) {
        const chunk = named.slice(start, start + uuidsPerCall);
        const found = await readByUuid(get, type, chunk, allTime, options.today);
        if (found !== undefined) {
          versions.push({ type, versions: found });
          continue;
        }
        // No reading API: each object through its owner's listing, as the touch or the record names it.
        const known = (await options.whereabouts?.(type, chunk)) ?? new Map<string, ObjectOwner>();
        const placed = chunk.flatMap((uuid) => {
          const owner =
            touched.find((touch) => touch.uuid === uuid && hasOwner(touch.owner))?.owner ?? known.get(uuid);
          return owner ? [{ type, uuid, owner }] : [];
        });
        throughOwners = [...throughOwners, ...placed];
      }
      const listings = await Promise.all(
        [...new Map(throughOwners.map((touch) => [JSON.stringify(touch.owner), touch.owner!])).values()].map(
          (owner) => readOwnerListing(get, type, owner, allTime, options.today),
        ),
      );
      const wanted = new Set(throughOwners.filter((touch) => touch.uuid).map((touch) => touch.uuid));
      const wholeOwners = throughOwners.some((touch) => touch.uuid === undefined);
      versions.push({
        type,
        versions: listings.flat().filter((version) => wholeOwners || wanted.has(version.uuid)),
      });
    }),
  );
  return versions.flatMap(({ type, versions: found }) =>
    byObject(found).map((group) => sighting(type, group, options.today)),
  );
}
