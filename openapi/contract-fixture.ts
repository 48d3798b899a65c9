import { readDevUsers } from '../legacy-service/src/fixture/dev-users.js';
import {
  buildOrganisation,
  classUuid,
  defaultFixtureSize,
  organisationUuid,
} from '../legacy-service/src/fixture/organisation.js';
import type { TestLegacy } from '../legacy-service/src/testing.js';

/**
 * The stand-in's seeded data as the contract cases name it: found by content, so the cases do not depend
 * on how the fixture derives UUIDs.
 */

export const [alice, oscar, nora] = readDevUsers().map((user) => user.uuid) as [string, string, string];
export const org = organisationUuid;
export const unknown = '00000000-0000-4000-8000-000000000000';
/** UUIDs for objects the cases create, distinct from every fixture UUID. */
export const newUuid = (n: number) => `10000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

type StoredValue = Record<string, unknown>;
export interface FixtureRecord {
  uuid: string;
  /** The first version (or the whole value, for records without versions) that matched. */
  match: StoredValue;
}

const seeded = buildOrganisation(defaultFixtureSize);

/** The first seeded record of `collection` with a version that `matches`, or undefined. */
export function findFixture(
  collection: string,
  matches: (value: StoredValue) => boolean = () => true,
): FixtureRecord | undefined {
  for (const { collection: stored, uuid, value } of seeded) {
    if (stored !== collection || value === null) continue;
    const record = value as { versions?: StoredValue[] };
    const match = (record.versions ?? [value as StoredValue]).find(matches);
    if (match) return { uuid, match };
  }
  return undefined;
}

/** As `findFixture`, for records the fixture has always had: their absence is a broken fixture. */
export function fixtureRecord(collection: string, matches: (value: StoredValue) => boolean): FixtureRecord {
  const found = findFixture(collection, matches);
  if (!found) throw new Error(`The fixture has no matching ${collection}`);
  return found;
}

/**
 * The detail types the fixture grows for OS2mo (addresses, associations, …) may not be seeded yet; a
 * case about one then asks about an unknown UUID, and fails by finding nothing rather than at import.
 */
export const uuidOr = (value: unknown): string => (typeof value === 'string' ? value : unknown);

export const activeDirectory = fixtureRecord(
  'itsystem',
  (system) => system.user_key === 'active_directory',
).uuid;
export const oscarsEngagement = fixtureRecord('engagement', (version) => version.person === oscar).uuid;
export const oscarsManagerRole = fixtureRecord('manager', (version) => version.person === oscar).uuid;
export const oscarsOwnership = fixtureRecord('owner', (version) => version.owner === oscar).uuid;
export const oscarsAccount = fixtureRecord(
  'it',
  (version) => version.person === oscar && version.itsystem === activeDirectory,
).uuid;
/** Someone with an engagement that ended, for `validity=past`. */
export const formerEngagementHolder = String(
  fixtureRecord('engagement', (version) => version.to !== null).match.person,
);

const ref = (uuid: string) => ({ uuid });
export { ref };
export const cls = {
  office: ref(classUuid('org_unit_type', 'office')),
  level3: ref(classUuid('org_unit_level', 'level_3')),
  caseworker: ref(classUuid('engagement_job_function', 'caseworker')),
  engineer: ref(classUuid('engagement_job_function', 'engineer')),
  permanent: ref(classUuid('engagement_type', 'permanent')),
  teamLeader: ref(classUuid('manager_type', 'team_leader')),
  level4: ref(classUuid('manager_level', 'level_4')),
  budget: ref(classUuid('responsibility', 'budget')),
  director: classUuid('manager_type', 'director'),
};

/** A write a case depends on; the contract test's app sends it with the test's token. */
export async function write(legacy: TestLegacy, path: string, body: unknown): Promise<void> {
  const response = await legacy.post(path, body);
  if (!response.ok) throw new Error(`setup ${path} answered ${response.status}: ${await response.text()}`);
}
