/**
 * The bench's v30 operations (OS2mo's shape, `/graphql/v30`) and the direct plans they are measured
 * against: the same legacy reads made by hand, as a careful integration would make them. `bench/v30-plans.test.ts`
 * holds each direct plan to the legacy calls the gateway's upstream trace lists for its query.
 */

import { os2moReferenceQueryOneLine } from '../gateway/src/graphql/reference-query.js';

/** A GET of the legacy service with the caller's token, answering the parsed JSON. */
export type LegacyGet = (path: string) => Promise<unknown>;

/**
 * The specification's reference query in v30's shape (issue 21): `objects` holds response wrappers, the
 * unit is under `current`, and a manager's `person` is a list, as in OS2mo.
 */
export const v30ReferenceQuery = os2moReferenceQueryOneLine;

/**
 * Every unit with its managers, `limit` unset (every object, as OS2mo answers it): what a directory
 * synchronisation reads. The same selection as the `EveryUnit` example of docs/graphql.md.
 */
export const v30EveryUnitQuery =
  'query EveryUnit { org_units { objects { uuid current { name user_key parent_uuid ' +
  'managers { person { uuid name } } } } } }';

/** Runs `work` over `items` all at once, or one after another. */
async function each<T, R>(items: readonly T[], parallel: boolean, work: (item: T) => Promise<R>) {
  if (parallel) return Promise.all(items.map(work));
  const results: R[] = [];
  for (const item of items) results.push(await work(item));
  return results;
}

interface ManagerRecord {
  person: { uuid: string } | null;
}

/**
 * The reference data by hand: 6 requests in two rounds. Manager records embed their unit's name and
 * their person's name, so neither the units nor the people need a read of their own; each manager's
 * person's engagements are the second round.
 */
export async function referenceByHand(
  get: LegacyGet,
  units: readonly string[],
  parallel = true,
): Promise<void> {
  const managersByUnit = await each(
    units,
    parallel,
    async (uuid) => (await get(`/service/ou/${uuid}/details/manager`)) as ManagerRecord[],
  );
  const people = managersByUnit.flatMap((managers) =>
    managers.flatMap((manager) => (manager.person ? [manager.person.uuid] : [])),
  );
  await each(people, parallel, (person) => get(`/service/e/${person}/details/engagement`));
}

/**
 * Every unit with its managers by hand: the whole unit listing in one read (`limit=0` is all of it in
 * the Service API), then, all at once, every unit's own record (the listing has no parent) and its
 * manager listing (which embeds each manager's person). The organisation is known already, as the
 * gateway keeps it between requests. Answers how many units it read.
 */
export async function everyUnitByHand(get: LegacyGet, organisation: string): Promise<number> {
  const listing = (await get(`/service/o/${organisation}/ou/?limit=0`)) as { items: { uuid: string }[] };
  await Promise.all(
    listing.items.flatMap((unit) => [
      get(`/service/ou/${unit.uuid}/`),
      get(`/service/ou/${unit.uuid}/details/manager`),
    ]),
  );
  return listing.items.length;
}

interface V30Manager {
  manager_type: unknown;
  person: unknown[] | null;
}

/**
 * A v30 reference answer in v2's shape (`objects` holds the units themselves, a manager's person is one
 * `employee`), so the bench can check that v30 answers what v2 answers.
 */
export function v30AsV2(data: {
  org_units: { objects: { current: { name: string; managers: V30Manager[] } | null }[] };
}) {
  return {
    org_units: {
      objects: data.org_units.objects.map(({ current }) =>
        current === null
          ? null
          : {
              name: current.name,
              managers: current.managers.map((manager) => ({
                manager_type: manager.manager_type,
                employee: manager.person === null ? null : (manager.person[0] ?? null),
              })),
            },
      ),
    },
  };
}
