import { invalid } from './errors.js';
import type { IsoDate, Validity } from './model.js';
import { isIsoDate } from './time.js';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && uuidPattern.test(value);
}

/** A UUID in a path or query (OS2mo's request validation: `E_INVALID_INPUT`). */
export function requireUuid(key: string, value: string): string {
  if (!isUuid(value)) throw invalid.pathUuid(key, value);
  return value.toLowerCase();
}

/**
 * Reads one JSON object of a request body, raising the legacy error for the first problem: a missing
 * member, a value of the wrong type, a bad UUID or date. Keys in messages are paths such as `validity.from`.
 */
export class BodyReader {
  constructor(
    private readonly body: Record<string, unknown>,
    private readonly prefix = '',
  ) {}

  static of(value: unknown, prefix = ''): BodyReader {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      // A body that is no object at all is OS2mo's E_INVALID_INPUT; a member of the wrong type E_INVALID_TYPE.
      if (prefix === '') throw invalid.input([{ key: 'body', message: 'must be a JSON object' }]);
      throw invalid.wrongType(prefix, 'dict', value);
    }
    return new BodyReader(value as Record<string, unknown>, prefix);
  }

  private key(name: string): string {
    return this.prefix ? `${this.prefix}.${name}` : name;
  }

  has(name: string): boolean {
    return this.body[name] !== undefined && this.body[name] !== null;
  }

  raw(name: string): unknown {
    return this.body[name];
  }

  string(name: string): string {
    const value = this.body[name];
    if (value === undefined || value === null) throw invalid.missing(name, this.body);
    if (typeof value !== 'string') throw invalid.wrongType(this.key(name), 'str', value);
    if (value.trim() === '') throw invalid.missing(name, this.body);
    return value;
  }

  optionalString(name: string): string | undefined {
    return this.has(name) ? this.string(name) : undefined;
  }

  boolean(name: string, fallback: boolean): boolean {
    const value = this.body[name];
    if (value === undefined || value === null) return fallback;
    // OS2mo's request validation answers a flag of the wrong type with E_INVALID_INPUT.
    if (typeof value !== 'boolean')
      throw invalid.input([{ key: this.key(name), message: 'must be true or false' }]);
    return value;
  }

  uuid(name: string): string {
    const value = this.body[name];
    if (value === undefined || value === null) throw invalid.missing(name, this.body);
    if (!isUuid(value)) throw invalid.uuid(this.key(name), this.body);
    return value.toLowerCase();
  }

  optionalUuid(name: string): string | undefined {
    return this.has(name) ? this.uuid(name) : undefined;
  }

  /** A reference written as `{"uuid": "..."}`, the legacy API's way to point at another object. */
  ref(name: string): string {
    const value = this.body[name];
    if (value === undefined || value === null) throw invalid.missing(name, this.body);
    return BodyReader.of(value, this.key(name)).uuid('uuid');
  }

  optionalRef(name: string): string | null | undefined {
    const value = this.body[name];
    if (value === undefined) return undefined;
    if (value === null) return null;
    return this.ref(name);
  }

  refList(name: string): string[] {
    const value = this.body[name];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) throw invalid.wrongType(this.key(name), 'list', value);
    return value.map((item, index) => BodyReader.of(item, `${this.key(name)}[${index}]`).uuid('uuid'));
  }

  date(name: string): IsoDate {
    const value = this.body[name];
    if (value === undefined || value === null) throw invalid.missing(name, this.body);
    // OS2mo also takes a date-time at midnight (in any offset), as its own clients send them.
    const midnight =
      typeof value === 'string'
        ? /^(\d{4}-\d{2}-\d{2})T00:00(:00(\.0+)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/.exec(value)
        : null;
    const date = midnight ? midnight[1] : value;
    if (!isIsoDate(date)) throw invalid.date(this.key(name), value);
    return date;
  }

  optionalDate(name: string): IsoDate | null {
    return this.has(name) ? this.date(name) : null;
  }

  nested(name: string): BodyReader {
    const value = this.body[name];
    if (value === undefined || value === null) throw invalid.missing(name, this.body);
    return BodyReader.of(value, this.key(name));
  }

  /**
   * `validity: {from, to?}`; `to` is inclusive and must not come before `from`. A missing validity or start
   * is OS2mo's `V_MISSING_START_DATE`.
   */
  validity(name = 'validity'): Validity {
    const raw = this.body[name];
    if (raw === undefined || raw === null) throw invalid.missingStartDate(this.body);
    const validity = BodyReader.of(raw, this.key(name));
    if (!validity.has('from')) throw invalid.missingStartDate(this.body);
    const from = validity.date('from');
    const to = validity.optionalDate('to');
    if (to !== null && to < from) throw invalid.endBeforeStart(from, to, this.body);
    return { from, to };
  }

  /** `validity: {to}` for terminations; OS2mo calls a missing one a missing `validity`. */
  terminationDate(name = 'validity'): IsoDate {
    const validity = this.nested(name);
    if (!validity.has('to')) throw invalid.missing(name, this.body);
    return validity.date('to');
  }

  /** The raw object, for checks that need to know which members were sent. */
  keys(): string[] {
    return Object.keys(this.body);
  }

  number(name: string): number | null {
    const value = this.body[name];
    if (value === undefined || value === null) return null;
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw invalid.wrongType(this.key(name), 'int', value);
    return value;
  }
}

export function readDateParam(key: string, value: string | undefined, fallback: IsoDate): IsoDate {
  if (value === undefined || value === '') return fallback;
  if (!isIsoDate(value)) throw invalid.date(key, value);
  return value;
}

export function readIntParam(key: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value) || Number(value) > Number.MAX_SAFE_INTEGER) {
    throw invalid.input([{ key, message: 'must be a non-negative integer' }]);
  }
  return Number(value);
}
