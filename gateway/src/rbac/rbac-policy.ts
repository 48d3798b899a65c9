import type { Principal } from '../auth/token-verifier.js';
import type { DetailType } from '../legacy/legacy-loaders.js';
import {
  unitOwnership,
  type DetailHints,
  type OrganisationReads,
  type UnitOwnership,
} from './unit-ownership.js';

/**
 * The RBAC rules (DESIGN.md §5), the one place that knows them. A write — a `/service` request, or the
 * legacy request a GraphQL mutation makes — is first turned into write intents (what it does to which
 * unit), then decided:
 *
 * | principal (RBAC on)      | decision                                                                   |
 * |--------------------------|----------------------------------------------------------------------------|
 * | RBAC off                 | every authenticated user may write                                         |
 * | role `admin`             | every write                                                                |
 * | role `owner`, valid uuid | a write whose every touched unit is owned by the token's `uuid` (the unit  |
 * |                          | itself or one of its ancestors); never a top-level unit, an employee, a    |
 * |                          | record of a person, or a body the policy cannot read                       |
 * | neither role             | no write                                                                   |
 */

/** What one write does, in the rules' own terms. Dates say as of when the unit's position is read. */
export type WriteIntent =
  /** `parent: null` is a top-level unit: admin only. */
  | { kind: 'create_unit'; parent: string | null; date: string }
  /** Rename, retype or relabel; no move. */
  | { kind: 'change_unit'; unit: string; date: string }
  /** Needs the unit and the new parent; `parent: null` moves it to the top level: admin only. */
  | { kind: 'move_unit'; unit: string; parent: string | null; date: string }
  | { kind: 'terminate_unit'; unit: string; date: string }
  /** `unit: null` is a record of a person (owner or IT account of an employee): admin only. */
  | { kind: 'create_detail'; type: DetailType; unit: string | null; date: string }
  /**
   * Checked against the unit the record is in on `date`; an edit that moves it (`newUnit`) also against
   * the new unit, `newUnit: null` meaning it leaves org units for a person: admin only.
   */
  | {
      kind: 'change_detail';
      action: 'edit' | 'terminate';
      type: DetailType;
      uuid: string;
      date: string;
      newUnit?: string | null;
      hints: DetailHints;
    }
  /** An employee is not an org unit: admin only. */
  | { kind: 'employee'; action: 'create' | 'edit' | 'terminate'; uuid: string | null }
  /** A body or endpoint the policy cannot read: admin only (the legacy service will say what is wrong). */
  | { kind: 'unreadable'; problem: string };

export interface RbacDecision {
  allowed: boolean;
  /** One sentence: what was allowed or refused, and why. Refusals are shown to the client. */
  reason: string;
}

/** A write as it goes to the legacy service. `body` is the parsed JSON. */
export interface LegacyWrite {
  method: string;
  /** The path as the legacy service routes it, e.g. `/service/details/edit`. */
  path: string;
  body: unknown;
}

const detailTypes: readonly DetailType[] = ['engagement', 'manager', 'owner', 'it'];
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

class Unreadable extends Error {}

function uuidAt(value: unknown, key: string): string {
  if (!isUuid(value)) throw new Unreadable(`${key} must be a UUID`);
  return value.toLowerCase();
}

/** Reads a body as the legacy service does (`BodyReader`), failing on anything it would not accept. */
class Fields {
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

  detailType(allowed: readonly string[]): string {
    const type = this.body.type;
    if (typeof type !== 'string' || !allowed.includes(type)) {
      throw new Unreadable(`${this.key('type')} must be one of ${allowed.join(', ')}`);
    }
    return type;
  }
}

/** Each item of a body that may be one object or a list, as the legacy `details/*` endpoints take it. */
const items = (body: unknown): unknown[] => (Array.isArray(body) ? body : [body]);
const at = (body: unknown, index: number) => (Array.isArray(body) ? `[${index}]` : '');

function readable(read: () => WriteIntent): WriteIntent {
  try {
    return read();
  } catch (error) {
    if (error instanceof Unreadable) return { kind: 'unreadable', problem: error.message };
    throw error;
  }
}

function detailCreate(item: unknown, prefix: string): WriteIntent {
  const fields = Fields.of(item, prefix);
  const type = fields.detailType(detailTypes) as DetailType;
  const unit = fields.optionalRef('org_unit');
  const person = type === 'owner' || type === 'it' ? fields.optionalRef('person') : undefined;
  const date = fields.nested('validity').date('from');
  // Engagements and managers always name their unit; owners and IT accounts a unit or a person.
  if (unit === undefined || unit === null || (person !== undefined && person !== null)) {
    if (type === 'engagement' || type === 'manager') {
      throw new Unreadable(`${prefix ? `${prefix}.` : ''}org_unit is required`);
    }
    return { kind: 'create_detail', type, unit: null, date };
  }
  return { kind: 'create_detail', type, unit, date };
}

function detailEdit(item: unknown, prefix: string): WriteIntent {
  const fields = Fields.of(item, prefix);
  const type = fields.detailType([...detailTypes, 'org_unit', 'employee']);
  const uuid = fields.uuid('uuid');
  if (type === 'employee') return { kind: 'employee', action: 'edit', uuid };
  const data = fields.nested('data');
  const date = data.nested('validity').date('from');
  if (type === 'org_unit') {
    const parent = data.optionalRef('parent');
    return parent === undefined
      ? { kind: 'change_unit', unit: uuid, date }
      : { kind: 'move_unit', unit: uuid, parent, date };
  }
  const detailType = type as DetailType;
  const unit = data.optionalRef('org_unit');
  const person = data.optionalRef('person');
  const personLevel =
    (detailType === 'owner' || detailType === 'it') && person !== undefined && person !== null;
  const newUnit = personLevel ? null : unit;
  return {
    kind: 'change_detail',
    action: 'edit',
    type: detailType,
    uuid,
    date,
    ...(newUnit === undefined ? {} : { newUnit }),
    hints: {
      units: typeof unit === 'string' ? [unit] : [],
      persons: typeof person === 'string' && !personLevel ? [person] : [],
    },
  };
}

function detailTerminate(item: unknown, prefix: string): WriteIntent {
  const fields = Fields.of(item, prefix);
  const type = fields.detailType(detailTypes) as DetailType;
  const uuid = fields.uuid('uuid');
  const date = fields.nested('validity').date('to');
  return { kind: 'change_detail', action: 'terminate', type, uuid, date, hints: { units: [], persons: [] } };
}

const detailWrites = new Map([
  ['create', detailCreate],
  ['edit', detailEdit],
  ['terminate', detailTerminate],
]);

/**
 * The write intents of a request to the legacy write API. `path` is the decoded path the legacy service
 * routes on (it ignores one trailing slash). Anything that is not one of the write endpoints is
 * `unreadable`, so only an admin can send it.
 */
export function writeIntents(write: LegacyWrite): WriteIntent[] {
  const path = write.path.length > 1 && write.path.endsWith('/') ? write.path.slice(0, -1) : write.path;
  const segments = path.split('/').slice(1);
  const notAWrite: WriteIntent = {
    kind: 'unreadable',
    problem: `${write.method} ${write.path} is not a write endpoint of /service`,
  };
  if (write.method !== 'POST' || segments[0] !== 'service') return [notAWrite];
  const [, kind, second, third, ...rest] = segments;
  if (rest.length > 0) return [notAWrite];
  const body = write.body;

  if (kind === 'ou' && second === 'create' && third === undefined) {
    return [
      readable(() => {
        const fields = Fields.of(body, '');
        const parent = fields.optionalRef('parent') ?? null;
        return { kind: 'create_unit', parent, date: fields.nested('validity').date('from') };
      }),
    ];
  }
  if (kind === 'e' && second === 'create' && third === undefined) {
    return [{ kind: 'employee', action: 'create', uuid: null }];
  }
  if (kind === 'details' && third === undefined) {
    const each = detailWrites.get(second ?? '');
    if (each) return items(body).map((item, index) => readable(() => each(item, at(body, index))));
  }
  if (third === 'terminate' && second !== undefined) {
    if (kind === 'e')
      return [{ kind: 'employee', action: 'terminate', uuid: isUuid(second) ? second : null }];
    if (kind === 'ou') {
      return [
        readable(() => {
          const fields = Fields.of(body, '');
          const unit = uuidAt(second, 'the org unit UUID in the path');
          return { kind: 'terminate_unit', unit, date: fields.nested('validity').date('to') };
        }),
      ];
    }
  }
  return [notAWrite];
}

const detailLabel: Record<DetailType, string> = {
  engagement: 'engagement',
  manager: 'manager record',
  owner: 'owner record',
  it: 'IT account',
};

const withArticle = (label: string) => `${/^[aeiouAEIOU]/.test(label) ? 'an' : 'a'} ${label}`;

/** The intent as the object of "you may not …". */
export function describeIntent(intent: WriteIntent): string {
  switch (intent.kind) {
    case 'create_unit':
      return intent.parent === null
        ? 'create a top-level org unit'
        : `create an org unit under org unit ${intent.parent}`;
    case 'change_unit':
      return `change org unit ${intent.unit}`;
    case 'move_unit':
      return intent.parent === null
        ? `move org unit ${intent.unit} to the top level`
        : `move org unit ${intent.unit} under org unit ${intent.parent}`;
    case 'terminate_unit':
      return `terminate org unit ${intent.unit}`;
    case 'create_detail':
      return intent.unit === null
        ? `create ${withArticle(detailLabel[intent.type])} of an employee`
        : `create ${withArticle(detailLabel[intent.type])} in org unit ${intent.unit}`;
    case 'change_detail':
      return `${intent.action} ${detailLabel[intent.type]} ${intent.uuid}`;
    case 'employee':
      return intent.uuid === null
        ? `${intent.action} an employee`
        : `${intent.action} employee ${intent.uuid}`;
    case 'unreadable':
      return 'send this write';
  }
}

const allow = (reason: string): RbacDecision => ({ allowed: true, reason });
const deny = (reason: string): RbacDecision => ({ allowed: false, reason });

export interface RbacPolicyOptions {
  /** `IDP_RBAC_ENABLED`: off means every authenticated user may write. */
  enabled: boolean;
}

/**
 * @example
 * const rbac = createRbacPolicy({ enabled: config.idp.rbacEnabled });
 * const decision = rbac.decideByRole(principal) ??
 *   (await rbac.decide(principal, writeIntents({ method, path, body }), { reads: loaders, today }));
 */
export function createRbacPolicy(options: RbacPolicyOptions) {
  /** The decision the token alone settles (RBAC off, admin, no role), or undefined when units must be read. */
  function decideByRole(principal: Principal): RbacDecision | undefined {
    if (!options.enabled) return allow('RBAC is off: every authenticated user may write.');
    if (principal.roles.includes('admin')) return allow('The admin role may write everything.');
    if (!principal.roles.includes('owner')) {
      return deny(
        'Writing needs the admin role, or the owner role for the units you own; this token has neither.',
      );
    }
    if (!isUuid(principal.employeeUuid)) {
      return deny(
        "The owner role writes only on units its employee owns, and this token's uuid claim is missing or not a UUID.",
      );
    }
    return undefined;
  }

  async function decideIntent(intent: WriteIntent, ownership: UnitOwnership): Promise<RbacDecision> {
    const refused = (why: string) => deny(`You may not ${describeIntent(intent)}: ${why}.`);
    const adminOnly = (what: string) => refused(`${what} needs the admin role`);
    const owning = async (unit: string, date: string): Promise<RbacDecision | undefined> => {
      const answer = await ownership.ownsUnit(unit, date);
      if (answer.kind === 'owned') return undefined;
      if (answer.kind === 'unit_not_found') {
        return refused(`org unit ${unit} does not exist on ${date}, so its owners cannot be checked`);
      }
      return refused(`employee ${ownership.employee} owns neither org unit ${unit} nor any of its ancestors`);
    };
    const firstRefusal = async (checks: Promise<RbacDecision | undefined>[]) =>
      (await Promise.all(checks)).find((decision) => decision !== undefined) ??
      allow(`Employee ${ownership.employee} owns every unit this write touches.`);

    switch (intent.kind) {
      case 'create_unit':
        if (intent.parent === null) return adminOnly('a top-level org unit');
        return firstRefusal([owning(intent.parent, intent.date)]);
      case 'change_unit':
      case 'terminate_unit':
        return firstRefusal([owning(intent.unit, intent.date)]);
      case 'move_unit':
        if (intent.parent === null) return adminOnly('moving an org unit to the top level');
        return firstRefusal([owning(intent.unit, intent.date), owning(intent.parent, intent.date)]);
      case 'create_detail':
        if (intent.unit === null) return adminOnly(`${withArticle(detailLabel[intent.type])} of an employee`);
        return firstRefusal([owning(intent.unit, intent.date)]);
      case 'change_detail': {
        if (intent.newUnit === null) {
          return adminOnly(`${withArticle(detailLabel[intent.type])} that belongs to no org unit`);
        }
        const [location, newUnit] = await Promise.all([
          ownership.locateDetail(intent.type, intent.uuid, intent.date, intent.hints),
          intent.newUnit === undefined ? undefined : owning(intent.newUnit, intent.date),
        ]);
        if (!location.found) {
          return refused(
            `no ${detailLabel[intent.type]} ${intent.uuid} is in force in an org unit on ${intent.date}, so it cannot be checked against the units you own`,
          );
        }
        if (location.unit === null) {
          return adminOnly(`${withArticle(detailLabel[intent.type])} of an employee`);
        }
        return newUnit ?? firstRefusal([owning(location.unit, intent.date)]);
      }
      case 'employee':
        return adminOnly('an employee is not an org unit, so this');
      case 'unreadable':
        return refused(`${intent.problem}, and a write RBAC cannot read needs the admin role`);
    }
  }

  /** Decides a write by its intents; every intent must be allowed. */
  async function decide(
    principal: Principal,
    intents: readonly WriteIntent[],
    context: { reads: OrganisationReads; today: string },
  ): Promise<RbacDecision> {
    const byRole = decideByRole(principal);
    if (byRole) return byRole;
    const ownership = unitOwnership(context.reads, {
      employee: principal.employeeUuid!,
      today: context.today,
    });
    const decisions = await Promise.all(intents.map((intent) => decideIntent(intent, ownership)));
    return (
      decisions.find((decision) => !decision.allowed) ??
      decisions[0] ??
      allow('The write names nothing to check; the legacy service will refuse it.')
    );
  }

  return { enabled: options.enabled, decideByRole, decide };
}

export type RbacPolicy = ReturnType<typeof createRbacPolicy>;
