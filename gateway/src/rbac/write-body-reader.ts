import type { WriteIntent } from './write-intent.js';

/**
 * Reading a write body as the legacy service reads it (`BodyReader`): every member RBAC judges is checked
 * for the shape the backend would accept, and anything else makes the write `unreadable` (admin only).
 */

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const datePattern = /^\d{4}-\d{2}-\d{2}$/;

export const isUuid = (value: unknown): value is string =>
  typeof value === 'string' && uuidPattern.test(value);

/** A real calendar date written YYYY-MM-DD, as the legacy service checks it. */
function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string' || !datePattern.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
}

/** A body, or a member of one, that the legacy service would not accept: its message is the problem. */
export class Unreadable extends Error {}

/** A UUID, lower-cased, or `Unreadable` naming `key`. */
export function uuidAt(value: unknown, key: string): string {
  if (!isUuid(value)) throw new Unreadable(`${key} must be a UUID`);
  return value.toLowerCase();
}

/** Reads a body as the legacy service does (`BodyReader`), failing on anything it would not accept. */
export class Fields {
  constructor(
    private readonly body: Record<string, unknown>,
    private readonly prefix: string,
  ) {}

  static of(value: unknown, prefix: string): Fields {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new Unreadable(`${prefix || 'the body'} must be a JSON object`);
    }
    return new Fields(value as Record<string, unknown>, prefix);
  }

  private key(name: string): string {
    return this.prefix ? `${this.prefix}.${name}` : name;
  }

  /** How a member is named in a refusal: `data.uuid`, `[2].uuid`, … */
  prefixed(name: string): string {
    return this.key(name);
  }

  raw(name: string): unknown {
    return this.body[name];
  }

  nested(name: string): Fields {
    return Fields.of(this.body[name], this.key(name));
  }

  uuid(name: string): string {
    return uuidAt(this.body[name], this.key(name));
  }

  /** `{"uuid": …}`, `null` or absent, as the legacy `optionalRef`. */
  optionalRef(name: string): string | null | undefined {
    const value = this.body[name];
    if (value === undefined || value === null) return value;
    return Fields.of(value, this.key(name)).uuid('uuid');
  }

  date(name: string): string {
    const value = this.body[name];
    if (!isIsoDate(value)) throw new Unreadable(`${this.key(name)} must be a date (YYYY-MM-DD)`);
    return value;
  }

  /** An end date: absent or `null` (open-ended), or a date. As `{ until }` to spread into an intent. */
  until(name: string): { until?: string } {
    const value = this.body[name];
    return value === undefined || value === null ? {} : { until: this.date(name) };
  }

  detailType(allowed: readonly string[]): string {
    const type = this.body.type;
    if (typeof type !== 'string' || !allowed.includes(type)) {
      throw new Unreadable(`${this.key('type')} must be one of ${allowed.join(', ')}`);
    }
    return type;
  }

  /** A create's own `uuid`, when the client chose one, as `{ uuid }` to spread into an intent. */
  chosenUuid(): { uuid?: string } {
    const value = this.body.uuid;
    return value === undefined || value === null ? {} : { uuid: this.uuid('uuid') };
  }
}

/** The intent `read` gives, or `unreadable` with the problem it found. */
export function readable(read: () => WriteIntent): WriteIntent {
  try {
    return read();
  } catch (error) {
    if (error instanceof Unreadable) return { kind: 'unreadable', problem: error.message };
    throw error;
  }
}
