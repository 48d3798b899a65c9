import { randomUUID } from 'node:crypto';
import { invalid, LegacyError } from '../errors.js';
import { stableUuid } from '../fixture/stable-uuid.js';
import { isUuid, type BodyReader } from '../input.js';
import {
  classFacets,
  collections,
  detailTypes,
  type OrgUnit,
  type OrgUnitAttrs,
  type RelatedUnit,
  type RelatedUnitAttrs,
} from '../model.js';
import type { OrgData } from '../org-data.js';
import { addDays, coversInterval, endsBefore, versionAt } from '../time.js';
import { eachVersion, requireClass, requireFree, requireUnitDuring } from './checks.js';
import { editTemporal, terminateTemporal } from './detail-writes.js';
import type { PendingState } from './pending-state.js';

function checkOrgUnit(data: OrgData, unit: OrgUnit): void {
  eachVersion(unit, (version, validity) => {
    requireClass(data, 'org_unit_type', version.org_unit_type, classFacets.org_unit_type);
    if (version.org_unit_level !== null) {
      requireClass(data, 'org_unit_level', version.org_unit_level, classFacets.org_unit_level);
    }
    if (version.time_planning != null) {
      requireClass(data, 'time_planning', version.time_planning, classFacets.time_planning);
    }
    if (version.org_unit_hierarchy != null) {
      requireClass(data, 'org_unit_hierarchy', version.org_unit_hierarchy, classFacets.org_unit_hierarchy);
    }
    if (version.parent !== null) {
      if (version.parent === unit.uuid) throw invalid.moveToChild(unit.uuid, version.parent);
      requireUnitDuring(data, version.parent, validity);
    }
  });
}

/** The organisation's UUID as a parent means "at the top", as OS2mo writes it. */
function topLevelAsNull(data: OrgData, parent: string | null): string | null {
  return parent !== null && data.organisations().some((organisation) => organisation.uuid === parent)
    ? null
    : parent;
}

/** True when `candidate` is `unit` or lies below it on `date`. */
export function isSelfOrDescendant(data: OrgData, unit: string, candidate: string, date: string): boolean {
  const seen = new Set<string>();
  let current: string | null = candidate;
  while (current !== null && !seen.has(current)) {
    if (current === unit) return true;
    seen.add(current);
    const found = data.findOrgUnit(current);
    current = (found && versionAt(found, date)?.parent) ?? null;
  }
  return false;
}

/** `POST /service/ou/create`: a unit below `parent`, or at the top when `parent` is absent. */
export function createOrgUnit(data: OrgData, state: PendingState, body: BodyReader): string {
  const requested = body.optionalUuid('uuid');
  const name = body.string('name');
  const unit: OrgUnit = {
    uuid: requested ?? randomUUID(),
    versions: [
      {
        ...body.validity(),
        name,
        user_key: body.optionalString('user_key') ?? name,
        // OS2mo names the organisation as the parent of a top-level unit.
        parent: topLevelAsNull(data, body.optionalRef('parent') ?? null),
        org_unit_type: body.ref('org_unit_type'),
        org_unit_level: body.optionalRef('org_unit_level') ?? null,
        time_planning: body.optionalRef('time_planning') ?? null,
        // 2.4.0 stores it as the unit's `opmærkning` (`service/orgunit.py` line 121).
        org_unit_hierarchy: body.optionalRef('org_unit_hierarchy') ?? null,
      },
    ],
  };
  requireFree(data, collections.orgUnit, requested);
  checkOrgUnit(data, unit);
  state.put(collections.orgUnit, unit);
  return unit.uuid;
}

/**
 * True for the values Python reads as false (`None`, `False`, `0`, `""`, `[]`, `{}`): where 2.4.0 tests
 * `data.get(key)`, such a value is as if the key were left out.
 */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function falsyInPython(value: unknown): boolean {
  if (value === null || value === false || value === 0 || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

/**
 * The unit classes an edit stores only when given a truthy value, as 2.4.0 `service/orgunit.py` (tag 2.4.0)
 * does: line 248 (`org_unit_level`), 255 (`org_unit_hierarchy`), 262 (`time_planning`), each behind
 * `if data.get(…)`. So `null` or `{}` keeps the unit's current class: no Service API write clears one.
 */
const keptWhenFalsy = ['org_unit_level', 'org_unit_hierarchy', 'time_planning'] as const;

/**
 * `details/edit` with `type: "org_unit"`: rename, retype or move a unit, or change its level, hierarchy or
 * time planning, from a date. As 2.4.0, `null` (or `{}`) for the level, hierarchy or time planning keeps it.
 */
export function editOrgUnit(data: OrgData, state: PendingState, body: BodyReader): string {
  const changesBody = body.nested('data');
  // As OS2mo: the unit is `data.uuid`, else `original.uuid`; the item's own `uuid` is not read.
  const uuid =
    changesBody.has('uuid') || !body.has('original')
      ? changesBody.uuid('uuid')
      : body.nested('original').uuid('uuid');
  // Not in OS2mo: an item naming another unit at the top than in `data` is refused, so a proxy that judges
  // the top-level `uuid` (the gateway's RBAC today) cannot be led to allow an edit of a different unit.
  const named = body.optionalUuid('uuid');
  if (named !== undefined && named !== uuid) {
    throw invalid.input([{ key: 'uuid', message: 'names another unit than data.uuid' }]);
  }
  const validity = changesBody.validity();
  const changes: Partial<OrgUnitAttrs> = {};
  if (changesBody.raw('name') !== undefined) changes.name = changesBody.string('name');
  if (changesBody.raw('user_key') !== undefined) changes.user_key = changesBody.string('user_key');
  const parent = changesBody.raw('parent');
  if (parent !== undefined) {
    // 2.4.0 `service/orgunit.py` line 273 reads the parent with `util.get_mapping_uuid` (`util.py` line 533):
    // `checked_get` answers its default `{}` for None and refuses any other value that is no dict
    // (E_INVALID_TYPE, lines 465-486), and an empty dict is None. So `null` and `{}` alike name the top; `""`,
    // `false`, `0` or `[]` are refused by `ref`, as there.
    const top = parent === null || (isPlainObject(parent) && Object.keys(parent).length === 0);
    changes.parent = topLevelAsNull(data, top ? null : changesBody.ref('parent'));
  }
  // 2.4.0 `service/orgunit.py` line 245 indexes the type's `uuid` unguarded: `null` or `{}` fails there with a
  // 500 (TypeError, KeyError); here, the clear 400 `V_MISSING_REQUIRED_VALUE` instead.
  if (changesBody.raw('org_unit_type') !== undefined)
    changes.org_unit_type = changesBody.ref('org_unit_type');
  for (const field of keptWhenFalsy) {
    const given = changesBody.raw(field);
    if (given !== undefined && !falsyInPython(given)) changes[field] = changesBody.ref(field);
  }
  const unit = data.orgUnit(uuid);
  if (changes.parent !== undefined) {
    // OS2mo keeps the top unit where it is and nothing else can become a top unit.
    const current = versionAt(unit, validity.from);
    if (current && current.parent === null && changes.parent !== null) throw invalid.moveRoot(uuid);
    if (current && current.parent !== null && changes.parent === null) throw invalid.moveToRoot(uuid);
  }
  if (changes.parent && isSelfOrDescendant(data, uuid, changes.parent, validity.from)) {
    throw invalid.moveToChild(uuid, changes.parent);
  }
  const edited = editTemporal(unit, validity, changes, 'org_unit');
  checkOrgUnit(data, edited);
  state.put(collections.orgUnit, edited);
  return uuid;
}

/**
 * `POST /service/ou/{uuid}/terminate`, as OS2mo 2.4.0 reads it: with both `validity.from` and `validity.to`
 * the unit is inactive from `from` through `to` (`to: null`: for good, so its last day is the day before
 * `from`); with only `to` (OS2mo's deprecated form) its last day is `to`. Refused while children or records
 * of the unit are active on the first inactive day.
 */
export function terminateOrgUnit(data: OrgData, state: PendingState, uuid: string, body: BodyReader): string {
  const validity = body.nested('validity');
  const withFrom = validity.keys().includes('from') && validity.keys().includes('to');
  let firstInactive: string;
  let gapEnd: string | null = null;
  if (withFrom) {
    firstInactive = validity.date('from');
    gapEnd = validity.optionalDate('to');
    if (gapEnd !== null && gapEnd < firstInactive) throw invalid.endBeforeStart(firstInactive, gapEnd);
  } else {
    firstInactive = addDays(body.terminationDate(), 1);
  }
  const unit = data.orgUnit(uuid);
  const activeFrom = (versions: readonly object[], field: string) =>
    versions.some((version) => {
      const record = version as Record<string, unknown> & { to: string | null };
      const points = Array.isArray(record[field])
        ? (record[field] as unknown[]).includes(uuid)
        : record[field] === uuid;
      return points && !endsBefore(record.to, firstInactive);
    });
  const children = data.store
    .byIndex(collections.orgUnit, 'by_parent', uuid)
    .filter((child) => activeFrom((child as unknown as OrgUnit).versions, 'parent')).length;
  const roles = detailTypes.filter((type) =>
    data
      .detailsOfUnit<Record<string, unknown>>(type, uuid)
      .some((detail) => activeFrom(detail.versions, type === 'related_unit' ? 'org_units' : 'org_unit')),
  );
  if (children > 0 || roles.length > 0) throw invalid.terminateWithChildren(uuid, children, roles);
  const before = terminateTemporal(unit, addDays(firstInactive, -1)).versions;
  const resumesAfter = gapEnd;
  const after =
    resumesAfter === null
      ? []
      : unit.versions
          .filter((version) => version.to === null || version.to > resumesAfter)
          .map((version) => ({
            ...version,
            from: version.from > resumesAfter ? version.from : addDays(resumesAfter, 1),
          }));
  const terminated: OrgUnit = { ...unit, versions: [...before, ...after] };
  state.put(collections.orgUnit, terminated);
  return uuid;
}

/**
 * `POST /service/ou/{uuid}/map` (OS2mo's way to relate units): from `validity.from`, the unit is related to
 * exactly the `destination` units. Relations to others end the day before; new ones start that day.
 */
export function mapOrgUnits(data: OrgData, state: PendingState, origin: string, body: BodyReader) {
  const from = body.validity().from;
  const raw = body.raw('destination');
  if (raw === undefined || raw === null) throw invalid.missing('destination', null);
  if (!Array.isArray(raw)) throw invalid.wrongType('destination', 'list', raw);
  const destinations = [
    ...new Set(
      raw.map((item, index) => {
        if (!isUuid(item)) throw invalid.uuid(`destination[${index}]`, { destination: raw });
        return item.toLowerCase();
      }),
    ),
  ];
  const wanted = [...new Set([origin, ...destinations])].sort();
  // As OS2mo: every unit named must exist, and stay open from the date on; the error lists the offenders.
  const missing = wanted.filter((uuid) => !data.findOrgUnit(uuid));
  if (missing.length > 0) {
    throw new LegacyError(404, 'E_ORG_UNIT_NOT_FOUND', 'Org unit not found.', { org_unit_uuid: missing });
  }
  const closing = wanted.filter((uuid) => !coversInterval(data.orgUnit(uuid), { from, to: null }));
  if (closing.length > 0) {
    throw new LegacyError(
      400,
      'V_DATE_OUTSIDE_ORG_UNIT_RANGE',
      'Date range exceeds validity range of associated org unit.',
      {
        org_unit_uuid: closing,
      },
    );
  }
  const result = { added: [] as string[], deleted: [] as string[], unchanged: [] as string[] };
  const existing = new Map<string, RelatedUnit>();
  for (const related of data.detailsOfUnit<RelatedUnitAttrs>('related_unit', origin)) {
    const current = related.versions.find((version) => !endsBefore(version.to, from));
    const other = current?.org_units.find((unit) => unit !== origin);
    if (current && other) existing.set(other, related);
  }
  for (const [other, related] of existing) {
    if (destinations.includes(other)) {
      result.unchanged.push(related.uuid);
    } else {
      state.put(collections.relatedUnit, terminateTemporal(related, addDays(from, -1)));
      result.deleted.push(related.uuid);
    }
  }
  for (const destination of destinations) {
    if (existing.has(destination) || destination === origin) continue;
    // Named after the pair and the date, so the same mapping made twice (or on two replicas) gets one UUID.
    const named = stableUuid(`related_unit:${[origin, destination].sort().join(':')}:${from}`);
    const related: RelatedUnit = {
      uuid: data.store.get(collections.relatedUnit, named) ? randomUUID() : named,
      versions: [{ from, to: null, user_key: '-', org_units: [origin, destination] }],
    };
    state.put(collections.relatedUnit, related);
    result.added.push(related.uuid);
  }
  return result;
}
