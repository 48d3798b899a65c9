import { LegacyResponseError } from '../legacy/legacy-client.js';
import type { DetailType, LegacyRecord } from '../legacy/legacy-loaders.js';

/**
 * The legacy reads RBAC needs. The per-request `LegacyLoaders` provide them, so every lookup is made once
 * per request and lookups started together go out in parallel.
 */
export interface OrganisationReads {
  orgUnit(uuid: string, at: string): Promise<LegacyRecord | null>;
  unitDetails(type: DetailType, uuid: string, query: { at: string }): Promise<LegacyRecord[]>;
  employeeDetails(type: DetailType, uuid: string, query: { at: string }): Promise<LegacyRecord[]>;
  orgUnitPage(at: string, start: number, limit: number): Promise<{ items: LegacyRecord[] }>;
}

export type OwnershipAnswer =
  { kind: 'owned'; via: string } | { kind: 'not_owned' } | { kind: 'unit_not_found' };

/** Where a detail record is in force on a date: its org unit, or `null` for a record of a person. */
export type DetailLocation = { found: true; unit: string | null } | { found: false };

export interface DetailHints {
  /** Units the record may be in (for an edit, the new unit): read first, before any scan. */
  units: readonly string[];
  /** Employees the record may belong to. */
  persons: readonly string[];
}

const uuidOf = (value: unknown): string | null => {
  const uuid = (value as { uuid?: unknown } | null | undefined)?.uuid;
  return typeof uuid === 'string' ? uuid.toLowerCase() : null;
};

/** A listing of a unit or employee that does not exist is empty, not an error. */
async function listingOrEmpty(read: Promise<LegacyRecord[]>): Promise<LegacyRecord[]> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof LegacyResponseError && error.status === 404) return [];
    throw error;
  }
}

/**
 * Answers, for one principal, "does this employee own this unit or one of its ancestors?" and "which unit
 * is this detail record in?" from legacy reads.
 *
 * Ownership walks the whole ancestor chain rather than using `inherit_owner=1`, which stops at the nearest
 * ancestor that has owners and so would hide a higher owner. `GET /service/ou/{uuid}/?at=` embeds the full
 * parent chain in one call; the owners of every unit in it are then read in parallel.
 *
 * The chain is read as of the change's date (where the unit sits when the change takes effect); owner
 * records as of today (who owns it now, when the write is made).
 */
export function unitOwnership(reads: OrganisationReads, options: { employee: string; today: string }) {
  const employee = options.employee.toLowerCase();
  const answers = new Map<string, Promise<OwnershipAnswer>>();

  const ownersOf = async (unit: string): Promise<string[]> =>
    (await listingOrEmpty(reads.unitDetails('owner', unit, { at: options.today })))
      .map((record) => uuidOf(record.owner))
      .filter((owner): owner is string => owner !== null);

  const answer = async (unit: string, at: string): Promise<OwnershipAnswer> => {
    const record = await reads.orgUnit(unit, at);
    if (!record) return { kind: 'unit_not_found' };
    const chain: string[] = [];
    for (let current: unknown = record; uuidOf(current) !== null;) {
      const uuid = uuidOf(current)!;
      if (chain.includes(uuid)) break;
      chain.push(uuid);
      current = (current as LegacyRecord).parent;
    }
    const owners = await Promise.all(chain.map(ownersOf));
    const index = owners.findIndex((list) => list.includes(employee));
    return index === -1 ? { kind: 'not_owned' } : { kind: 'owned', via: chain[index]! };
  };

  /** Whether the employee owns `unit` or one of its ancestors, with the unit's position as of `at`. */
  const ownsUnit = (unit: string, at: string): Promise<OwnershipAnswer> => {
    const key = `${unit.toLowerCase()}@${at}`;
    let pending = answers.get(key);
    if (!pending) {
      pending = answer(unit.toLowerCase(), at);
      answers.set(key, pending);
    }
    return pending;
  };

  /**
   * The unit of the version of detail `uuid` in force on `at`. The legacy contract has no read of a detail
   * by UUID, so the hinted units and employees are read first; only when the record is not among them is
   * every unit in force on `at` listed (one call) and each unit's records of that type read (one call per
   * unit, all in parallel).
   */
  const locateDetail = async (
    type: DetailType,
    uuid: string,
    at: string,
    hints: DetailHints,
  ): Promise<DetailLocation> => {
    const wanted = uuid.toLowerCase();
    const locate = (listings: LegacyRecord[][]): DetailLocation | undefined => {
      for (const records of listings) {
        const record = records.find((candidate) => candidate.uuid.toLowerCase() === wanted);
        if (record) return { found: true, unit: uuidOf(record.org_unit) };
      }
      return undefined;
    };
    const hinted = await Promise.all([
      ...hints.units.map((unit) => listingOrEmpty(reads.unitDetails(type, unit, { at }))),
      ...hints.persons.map((person) => listingOrEmpty(reads.employeeDetails(type, person, { at }))),
    ]);
    const fromHints = locate(hinted);
    if (fromHints) return fromHints;

    const probed = new Set(hints.units.map((unit) => unit.toLowerCase()));
    const units = (await reads.orgUnitPage(at, 0, 0)).items
      .map((item) => item.uuid.toLowerCase())
      .filter((unit) => !probed.has(unit));
    const scanned = await Promise.all(
      units.map((unit) => listingOrEmpty(reads.unitDetails(type, unit, { at }))),
    );
    return locate(scanned) ?? { found: false };
  };

  return { employee, ownsUnit, locateDetail };
}

export type UnitOwnership = ReturnType<typeof unitOwnership>;
