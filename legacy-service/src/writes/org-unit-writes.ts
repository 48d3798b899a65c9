import { randomUUID } from 'node:crypto';
import { invalid } from '../errors.js';
import type { BodyReader } from '../input.js';
import { classFacets, collections, detailTypes, type OrgUnit, type OrgUnitAttrs } from '../model.js';
import type { OrgData } from '../org-data.js';
import { endsBefore, versionAt } from '../time.js';
import { eachVersion, requireClass, requireFree, requireUnitDuring } from './checks.js';
import { editTemporal, terminateTemporal } from './detail-writes.js';
import type { PendingState } from './pending-state.js';

function checkOrgUnit(data: OrgData, unit: OrgUnit): void {
  eachVersion(unit, (version, validity) => {
    requireClass(data, 'org_unit_type', version.org_unit_type, classFacets.org_unit_type);
    if (version.org_unit_level !== null) {
      requireClass(data, 'org_unit_level', version.org_unit_level, classFacets.org_unit_level);
    }
    if (version.parent !== null) {
      if (version.parent === unit.uuid) throw invalid.moveToChild(unit.uuid, version.parent);
      requireUnitDuring(data, version.parent, validity);
    }
  });
}

/** True when `candidate` is `unit` or lies below it on `date`. */
function isSelfOrDescendant(data: OrgData, unit: string, candidate: string, date: string): boolean {
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
        parent: body.optionalRef('parent') ?? null,
        org_unit_type: body.ref('org_unit_type'),
        org_unit_level: body.optionalRef('org_unit_level') ?? null,
      },
    ],
  };
  requireFree(data, collections.orgUnit, requested);
  checkOrgUnit(data, unit);
  state.put(collections.orgUnit, unit);
  return unit.uuid;
}

/** `details/edit` with `type: "org_unit"`: rename, retype or move a unit from a date. */
export function editOrgUnit(data: OrgData, state: PendingState, body: BodyReader): string {
  const uuid = body.uuid('uuid');
  const changesBody = body.nested('data');
  const validity = changesBody.validity();
  const changes: Partial<OrgUnitAttrs> = {};
  if (changesBody.raw('name') !== undefined) changes.name = changesBody.string('name');
  if (changesBody.raw('user_key') !== undefined) changes.user_key = changesBody.string('user_key');
  if (changesBody.raw('parent') !== undefined) changes.parent = changesBody.optionalRef('parent') ?? null;
  if (changesBody.raw('org_unit_type') !== undefined)
    changes.org_unit_type = changesBody.ref('org_unit_type');
  if (changesBody.raw('org_unit_level') !== undefined) {
    changes.org_unit_level = changesBody.optionalRef('org_unit_level') ?? null;
  }
  const unit = data.orgUnit(uuid);
  if (changes.parent && isSelfOrDescendant(data, uuid, changes.parent, validity.from)) {
    throw invalid.moveToChild(uuid, changes.parent);
  }
  const edited = editTemporal(unit, validity, changes, 'org_unit');
  checkOrgUnit(data, edited);
  state.put(collections.orgUnit, edited);
  return uuid;
}

/** `POST /service/ou/{uuid}/terminate`: refused while children or roles outlive the date. */
export function terminateOrgUnit(data: OrgData, state: PendingState, uuid: string, body: BodyReader): string {
  const to = body.terminationDate();
  const unit = data.orgUnit(uuid);
  const outlives = (versions: readonly object[], field: string) =>
    versions.some((version) => {
      const record = version as Record<string, unknown> & { to: string | null };
      return record[field] === uuid && !endsBefore(record.to, to) && record.to !== to;
    });
  const children = data.store
    .byIndex(collections.orgUnit, 'by_parent', uuid)
    .filter((child) => outlives((child as unknown as OrgUnit).versions, 'parent')).length;
  const roles = detailTypes
    .flatMap((type) => data.detailsOfUnit<Record<string, unknown>>(type, uuid))
    .filter((detail) => outlives(detail.versions, 'org_unit')).length;
  if (children > 0 || roles > 0) throw invalid.terminateWithChildren(uuid, children, roles);
  state.put(collections.orgUnit, terminateTemporal(unit, to));
  return uuid;
}
