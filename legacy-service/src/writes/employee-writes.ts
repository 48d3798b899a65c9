import { randomUUID } from 'node:crypto';
import type { BodyReader } from '../input.js';
import {
  collections,
  detailCollection,
  detailTypes,
  type Employee,
  type EmployeeAttrs,
  type ManagerAttrs,
} from '../model.js';
import type { OrgData } from '../org-data.js';
import { addDays, editVersions, endsBefore } from '../time.js';
import { requireFree } from './checks.js';
import { editTemporal, terminateTemporal } from './detail-writes.js';
import type { PendingState } from './pending-state.js';

/** Employees without a given validity exist from this date, so any historic engagement can point at them. */
export const employeeDefaultFrom = '1900-01-01';

/** Like the fixture's keys: lower-case letters of the names, no spaces. */
function defaultUserKey(givenname: string, surname: string): string {
  return `${givenname}${surname}`.toLowerCase().replace(/[^a-z0-9]/g, '') || 'employee';
}

/** `POST /service/e/create`. */
export function createEmployee(data: OrgData, state: PendingState, body: BodyReader): string {
  const requested = body.optionalUuid('uuid');
  const givenname = body.string('givenname');
  const surname = body.string('surname');
  const validity = body.has('validity') ? body.validity() : { from: employeeDefaultFrom, to: null };
  const employee: Employee = {
    uuid: requested ?? randomUUID(),
    versions: [
      {
        ...validity,
        givenname,
        surname,
        user_key: body.optionalString('user_key') ?? defaultUserKey(givenname, surname),
      },
    ],
  };
  requireFree(data, collections.employee, requested);
  state.put(collections.employee, employee);
  return employee.uuid;
}

/** `details/edit` with `type: "employee"`: change names or user key from a date. */
export function editEmployee(data: OrgData, state: PendingState, body: BodyReader): string {
  const uuid = body.uuid('uuid');
  const changesBody = body.nested('data');
  const validity = changesBody.validity();
  const changes: Partial<EmployeeAttrs> = {};
  for (const field of ['givenname', 'surname', 'user_key'] as const) {
    if (changesBody.raw(field) !== undefined) changes[field] = changesBody.string(field);
  }
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
  data.employee(uuid);
  const activeAfter = (versions: { to: string | null }[]) =>
    versions.some((version) => !endsBefore(version.to, addDays(to, 1)));
  // Every record of the person ends with them; manager roles may instead stay as vacant positions.
  for (const type of detailTypes.filter((detailType) => detailType !== 'manager')) {
    for (const detail of data.detailsOfPerson<Record<string, unknown>>(type, uuid)) {
      if (!activeAfter(detail.versions)) continue;
      if (startsAfter(detail.versions, to)) state.remove(detailCollection[type], detail.uuid);
      else state.put(detailCollection[type], terminateTemporal(detail, to));
    }
  }
  for (const manager of data.detailsOfPerson<ManagerAttrs>('manager', uuid)) {
    if (!activeAfter(manager.versions)) continue;
    if (!vacate && startsAfter(manager.versions, to)) {
      state.remove(detailCollection.manager, manager.uuid);
      continue;
    }
    const ended = vacate
      ? {
          ...manager,
          versions: editVersions(manager.versions, { from: addDays(to, 1), to: null }, (version) =>
            version.person === uuid ? { ...version, person: null } : version,
          ),
        }
      : terminateTemporal(manager, to);
    state.put(detailCollection.manager, ended);
  }
  return uuid;
}
