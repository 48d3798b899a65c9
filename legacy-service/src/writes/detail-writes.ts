import { randomUUID } from 'node:crypto';
import { invalid } from '../errors.js';
import { BodyReader } from '../input.js';
import {
  classFacets,
  detailCollection,
  detailTypes,
  type DetailType,
  type EngagementAttrs,
  type ItUserAttrs,
  type ManagerAttrs,
  type OwnerAttrs,
  type Temporal,
  type Validity,
  type Version,
} from '../model.js';
import type { OrgData } from '../org-data.js';
import { editVersions, terminateVersions, versionAt } from '../time.js';
import {
  eachVersion,
  requireClass,
  requireEmployeeDuring,
  requireFree,
  requireItSystem,
  requireOneOf,
  requireUnitDuring,
} from './checks.js';
import type { PendingState } from './pending-state.js';

export function readDetailType(body: BodyReader, allowed: readonly string[] = detailTypes): string {
  const type = body.raw('type');
  if (type === undefined || type === null) throw invalid.missing('type');
  if (typeof type !== 'string' || !allowed.includes(type)) throw invalid.type(type);
  return type;
}

/** Checks that every version's references exist and are valid throughout that version. */
export function checkDetail(data: OrgData, type: DetailType, entity: Temporal<unknown>): void {
  switch (type) {
    case 'engagement':
      eachVersion(entity as Temporal<EngagementAttrs>, (version, validity) => {
        requireEmployeeDuring(data, version.person, validity);
        requireUnitDuring(data, version.org_unit, validity);
        requireClass(data, 'job_function', version.job_function, classFacets.job_function);
        requireClass(data, 'engagement_type', version.engagement_type, classFacets.engagement_type);
      });
      return;
    case 'manager':
      eachVersion(entity as Temporal<ManagerAttrs>, (version, validity) => {
        if (version.person !== null) requireEmployeeDuring(data, version.person, validity);
        requireUnitDuring(data, version.org_unit, validity);
        requireClass(data, 'manager_type', version.manager_type, classFacets.manager_type);
        requireClass(data, 'manager_level', version.manager_level, classFacets.manager_level);
        for (const responsibility of version.responsibility) {
          requireClass(data, 'responsibility', responsibility, classFacets.responsibility);
        }
      });
      return;
    case 'owner':
      eachVersion(entity as Temporal<OwnerAttrs>, (version, validity) => {
        if (version.owner !== null) requireEmployeeDuring(data, version.owner, validity);
        if (version.org_unit !== null) requireUnitDuring(data, version.org_unit, validity);
        if (version.person !== null) requireEmployeeDuring(data, version.person, validity);
      });
      return;
    case 'it':
      eachVersion(entity as Temporal<ItUserAttrs>, (version, validity) => {
        requireItSystem(data, version.itsystem);
        if (version.org_unit !== null) requireUnitDuring(data, version.org_unit, validity);
        if (version.person !== null) requireEmployeeDuring(data, version.person, validity);
      });
  }
}

function readNewAttributes(type: DetailType, body: BodyReader): Record<string, unknown> {
  switch (type) {
    case 'engagement':
      return {
        user_key: body.optionalString('user_key') ?? '-',
        person: body.ref('person'),
        org_unit: body.ref('org_unit'),
        job_function: body.ref('job_function'),
        engagement_type: body.ref('engagement_type'),
      } satisfies EngagementAttrs;
    case 'manager':
      return {
        user_key: body.optionalString('user_key') ?? '-',
        person: body.optionalRef('person') ?? null,
        org_unit: body.ref('org_unit'),
        manager_type: body.ref('manager_type'),
        manager_level: body.ref('manager_level'),
        responsibility: body.refList('responsibility'),
      } satisfies ManagerAttrs;
    case 'owner': {
      const orgUnit = body.optionalRef('org_unit') ?? null;
      const person = body.optionalRef('person') ?? null;
      requireOneOf('org_unit', orgUnit, person);
      return {
        user_key: body.optionalString('user_key') ?? '-',
        owner: body.ref('owner'),
        org_unit: orgUnit,
        person,
      };
    }
    case 'it': {
      const orgUnit = body.optionalRef('org_unit') ?? null;
      const person = body.optionalRef('person') ?? null;
      requireOneOf('org_unit', orgUnit, person);
      return {
        user_key: body.string('user_key'),
        itsystem: body.ref('itsystem'),
        org_unit: orgUnit,
        person,
      } satisfies ItUserAttrs;
    }
  }
}

/** `POST /service/details/create`, one item. */
export function createDetail(data: OrgData, state: PendingState, item: unknown, index: string): string {
  const body = BodyReader.of(item, index);
  const type = readDetailType(body) as DetailType;
  const uuid = body.optionalUuid('uuid') ?? randomUUID();
  const validity = body.validity();
  const attributes = readNewAttributes(type, body);
  const collection = detailCollection[type];
  requireFree(data, collection, body.optionalUuid('uuid'));
  const entity: Temporal<unknown> = { uuid, versions: [{ ...validity, ...attributes }] };
  checkDetail(data, type, entity);
  state.put(collection, entity);
  return uuid;
}

/** The fields of `data` an edit may change, read and validated; absent fields stay as they are. */
export function readDetailChanges(type: DetailType, data: BodyReader): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  const refs: Record<DetailType, string[]> = {
    engagement: ['person', 'org_unit', 'job_function', 'engagement_type'],
    manager: ['org_unit', 'manager_type', 'manager_level'],
    owner: ['owner'],
    it: ['itsystem'],
  };
  for (const field of refs[type]) {
    if (data.raw(field) !== undefined) changes[field] = data.ref(field);
  }
  if (data.raw('user_key') !== undefined) changes.user_key = data.string('user_key');
  if (type === 'manager') {
    if (data.raw('person') !== undefined) changes.person = data.optionalRef('person') ?? null;
    if (data.raw('responsibility') !== undefined) changes.responsibility = data.refList('responsibility');
  }
  if (type === 'owner' || type === 'it') {
    for (const field of ['org_unit', 'person']) {
      if (data.raw(field) !== undefined) changes[field] = data.optionalRef(field) ?? null;
    }
  }
  return changes;
}

/** Edits a temporal entity from `validity.from`: the version in force then is split, history kept. */
export function editTemporal<A>(
  entity: Temporal<A>,
  validity: Validity,
  changes: Partial<A>,
  type: string,
): Temporal<A> {
  if (!versionAt(entity, validity.from)) throw invalid.notActive(type, entity.uuid, validity.from);
  const versions = editVersions(
    entity.versions,
    validity,
    (version) => ({ ...version, ...changes }) as Version<A>,
  );
  return { ...entity, versions };
}

export function editDetail(data: OrgData, state: PendingState, type: DetailType, body: BodyReader): string {
  const uuid = body.uuid('uuid');
  const changesBody = body.nested('data');
  const validity = changesBody.validity();
  const changes = readDetailChanges(type, changesBody);
  const entity = data.detail<Record<string, unknown>>(type, uuid);
  const edited = editTemporal(entity, validity, changes, type);
  if (type === 'owner' || type === 'it') {
    for (const version of edited.versions)
      requireOneOf('org_unit', version.org_unit as string, version.person as string);
  }
  checkDetail(data, type, edited);
  state.put(detailCollection[type], edited);
  return uuid;
}

export function terminateTemporal<A>(entity: Temporal<A>, to: string): Temporal<A> {
  const first = entity.versions[0];
  if (first !== undefined && to < first.from) throw invalid.endBeforeStart(first.from, to);
  return { ...entity, versions: terminateVersions(entity.versions, to) };
}

export function terminateDetail(data: OrgData, state: PendingState, body: BodyReader): string {
  const type = readDetailType(body) as DetailType;
  const uuid = body.uuid('uuid');
  const to = body.terminationDate();
  const entity = data.detail(type, uuid);
  state.put(detailCollection[type], terminateTemporal(entity, to));
  return uuid;
}
