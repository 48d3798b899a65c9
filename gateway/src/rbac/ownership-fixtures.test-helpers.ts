import type { Principal } from '../auth/token-verifier.js';
import type { DetailType, LegacyRecord } from '../legacy/legacy-loaders.js';
import { LegacyResponseError } from '../legacy/legacy-client.js';
import type { OrganisationReads } from './unit-ownership.js';

/**
 * The ownership facts RBAC's decision tests read: two small organisations, served as `OrganisationReads`
 * that record every read, so a test can say what a decision cost as well as what it decided. Each serves
 * OS2mo 2.4.0's reading API (`detailVersionsFrom`: a detail's versions by UUID) or, with `readingApi: false`,
 * answers it as a backend without `/api/v1` does (`undefined`, the 404), so RBAC scans the units instead.
 */

/** How a fixture answers the reading API: served (OS2mo 2.4.0) or not found (an older backend). */
export interface FixtureOptions {
  readingApi?: boolean;
}

/** The two ways RBAC finds a detail, for tests that run on both. */
export const lookupPaths = [
  { path: 'the reading API', readingApi: true },
  { path: 'the scan of the units (no reading API)', readingApi: false },
] as const;

export const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

// root ─┬─ dept (owned by deptOwner) ── office (owned by officeOwner) ── team
//       └─ other (owned by otherOwner)
// `future` exists only from 2030 under `other`.
export const unit = { root: id(1), dept: id(2), office: id(3), team: id(4), other: id(5), future: id(6) };
export const person = { deptOwner: id(11), officeOwner: id(12), otherOwner: id(13), worker: id(14) };
export const record = {
  engagement: id(21),
  personOwner: id(22),
  ownerRecord: id(23),
  association: id(24),
  address: id(25),
};
const parents: Record<string, string | null> = {
  [unit.root]: null,
  [unit.dept]: unit.root,
  [unit.office]: unit.dept,
  [unit.team]: unit.office,
  [unit.other]: unit.root,
  [unit.future]: unit.other,
};
const owners: Record<string, string[]> = {
  [unit.dept]: [person.deptOwner],
  [unit.office]: [person.officeOwner],
  [unit.other]: [person.otherOwner],
};
const details: Partial<Record<DetailType, LegacyRecord[]>> = {
  engagement: [{ uuid: record.engagement, org_unit: { uuid: unit.team }, person: { uuid: person.worker } }],
  manager: [],
  owner: [
    { uuid: record.ownerRecord, org_unit: { uuid: unit.office }, owner: { uuid: person.officeOwner } },
    { uuid: record.personOwner, org_unit: null, person: { uuid: person.worker }, owner: { uuid: id(99) } },
  ],
  it: [],
  association: [{ uuid: record.association, org_unit: { uuid: unit.team }, person: { uuid: person.worker } }],
  // A person's address: no unit.
  address: [{ uuid: record.address, person: { uuid: person.worker } }],
};

/**
 * The tree as an in-memory legacy service that counts its reads (`calls`): today is 2026-06-01 and nothing
 * changes place.
 */
export function treeReads({ readingApi = true }: FixtureOptions = {}) {
  const calls: string[] = [];
  const exists = (uuid: string, at: string) =>
    uuid in parents && (uuid !== unit.future || at >= '2030-01-01');
  const chain = (uuid: string): LegacyRecord => {
    const parent = parents[uuid];
    return { uuid, parent: parent ? chain(parent) : null };
  };
  const reads: OrganisationReads = {
    orgUnit: async (uuid, at) => {
      calls.push(`ou ${uuid}`);
      return exists(uuid, at) ? chain(uuid) : null;
    },
    unitDetails: async (type, uuid) => {
      calls.push(`ou ${uuid} ${type}`);
      if (!(uuid in parents)) throw new LegacyResponseError(404, { error_key: 'E_ORG_UNIT_NOT_FOUND' });
      if (type === 'owner' && owners[uuid]) {
        return [
          ...owners[uuid].map((owner) => ({ uuid: id(50), owner: { uuid: owner }, org_unit: { uuid } })),
          ...(details.owner ?? []).filter((found) => (found.org_unit as LegacyRecord | null)?.uuid === uuid),
        ];
      }
      return (details[type] ?? []).filter((found) => (found.org_unit as LegacyRecord | null)?.uuid === uuid);
    },
    employeeDetails: async (type, uuid) => {
      calls.push(`e ${uuid} ${type}`);
      return (details[type] ?? []).filter((found) => (found.person as LegacyRecord | null)?.uuid === uuid);
    },
    orgUnitVersions: async (uuid, at) => {
      calls.push(`ou ${uuid} versions`);
      return uuid === unit.future && at < '2030-01-01'
        ? [{ uuid, validity: { from: '2030-01-01', to: null } }]
        : [];
    },
    unitExists: async (uuid) => {
      calls.push(`ou ${uuid} exists`);
      return uuid in parents;
    },
    orgUnitPage: async (at) => {
      calls.push('units');
      return {
        items: Object.keys(parents)
          .filter((uuid) => exists(uuid, at))
          .map((uuid) => ({ uuid })),
      };
    },
    detailVersionsFrom: async (type, uuid) => {
      calls.push(`by_uuid ${type} ${uuid}`);
      if (!readingApi) return undefined;
      // Nothing in the tree has a validity: every record is in force on every day.
      return (details[type] ?? []).filter((found) => found.uuid === uuid);
    },
  };
  return { reads, calls };
}

/** A token's principal: its roles and `uuid` claim. */
export const principal = (roles: string[], employeeUuid?: string): Principal => ({
  subject: id(90),
  username: 'someone',
  clientId: 'org-frontend',
  roles,
  employeeUuid,
});

// The timeline: the tree's units over time. Today is 2026-06-01. `team` lay under `dept` until 2026-02-28 and lies under `other` from 2026-03-01.
// Engagement `stays` is in `team` throughout; engagement `moved` was in `dept` and is in `other` from
// 2026-03-01 (the record itself moved, not its unit).
export const timelineToday = '2026-06-01';
export const stays = id(31);
export const moved = id(32);
const open: { from: string; to: string | null } = { from: '2000-01-01', to: null };
const teamVersions = [
  { from: '2000-01-01', to: '2026-02-28', parent: unit.dept },
  { from: '2026-03-01', to: null, parent: unit.other },
];
// `ghost` lay under `other` in February 2026 only: the scan's unit pages (the scan date and today) miss it.
// Engagements `hopped` (no person) and `visited` (the worker's) spent February in it, and are in `dept`
// before and after.
export const ghost = id(7);
export const hopped = id(33);
export const visited = id(34);
const viaGhost = (uuid: string, worker?: string) =>
  [
    { unit: unit.dept, from: '2000-01-01', to: '2026-01-31' },
    { unit: ghost, from: '2026-02-01', to: '2026-02-28' },
    { unit: unit.dept, from: '2026-03-01', to: null },
  ].map(({ unit: at, from, to }) => ({
    uuid,
    org_unit: { uuid: at },
    ...(worker ? { person: { uuid: worker } } : {}),
    validity: { from, to },
  }));
// Engagement `paused` is in `dept` but not in force in February 2026 (terminated, then in force again).
export const paused = id(35);
const engagements: {
  uuid: string;
  org_unit: { uuid: string };
  person?: { uuid: string };
  validity: typeof open;
}[] = [
  { uuid: stays, org_unit: { uuid: unit.team }, validity: open },
  { uuid: moved, org_unit: { uuid: unit.dept }, validity: { from: '2000-01-01', to: '2026-02-28' } },
  { uuid: moved, org_unit: { uuid: unit.other }, validity: { from: '2026-03-01', to: null } },
  ...viaGhost(hopped),
  ...viaGhost(visited, person.worker),
  { uuid: paused, org_unit: { uuid: unit.dept }, validity: { from: '2000-01-01', to: '2026-01-31' } },
  { uuid: paused, org_unit: { uuid: unit.dept }, validity: { from: '2026-03-01', to: null } },
];
const covers = (validity: { from: string; to: string | null }, at: string) =>
  validity.from <= at && (validity.to === null || validity.to >= at);

// Units under `dept` that end on 2026-12-31: `closing` for good, `returning` to come back under `other`
// on 2028-01-01.
export const closing = id(8);
export const returning = id(9);
const pauses: Record<string, { last: string; back?: string }> = {
  [closing]: { last: '2026-12-31' },
  [returning]: { last: '2026-12-31', back: '2028-01-01' },
};

/** The timeline as an in-memory legacy service that counts its reads (`calls`, each with its date). */
export function timelineReads({ readingApi = true }: FixtureOptions = {}) {
  const calls: string[] = [];
  const parentAt = (uuid: string, at: string): { parent: string | null; validity: typeof open } => {
    if (uuid === unit.team) {
      const version = teamVersions.find((v) => covers(v, at))!;
      return { parent: version.parent, validity: { from: version.from, to: version.to } };
    }
    if (uuid === ghost) return { parent: unit.other, validity: open };
    const pause = pauses[uuid];
    if (pause) {
      return pause.back !== undefined && at >= pause.back
        ? { parent: unit.other, validity: { from: pause.back, to: null } }
        : { parent: unit.dept, validity: { from: '2000-01-01', to: pause.last } };
    }
    return { parent: uuid === unit.root ? null : unit.root, validity: open };
  };
  const chain = (uuid: string, at: string): LegacyRecord => {
    const { parent, validity } = parentAt(uuid, at);
    return { uuid, validity, parent: parent ? chain(parent, at) : null };
  };
  const known = [unit.root, unit.dept, unit.team, unit.other];
  const reads: OrganisationReads = {
    orgUnit: async (uuid, at) => {
      calls.push(`ou ${uuid} @${at}`);
      const pause = pauses[uuid];
      if (pause && at > pause.last && (pause.back === undefined || at < pause.back)) return null;
      return known.includes(uuid) || uuid === ghost || pause ? chain(uuid, at) : null;
    },
    unitDetails: async (type, uuid, query) => {
      calls.push(`ou ${uuid} ${type} ${query.validity ?? 'present'} @${query.at}`);
      if (type === 'owner') {
        const owner = { [unit.dept]: person.deptOwner, [unit.other]: person.otherOwner }[uuid];
        return owner ? [{ uuid: id(50), owner: { uuid: owner }, org_unit: { uuid } }] : [];
      }
      if (type !== 'engagement') return [];
      return engagements.filter(
        (e) =>
          e.org_unit.uuid === uuid &&
          (query.validity === 'future' ? e.validity.from > query.at : covers(e.validity, query.at)),
      );
    },
    employeeDetails: async (type, uuid, query) => {
      calls.push(`e ${uuid} ${type} ${query.validity ?? 'present'} @${query.at}`);
      if (type !== 'engagement') return [];
      return engagements.filter(
        (e) =>
          e.person?.uuid === uuid &&
          (query.validity === 'future' ? e.validity.from > query.at : covers(e.validity, query.at)),
      );
    },
    orgUnitVersions: async (uuid, at) => {
      calls.push(`ou ${uuid} versions @${at}`);
      const back = pauses[uuid]?.back;
      return back && back > at ? [{ uuid, validity: { from: back, to: null } }] : [];
    },
    unitExists: async (uuid) => known.includes(uuid),
    orgUnitPage: async (at) => {
      calls.push(`units @${at}`);
      return { items: known.map((uuid) => ({ uuid })) };
    },
    detailVersionsFrom: async (type, uuid, from) => {
      calls.push(`by_uuid ${type} ${uuid} @${from}`);
      if (!readingApi) return undefined;
      if (type !== 'engagement') return [];
      return engagements.filter((e) => e.uuid === uuid && (e.validity.to === null || e.validity.to >= from));
    },
  };
  return { reads, calls };
}
