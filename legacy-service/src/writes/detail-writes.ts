import { randomUUID } from 'node:crypto';
import { invalid, LegacyError } from '../errors.js';
import { BodyReader } from '../input.js';
import {
  detailCollection,
  detailTypes,
  type DetailType,
  type Temporal,
  type Validity,
  type Version,
} from '../model.js';
import type { OrgData } from '../org-data.js';
import { covers, coversInterval, editVersions, terminateVersions, versionAt } from '../time.js';
import { requireFreeDetail, requireOneOf } from './checks.js';
import { checkDetailReferences, readChanges, readNewAttributes } from './detail-fields.js';
import type { PendingState } from './pending-state.js';

/** The `type` of a write item: OS2mo answers E_UNKNOWN_ROLE_TYPE for a missing or unknown one. */
export function readDetailType(body: BodyReader, allowed: readonly string[] = detailTypes): string {
  const type = body.raw('type');
  if (typeof type !== 'string' || !allowed.includes(type)) throw invalid.unknownRoleType(type ?? null);
  return type;
}

/** OS2mo's value checks for each kind of address (its type's scope); DAR values are address UUIDs. */
export const addressFormats: Record<string, RegExp> = {
  EMAIL: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  PHONE: /^\+?\d+$/,
  EAN: /^\d{13}$/,
  PNUMBER: /^\d{10}$/,
  WWW: /^https?:\/\/[^\s/$.?#].[^\s]*$/i,
  DAR: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
};

/** Rules beyond single fields, per type, checked on every version a write produces. */
function checkRules(data: OrgData, type: DetailType, entity: Temporal<unknown>): void {
  for (const version of entity.versions as unknown as Record<string, unknown>[]) {
    switch (type) {
      case 'address': {
        requireOneOf('org_unit', version.org_unit as string | null, version.person as string | null, version);
        const scope = data.findClass(version.address_type as string)?.scope ?? 'TEXT';
        const format = addressFormats[scope];
        if (format && !format.test(String(version.value)))
          throw invalid.address(scope, String(version.value));
        break;
      }
      case 'association':
        {
          // OS2mo: one active association of a person with a unit at a time.
          const {
            person,
            org_unit: unit,
            from,
          } = version as { person: string | null; org_unit: string; from: string };
          if (person !== null) {
            const existing = data
              .detailsOfPerson<{ person: string | null; org_unit: string }>('association', person)
              .filter((other) => other.uuid !== entity.uuid)
              .filter((other) =>
                other.versions.some(
                  (item) => item.person === person && item.org_unit === unit && covers(item, from),
                ),
              )
              .map((other) => other.uuid);
            if (existing.length > 0) throw invalid.moreThanOneAssociation(existing);
          }
        }
        if (version.substitute !== null && version.substitute === version.person)
          throw invalid.substituteSelf();
        break;
      case 'leave': {
        // OS2mo: a leave needs an engagement of the person throughout it.
        const { person, from, to } = version as { person: string; from: string; to: string | null };
        const engaged = data.detailsOfPerson<{ person: string }>('engagement', person).some((engagement) =>
          coversInterval(
            {
              uuid: engagement.uuid,
              versions: engagement.versions.filter((item) => item.person === person),
            },
            { from, to },
          ),
        );
        if (!engaged) throw invalid.noActiveEngagement(person);
        break;
      }
      case 'it':
        requireOneOf('org_unit', version.org_unit as string | null, version.person as string | null, version);
        break;
      case 'owner':
        requireOneOf('org_unit', version.org_unit as string | null, version.person as string | null, version);
        if (version.owner_inference_priority && version.person === null) {
          throw invalid.input([
            { key: 'owner_inference_priority', message: 'only a person owner can be inferred' },
          ]);
        }
        if (version.owner_inference_priority && version.owner !== null) {
          throw invalid.input([
            { key: 'owner_inference_priority', message: 'cannot be combined with owner' },
          ]);
        }
        break;
      case 'manager': {
        const seen = new Set<string>();
        for (const responsibility of version.responsibility as string[]) {
          if (seen.has(responsibility)) throw invalid.duplicatedResponsibility(responsibility);
          seen.add(responsibility);
        }
        break;
      }
      case 'related_unit':
        if ((version.org_units as string[]).length !== 2) {
          throw invalid.input([{ key: 'org_units', message: 'a related unit links exactly two units' }]);
        }
        break;
      default:
        break;
    }
  }
}

/** Checks that every version's references exist and are valid throughout that version. */
export function checkDetail(data: OrgData, type: DetailType, entity: Temporal<unknown>): void {
  checkDetailReferences(data, type, entity);
  checkRules(data, type, entity);
}

/** Related units are made with `/ou/{uuid}/map`, as in OS2mo; `details/create|edit` refuse them. */
function refuseRelatedUnit(type: DetailType): void {
  if (type === 'related_unit') {
    throw new LegacyError(
      400,
      'E_INVALID_ROLE_TYPE',
      'Related units are created and changed with /service/ou/{uuid}/map.',
      {
        type,
      },
    );
  }
}

/** `POST /service/details/create`, one item. */
export function createDetail(data: OrgData, state: PendingState, item: unknown, index: string): string {
  const body = BodyReader.of(item, index);
  const type = readDetailType(body) as DetailType;
  refuseRelatedUnit(type);
  const uuid = body.optionalUuid('uuid') ?? randomUUID();
  // The fields first: OS2mo names a missing field before a missing start date.
  const attributes = readNewAttributes(type, body, uuid);
  const validity = body.validity();
  const collection = detailCollection[type];
  requireFreeDetail(data, body.optionalUuid('uuid'));
  const entity: Temporal<unknown> = { uuid, versions: [{ ...validity, ...attributes }] };
  checkDetail(data, type, entity);
  state.put(collection, entity);
  return uuid;
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
  refuseRelatedUnit(type);
  const uuid = body.uuid('uuid');
  const changesBody = body.nested('data');
  const validity = changesBody.validity();
  const entity = data.detail<Record<string, unknown>>(type, uuid);
  const current = versionAt(entity, validity.from) ?? entity.versions[entity.versions.length - 1] ?? {};
  const changes = readChanges(type, changesBody, current);
  const edited = editTemporal(entity, validity, changes, type);
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
