/**
 * The comparable form both sides of a comparison are turned into: plain JSON where every collection is an
 * object keyed by UUID (sorted), so a difference is named by identity (`managers[<uuid>]`), not by position,
 * and only the fields both interfaces carry are compared. Classes are compared by `user_key`.
 */

/** A JSON value with the UUID-keyed collections of the comparable form. */
export type NormalValue = null | boolean | number | string | NormalValue[] | { [key: string]: NormalValue };
export type NormalObject = { [key: string]: NormalValue };

/** A JSON object as either interface returns it; fields are read defensively. */
export type JsonRecord = Record<string, unknown>;

export const isRecord = (value: unknown): value is JsonRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): NormalValue =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : null;

/** A field of a record; `undefined` when the record or the field is missing. */
export const field = (record: unknown, name: string): unknown =>
  isRecord(record) ? record[name] : undefined;

/** A class (manager type, job function, …) compared by its user key. */
export const classRef = (value: unknown): NormalValue =>
  isRecord(value) ? { user_key: text(value['user_key']) } : null;

export const validity = (value: unknown): NormalValue =>
  isRecord(value) ? { from: text(value['from']), to: text(value['to']) } : null;

/** A link to another entity compared by UUID and name. */
export const entityRef = (value: unknown): NormalValue =>
  isRecord(value) ? { uuid: text(value['uuid']), name: text(value['name']) } : null;

/** v1 wraps single links (`employee`, `parent`) in lists; the comparable form always has the one object. */
export const single = (value: unknown): unknown => (Array.isArray(value) ? (value[0] ?? null) : value);

export const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Records keyed by their `uuid`, in UUID order; records without a UUID are left out. */
export function keyedByUuid(records: unknown, normalise: (record: JsonRecord) => NormalValue): NormalObject {
  const entries = list(records)
    .filter(isRecord)
    .filter((record) => typeof record['uuid'] === 'string')
    .map((record) => [record['uuid'] as string, normalise(record)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries);
}

export const sortedUserKeys = (classes: unknown): NormalValue =>
  list(classes)
    .map((value) => text(field(value, 'user_key')))
    .filter((key): key is string => typeof key === 'string')
    .sort();

export const textOf = text;
