import { LegacyResponseError } from '../legacy/legacy-client.js';
import type { DetailType, LegacyRecord } from '../legacy/legacy-loaders.js';

/**
 * The legacy reads RBAC needs. The per-request `LegacyLoaders` provide them, so every lookup is made once
 * per request and lookups started together go out in parallel.
 */
export interface OrganisationReads {
  orgUnit(uuid: string, at: string): Promise<LegacyRecord | null>;
  unitDetails(
    type: DetailType,
    uuid: string,
    query: { at: string; validity?: 'present' | 'future' },
  ): Promise<LegacyRecord[]>;
  employeeDetails(
    type: DetailType,
    uuid: string,
    query: { at: string; validity?: 'present' | 'future' },
  ): Promise<LegacyRecord[]>;
  orgUnitPage(at: string, start: number, limit: number): Promise<{ items: LegacyRecord[] }>;
  /** The unit's versions (`details/org_unit`); `future`: those that start after `at`. */
  orgUnitVersions(uuid: string, at: string, validity: 'future'): Promise<LegacyRecord[]>;
  /** Whether a unit has this UUID on any day, past or future (`/ou/{uuid}/details/`, one read). */
  unitExists(uuid: string): Promise<boolean>;
  /**
   * Every version of detail `uuid` in force on `from` or after it, in units and of persons alike (2.4.0's
   * reading API, `/api/v1/{type}/by_uuid`, one read); `undefined` when the backend does not serve the reading API.
   */
  detailVersionsFrom(type: DetailType, uuid: string, from: string): Promise<LegacyRecord[] | undefined>;
}

/** The days a write affects, both included (YYYY-MM-DD); `to: endOfTime` is for good. */
export interface Period {
  from: string;
  to: string;
}

/** The end of a period with no end: the write changes every version from its start on. */
export const endOfTime = '9999-12-31';

export type OwnershipAnswer =
  | { kind: 'owned' }
  /** `at`: the first day of the period on which the unit lies outside the employee's units. */
  | { kind: 'not_owned'; at: string }
  | { kind: 'unit_not_found'; at: string }
  /** The unit's place changes more often within the period than RBAC follows. */
  | { kind: 'too_many_changes' };

/** One version of a detail record: where it is, and when. `to: null` is open-ended. */
export interface DetailVersion {
  /** Its org unit, or `null` for a record of a person. */
  unit: string | null;
  /** The person it names, if any: their listings show the record wherever it is. */
  person: string | null;
  /** The employee an owner record makes owner. */
  owner: string | null;
  from: string;
  to: string | null;
}

/**
 * The versions of a detail record that overlap a period, in date order, the first in force on its start;
 * the last ends with the period or with the record. `unplaced`: the record is in force on the period's
 * start and again later, but on `at` it is in none of the units and persons read, so the write cannot be
 * judged on that day.
 */
export type DetailLocation =
  | { found: true; versions: DetailVersion[] }
  | { found: false }
  | { found: 'unplaced'; at: string }
  /** Finding it needs a scan of the units, and the caller asked for none (see `decide`). */
  | { found: 'needs_scan' }
  /** Finding it needs a scan of more units than `maxScanUnits`. */
  | { found: 'too_many_units'; units: number };

export interface DetailHints {
  /** Units the record may be in (for an edit, the new unit): read first, before any scan. */
  units: readonly string[];
  /** Employees the record may belong to. */
  persons: readonly string[];
}

/** How many places of one unit are read for one period before RBAC gives up and refuses. */
export const maxPlacesPerPeriod = 50;

/** The most units one scan for a detail reads (two listings each) before RBAC refuses instead. */
export const defaultMaxScanUnits = 2_000;

const uuidOf = (value: unknown): string | null => {
  const uuid = (value as { uuid?: unknown } | null | undefined)?.uuid;
  return typeof uuid === 'string' ? uuid.toLowerCase() : null;
};

/** The record's validity (its days: a date-time reads as its date); a record that shows none is taken as always valid. */
const validityOf = (record: unknown): { from: string; to: string | null } => {
  const validity = (record as { validity?: { from?: unknown; to?: unknown } } | null)?.validity;
  return {
    from: typeof validity?.from === 'string' ? validity.from.slice(0, 10) : '0001-01-01',
    to: typeof validity?.to === 'string' ? validity.to.slice(0, 10) : null,
  };
};

export const nextDay = (date: string): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** A listing of a unit or employee that does not exist is empty, not an error. */
async function listingOrEmpty(read: Promise<LegacyRecord[]>): Promise<LegacyRecord[]> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof LegacyResponseError && error.status === 404) return [];
    throw error;
  }
}

/** How a record's known versions cover a period (see `versionsOver`). */
type Coverage =
  /** Not in force on the period's start. */
  | { kind: 'absent' }
  /** In force on every day of the period. */
  | { kind: 'covered'; versions: DetailVersion[] }
  /** In force from the start until it ends, before the period does, with no later version known. */
  | { kind: 'ended'; versions: DetailVersion[] }
  /** In force on the start and again after `at`, but on `at` in no version known. */
  | { kind: 'gap'; at: string; versions: DetailVersion[] };

/**
 * Follows a record's versions from the start of `period`: the one in force on each day, then the next
 * from the day after it ends, until the period ends, the record ends, or a day no known version covers
 * while a later one exists (a gap: the record went on somewhere not read).
 */
function versionsOver(versions: readonly DetailVersion[], period: Period): Coverage {
  const found: DetailVersion[] = [];
  let day = period.from;
  for (;;) {
    const version = versions.find((v) => v.from <= day && (v.to === null || v.to >= day));
    if (!version) {
      if (found.length === 0) return { kind: 'absent' };
      const later = versions.some((v) => v.from > day && v.from <= period.to);
      return later ? { kind: 'gap', at: day, versions: found } : { kind: 'ended', versions: found };
    }
    found.push(version);
    if (version.to === null || version.to >= period.to) return { kind: 'covered', versions: found };
    day = nextDay(version.to);
  }
}

/**
 * Answers, for one principal, "does this employee own this unit or one of its ancestors, throughout this
 * period?" and "where is this detail record during this period?" from legacy reads.
 *
 * Ownership walks the whole ancestor chain rather than using `inherit_owner=1`, which stops at the nearest
 * ancestor that has owners and so would hide a higher owner. `GET /service/ou/{uuid}/?at=` embeds the full
 * parent chain in one call, each unit with the validity of its version; the chain cannot change before the
 * earliest of their ends, so the next read is the day after it, until the period is covered. The owners of
 * every unit met are read once, as of today: the token holder's right is their ownership now.
 *
 * @example
 * const ownership = unitOwnership(loaders, { employee, today: '2026-11-24' });
 * await ownership.ownsUnitOver(unit, { from: '2025-06-01', to: '2026-11-24' }); // { kind: 'owned' } or why not
 */
export function unitOwnership(
  reads: OrganisationReads,
  options: {
    employee: string;
    today: string;
    /** Per type, the earliest date any detail of that type is looked up at in this request (one scan each). */
    scanFrom?: ReadonlyMap<DetailType, string>;
    /** The most units a scan reads (default `defaultMaxScanUnits`). */
    maxScanUnits?: number;
  },
) {
  const maxScanUnits = options.maxScanUnits ?? defaultMaxScanUnits;
  const employee = options.employee.toLowerCase();
  const answers = new Map<string, Promise<OwnershipAnswer>>();
  const owners = new Map<string, Promise<string[]>>();
  const scans = new Map<string, Promise<Map<string, DetailVersion[]> | { units: number }>>();

  const ownersOf = (unit: string): Promise<string[]> => {
    let pending = owners.get(unit);
    if (!pending) {
      pending = listingOrEmpty(reads.unitDetails('owner', unit, { at: options.today })).then((records) =>
        records.map((record) => uuidOf(record.owner)).filter((owner): owner is string => owner !== null),
      );
      owners.set(unit, pending);
    }
    return pending;
  };

  /**
   * The first day after `day` on which `unit`, not in force on `day`, is in force again within the period;
   * `null` when it is not scheduled again (its life ends before the period does).
   */
  const resumes = async (unit: string, day: string, period: Period): Promise<string | null> => {
    const later = await listingOrEmpty(reads.orgUnitVersions(unit, day, 'future'));
    const starts = later.map((version) => validityOf(version).from).filter((from) => from <= period.to);
    return starts.length === 0 ? null : starts.reduce((a, b) => (a < b ? a : b));
  };

  const answer = async (unit: string, period: Period): Promise<OwnershipAnswer> => {
    let day = period.from;
    for (let place = 0; place < maxPlacesPerPeriod; place += 1) {
      const record = await reads.orgUnit(unit, day);
      if (!record) {
        // A unit must exist on the write's first day and on every day up to today. After today, a unit
        // that ends is judged up to its end, and again from wherever it is scheduled to come back.
        if (day === period.from || day <= options.today) return { kind: 'unit_not_found', at: day };
        const next = await resumes(unit, day, period);
        if (next === null) return { kind: 'owned' };
        day = next;
        continue;
      }
      const chain: string[] = [];
      let changes: string | null = null;
      for (let current: unknown = record; uuidOf(current) !== null;) {
        const uuid = uuidOf(current)!;
        if (chain.includes(uuid)) break;
        chain.push(uuid);
        const end = validityOf(current).to;
        if (end !== null && (changes === null || end < changes)) changes = end;
        current = (current as LegacyRecord).parent;
      }
      const lists = await Promise.all(chain.map(ownersOf));
      if (!lists.some((list) => list.includes(employee))) return { kind: 'not_owned', at: day };
      if (changes === null || changes >= period.to) return { kind: 'owned' };
      day = nextDay(changes);
    }
    return { kind: 'too_many_changes' };
  };

  /** Whether the employee owns `unit` or one of its ancestors on every day of `period`. */
  const ownsUnitOver = (unit: string, period: Period): Promise<OwnershipAnswer> => {
    const key = `${unit.toLowerCase()}@${period.from}..${period.to}`;
    let pending = answers.get(key);
    if (!pending) {
      pending = answer(unit.toLowerCase(), period);
      answers.set(key, pending);
    }
    return pending;
  };

  const collect = (listings: LegacyRecord[][], into: Map<string, DetailVersion[]>) => {
    for (const record of listings.flat()) {
      const uuid = record.uuid.toLowerCase();
      const version = {
        unit: uuidOf(record.org_unit),
        person: uuidOf(record.person),
        owner: uuidOf(record.owner),
        ...validityOf(record),
      };
      const known = into.get(uuid) ?? [];
      if (!known.some((other) => other.from === version.from)) known.push(version);
      into.set(uuid, known);
    }
    return into;
  };

  /**
   * Every version of every `type` record in an org unit that is in force on `at` or starts after it:
   * the units in force on `at` and today, each read twice (`validity=present` and `future` as of `at`).
   * Made once per type and request, and shared by every detail the request names.
   */
  const scan = (type: DetailType, at: string): Promise<Map<string, DetailVersion[]> | { units: number }> => {
    const key = `${type}@${at}`;
    let pending = scans.get(key);
    if (!pending) {
      pending = (async () => {
        const pages = await Promise.all([
          reads.orgUnitPage(at, 0, 0),
          reads.orgUnitPage(options.today, 0, 0),
        ]);
        const units = [
          ...new Set(pages.flatMap((page) => page.items.map((item) => item.uuid.toLowerCase()))),
        ];
        if (units.length > maxScanUnits) return { units: units.length };
        const listings = await Promise.all(
          units.flatMap((unit) => [
            listingOrEmpty(reads.unitDetails(type, unit, { at })),
            listingOrEmpty(reads.unitDetails(type, unit, { at, validity: 'future' })),
          ]),
        );
        return collect(listings, new Map());
      })();
      scans.set(key, pending);
    }
    return pending;
  };

  /** The `type` records of the given units and persons in force on `at` and scheduled after it. */
  const listingsOf = async (
    type: DetailType,
    at: string,
    units: readonly string[],
    persons: readonly string[],
  ) =>
    collect(
      await Promise.all([
        ...units.flatMap((unit) => [
          listingOrEmpty(reads.unitDetails(type, unit, { at })),
          listingOrEmpty(reads.unitDetails(type, unit, { at, validity: 'future' })),
        ]),
        ...persons.flatMap((person) => [
          listingOrEmpty(reads.employeeDetails(type, person, { at })),
          listingOrEmpty(reads.employeeDetails(type, person, { at, validity: 'future' })),
        ]),
      ]),
      new Map(),
    );

  /**
   * Whether the backend serves the reading API, as the decision's first lookup by UUID found (a 404 of its
   * path: no); the lookups started meanwhile wait for that answer, so a backend without it is asked once.
   */
  let readingApi: Promise<boolean> | undefined;
  const readingVersions = async (type: DetailType, uuid: string, from: string) => {
    if (readingApi !== undefined) {
      return (await readingApi) ? reads.detailVersionsFrom(type, uuid, from) : undefined;
    }
    const first = reads.detailVersionsFrom(type, uuid, from);
    // A failure is the first lookup's to report; the others then ask for themselves.
    readingApi = first.then(
      (versions) => versions !== undefined,
      () => true,
    );
    return first;
  };

  /**
   * Where a record is over `period`, from every version the reading API holds of it from the period's start
   * on. OS2mo 2.4.0's `by_uuid` with `validity=FROM/infinity` answers them all (`backend/mora/`@2.4.0): the
   * connector reads the record's current registration over that interval (`common.py` 32–51 `get_connector`,
   * `lora.py` 198–221: `virkningfra`/`virkningtil`), keeps every effect that overlaps it (`lora.py` 234–236
   * `is_range_relevant`, `util.py` 116) and drops only the effects in which the record is not active
   * (`handler/reading.py` 104–107, `util.py` 751 `is_reg_valid`). So a day no version covers is a day the
   * record is not in force: a gap before a later version is still `unplaced` and refused, as on the scan's path.
   * A record that is a person's on every day found is "in force in no org unit", as the scan answers (it reads
   * units, and persons only as hints name them), unless the write names that person.
   */
  const locateByReading = (
    records: LegacyRecord[],
    wanted: string,
    period: Period,
    hints: DetailHints,
  ): DetailLocation => {
    const over = versionsOver(collect([records], new Map()).get(wanted) ?? [], period);
    if (over.kind === 'absent') return { found: false };
    if (over.kind === 'gap') return { found: 'unplaced', at: over.at };
    const hinted = new Set(hints.persons.map((person) => person.toLowerCase()));
    const persons = over.versions.every(
      (version) => version.unit === null && (version.person === null || !hinted.has(version.person)),
    );
    return persons ? { found: false } : { found: true, versions: over.versions };
  };

  /**
   * The versions of detail `uuid` over `period`. The hinted units and employees are read first (as of the
   * period's start, and what is scheduled after it). Only when they do not cover the whole period (and the
   * caller allows what may cost a scan: `mayScan`), the record is read by UUID where the backend serves OS2mo
   * 2.4.0's reading API: one read, every version (`locateByReading`). Without it (the Service API has no read
   * of a detail by UUID) the request's shared scan is used, and then the listings of every person the record
   * names, which show it in units the scan did not read (a unit created and closed between the scan's dates).
   * Every day of the period on which the record is in force must be placed: a day between two known versions
   * that no version covers is `unplaced`, and refused, never skipped.
   */
  const locateDetailOver = async (
    type: DetailType,
    uuid: string,
    period: Period,
    hints: DetailHints,
    { mayScan = true }: { mayScan?: boolean } = {},
  ): Promise<DetailLocation> => {
    const wanted = uuid.toLowerCase();
    const at = period.from;
    const hinted = (await listingsOf(type, at, hints.units, hints.persons)).get(wanted) ?? [];
    const fromHints = versionsOver(hinted, period);
    if (fromHints.kind === 'covered') return { found: true, versions: fromHints.versions };
    if (!mayScan) return { found: 'needs_scan' };
    const read = await readingVersions(type, wanted, at);
    if (read !== undefined) return locateByReading(read, wanted, period, hints);

    const scanFrom = options.scanFrom?.get(type);
    const scanned = await scan(type, scanFrom !== undefined && scanFrom <= at ? scanFrom : at);
    if (!(scanned instanceof Map)) return { found: 'too_many_units', units: scanned.units };
    const known = [...(scanned.get(wanted) ?? []), ...hinted];
    const scannedOver = versionsOver(known, period);
    if (scannedOver.kind === 'covered') return { found: true, versions: scannedOver.versions };
    const persons = [...new Set(known.map((version) => version.person))].filter(
      (person): person is string => person !== null && !hints.persons.includes(person),
    );
    const named = persons.length === 0 ? [] : ((await listingsOf(type, at, [], persons)).get(wanted) ?? []);
    const over = versionsOver([...known, ...named], period);
    switch (over.kind) {
      case 'absent':
        return { found: false };
      case 'gap':
        return { found: 'unplaced', at: over.at };
      case 'covered':
      case 'ended':
        return { found: true, versions: over.versions };
    }
  };

  return { employee, ownsUnitOver, locateDetailOver };
}

export type UnitOwnership = ReturnType<typeof unitOwnership>;
