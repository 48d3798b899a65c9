import { randomUUID } from 'node:crypto';
import { invalid, LegacyError } from '../errors.js';
import { cprBirthdate, isCprNumber } from '../cpr.js';
import type { BodyReader } from '../input.js';
import {
  collections,
  detailCollection,
  detailTypes,
  type Employee,
  type EmployeeAttrs,
  type Validity,
} from '../model.js';
import type { OrgData } from '../org-data.js';
import { addDays, editVersions, endsBefore, isIsoDate } from '../time.js';
import { requireFree } from './checks.js';
import { editTemporal, terminateTemporal } from './detail-writes.js';
import type { PendingState } from './pending-state.js';

/** Employees without a given validity exist from this date, so any historic engagement can point at them. */
export const employeeDefaultFrom = '1900-01-01';

/**
 * OS2mo's names of a new person: `name` (split at its last space) or `givenname`/`surname`, not both; one
 * of them may be empty, but not all.
 */
function readNames(body: BodyReader): { givenname: string; surname: string } {
  const text = (name: string) => {
    const value = body.raw(name);
    if (value === undefined || value === null) return '';
    if (typeof value !== 'string') throw invalid.wrongType(name, 'str', value);
    return value.trim();
  };
  const name = text('name');
  const givenname = text('givenname');
  const surname = text('surname');
  if (name && (givenname || surname)) {
    throw new LegacyError(400, 'E_INVALID_INPUT', 'Invalid input.', {
      name: 'Supply either name or given name and surname',
    });
  }
  if (name) {
    const split = name.lastIndexOf(' ');
    return split < 0
      ? { givenname: name, surname: '' }
      : { givenname: name.slice(0, split), surname: name.slice(split + 1) };
  }
  if (!givenname && !surname) {
    throw new LegacyError(400, 'V_MISSING_REQUIRED_VALUE', 'Missing name or givenname or surname.', {
      name: 'Missing name or givenname or surname',
    });
  }
  return { givenname, surname };
}

/** A CPR number for a person: the right format, and nobody else has it (OS2mo's `V_EXISTING_CPR`). */
function readCpr(data: OrgData, body: BodyReader, self: string | null): string | null | undefined {
  if (body.raw('cpr_no') === undefined) return undefined;
  const cpr = body.optionalString('cpr_no') ?? null;
  if (cpr === null) return null;
  if (!isCprNumber(cpr)) throw invalid.cprNotValid(cpr);
  if (data.employeesByCpr(cpr).some((other) => other.uuid !== self)) throw invalid.existingCpr(cpr);
  return cpr;
}

const textFields = [
  'givenname',
  'surname',
  'nickname_givenname',
  'nickname_surname',
  'seniority',
  'user_key',
] as const;

/**
 * The stand-in's one extension of `e/create`: a well-formed `validity` with a start date dates the person
 * (the gateway creates people for a period). Anything else, such as DIPEX's `{"from": null, "to": null}`, is
 * ignored as 2.4.0 ignores every `validity` there, so no body 2.4.0 accepts is refused for it.
 */
function datedValidity(raw: unknown): Validity | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const { from, to } = raw as { from?: unknown; to?: unknown };
  if (!isIsoDate(from)) return undefined;
  if (to === undefined || to === null) return { from, to: null };
  return isIsoDate(to) && to >= from ? { from, to } : undefined;
}

/**
 * `POST /service/e/create`: a person, with OS2mo's optional `cpr_no`, nicknames, `seniority`, and `details`
 * (records created for the new person in the same transaction).
 */
export function createEmployee(
  data: OrgData,
  state: PendingState,
  body: BodyReader,
  createDetail: (data: OrgData, state: PendingState, item: unknown, key: string) => string,
): string {
  const requested = body.optionalUuid('uuid');
  const { givenname, surname } = readNames(body);
  const uuid = requested ?? randomUUID();
  requireFree(data, collections.employee, requested);
  const cpr = readCpr(data, body, uuid);
  // OS2mo dates a person from the CPR number's birth date (else from the beginning of time), whatever
  // `validity` says (2.4.0 `service/employee.py` line 64, `prepare_create`, reads none).
  const validity = datedValidity(body.raw('validity')) ?? {
    from: (cpr && cprBirthdate(cpr)) || employeeDefaultFrom,
    to: null,
  };
  const employee: Employee = {
    uuid,
    versions: [
      {
        ...validity,
        givenname,
        surname,
        // OS2mo names a person without a user key by their UUID.
        user_key: body.optionalString('user_key') ?? uuid,
        cpr_no: cpr ?? null,
        nickname_givenname: body.optionalString('nickname_givenname') ?? '',
        nickname_surname: body.optionalString('nickname_surname') ?? '',
        seniority: body.optionalString('seniority') ?? '',
      },
    ],
  };
  state.put(collections.employee, employee);
  const details = body.raw('details');
  if (details !== undefined && details !== null) {
    if (!Array.isArray(details)) throw invalid.wrongType('details', 'list', details);
    details.forEach((item: unknown, index) => {
      const key = `details[${index}]`;
      if (typeof item !== 'object' || item === null || Array.isArray(item))
        throw invalid.wrongType(key, 'dict', item);
      createDetail(data, state, { ...item, person: { uuid } }, key);
    });
  }
  return uuid;
}

/**
 * `details/edit` with `type: "employee"`: change names, nicknames, seniority, CPR number or user key from a
 * date. The person is the item's `uuid`, else `data.uuid`, else `original.uuid` (OS2mo's order).
 */
export function editEmployee(data: OrgData, state: PendingState, body: BodyReader): string {
  const changesBody = body.nested('data');
  const uuid =
    body.optionalUuid('uuid') ?? changesBody.optionalUuid('uuid') ?? body.nested('original').uuid('uuid');
  const validity = changesBody.validity();
  const changes: Partial<EmployeeAttrs> = {};
  for (const field of textFields) {
    if (changesBody.raw(field) === undefined) continue;
    changes[field] = ['givenname', 'surname', 'user_key'].includes(field)
      ? changesBody.string(field)
      : (changesBody.optionalString(field) ?? '');
  }
  const cpr = readCpr(data, changesBody, uuid);
  if (cpr !== undefined) changes.cpr_no = cpr;
  state.put(collections.employee, editTemporal(data.employee(uuid), validity, changes, 'employee'));
  return uuid;
}

function startsAfter(versions: { from: string }[], date: string): boolean {
  return versions.every((version) => version.from > date);
}

/**
 * `POST /service/e/{uuid}/terminate`: ends the person's engagements, IT accounts and owner records on the
 * date; manager roles end too, or with `vacate: true` stay as vacant positions.
 */
export function terminateEmployee(
  data: OrgData,
  state: PendingState,
  uuid: string,
  body: BodyReader,
): string {
  const to = body.terminationDate();
  const vacate = body.boolean('vacate', false);
  // OS2mo's generic "not found" for a person it cannot terminate.
  if (!data.findEmployee(uuid)) {
    throw new LegacyError(404, 'E_NOT_FOUND', 'No person with this UUID.', {
      path: 'organisation/bruger',
      uuid,
    });
  }
  const activeAfter = (versions: { to: string | null }[]) =>
    versions.some((version) => !endsBefore(version.to, addDays(to, 1)));
  // Every record of the person ends with them; with `vacate`, manager roles and associations instead stay,
  // without the person (OS2mo's vacant positions).
  const vacatable: readonly string[] = ['manager', 'association'];
  for (const type of detailTypes.filter((detailType) => !vacatable.includes(detailType))) {
    for (const detail of data.detailsOfPerson<Record<string, unknown>>(type, uuid)) {
      if (!activeAfter(detail.versions)) continue;
      if (startsAfter(detail.versions, to)) state.remove(detailCollection[type], detail.uuid);
      else state.put(detailCollection[type], terminateTemporal(detail, to));
    }
  }
  for (const type of ['manager', 'association'] as const) {
    for (const record of data.detailsOfPerson<{ person: string | null }>(type, uuid)) {
      if (!activeAfter(record.versions)) continue;
      if (!vacate && startsAfter(record.versions, to)) {
        state.remove(detailCollection[type], record.uuid);
        continue;
      }
      const ended = vacate
        ? {
            ...record,
            versions: editVersions(record.versions, { from: addDays(to, 1), to: null }, (version) =>
              version.person === uuid ? { ...version, person: null } : version,
            ),
          }
        : terminateTemporal(record, to);
      state.put(detailCollection[type], ended);
    }
  }
  return uuid;
}
