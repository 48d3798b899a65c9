import type { Principal } from '../auth/token-verifier.js';
import type { DetailType } from '../legacy/legacy-loaders.js';
import { detailTypes } from '../legacy/legacy-paths.js';
import {
  endOfTime,
  maxPlacesPerPeriod,
  unitOwnership,
  type DetailHints,
  type OrganisationReads,
  type Period,
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
 * |                          | itself or one of its ancestors) on every day of the period the write       |
 * |                          | affects; never a top-level unit, an employee, a record of a person, his    |
 * |                          | own ownership, a body the policy cannot read, or a list of more than       |
 * |                          | `maxOwnerItems` items                                                      |
 * | neither role             | no write                                                                   |
 */

/**
 * What one write does, in the rules' own terms. `date` is the write's own date (its `from`, or the `to` of
 * a termination); `until` the end date it gives, if any. Together they make the period the write affects
 * (`periodOf`), over which ownership is judged.
 */
export type WriteIntent =
  /**
   * `parent: null` is a top-level unit: admin only. `uuid`: the one the client chose, which must not name
   * a unit already (OS2mo 2.x writes a create over the unit of that UUID).
   */
  | { kind: 'create_unit'; parent: string | null; date: string; until?: string; uuid?: string }
  /** Rename, retype or relabel; no move. */
  | { kind: 'change_unit'; unit: string; date: string; until?: string }
  /** Needs the unit and the new parent; `parent: null` moves it to the top level: admin only. */
  | { kind: 'move_unit'; unit: string; parent: string | null; date: string; until?: string }
  /**
   * `date` is the unit's last active day (`validity.to` of the deprecated form) or its first inactive day
   * (`validity.from` of the `{from, to}` form, whose `to` is then `until`).
   */
  | { kind: 'terminate_unit'; unit: string; date: string; until?: string }
  /** `unit: null` is a record of a person (owner or IT account of an employee): admin only. */
  | {
      kind: 'create_detail';
      type: DetailType;
      unit: string | null;
      date: string;
      until?: string;
      /** An owner record of a unit: the employee it makes owner. */
      appoints?: string;
      /** The UUID the client chose for the record: admin only (see `chosenDetailUuid`). */
      uuid?: string;
      /** A record an `ou/create` makes in the new unit: `unit` is then the new unit's parent. */
      inNewUnit?: true;
    }
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
      until?: string;
      newUnit?: string | null;
      /** An edit of an owner record that names its owner: the employee it makes owner. */
      appoints?: string;
      hints: DetailHints;
    }
  /** An employee is not an org unit: admin only. */
  | { kind: 'employee'; action: 'create' | 'edit' | 'terminate'; uuid: string | null }
  /** A body or endpoint the policy cannot read: admin only (the legacy service will say what is wrong). */
  /** `POST /service/f/{facet}/` (OS2mo 2.4.0 `service/facet.py:800`): a class, created or written anew: admin only. */
  | { kind: 'class'; facet: string }
  | { kind: 'unreadable'; problem: string };

export interface RbacDecision {
  allowed: boolean;
  /** One sentence: what was allowed or refused, and why. Refusals are shown to the client. */
  reason: string;
  /** A refusal because the create's `uuid` already names an object: answered 409, not 403. */
  conflict?: true;
}

/** A write as it goes to the legacy service. `body` is the parsed JSON. */
export interface LegacyWrite {
  method: string;
  /** The path as the legacy service routes it, e.g. `/service/details/edit`. */
  path: string;
  body: unknown;
}

/**
 * The detail types `details/create|edit|terminate` write. Related units are made and changed through
 * `/ou/{uuid}/map`, which the policy does not read, so every related-unit write needs the admin role.
 */
const writableDetailTypes: readonly DetailType[] = detailTypes.filter((type) => type !== 'related_unit');

/** Detail types whose every record names its unit (`org_unit` is required). */
const unitRecords: ReadonlySet<DetailType> = new Set<DetailType>([
  'engagement',
  'manager',
  'association',
  'role',
  'kle',
  'engagement_association',
]);

/**
 * The references that make a record a person's rather than a unit's: an owner or IT account of a person,
 * an address of a person or of an engagement (OS2mo shows it with the person). A leave is always a person's.
 */
const personReferences: Partial<Record<DetailType, readonly string[]>> = {
  owner: ['person'],
  it: ['person'],
  address: ['person', 'engagement'],
};

/** Whether the body's fields make the record a person's (see `personReferences`). */
function isPersonRecord(type: DetailType, fields: Fields): boolean {
  if (type === 'leave') return true;
  return (personReferences[type] ?? []).some((key) => {
    const value = fields.optionalRef(key);
    return value !== undefined && value !== null;
  });
}
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

/** A create's own `uuid`, when the client chose one, as `{ uuid }` to spread into an intent. */
function chosenUuid(fields: Fields): { uuid?: string } {
  const value = fields.raw('uuid');
  return value === undefined || value === null ? {} : { uuid: fields.uuid('uuid') };
}

function detailCreate(item: unknown, prefix: string): WriteIntent {
  const fields = Fields.of(item, prefix);
  const type = fields.detailType(writableDetailTypes) as DetailType;
  const unit = type === 'leave' ? undefined : fields.optionalRef('org_unit');
  const personRecord = isPersonRecord(type, fields);
  const validity = fields.nested('validity');
  const date = validity.date('from');
  const until = validity.until('to');
  const chosen = chosenUuid(fields);
  // Unit records always name their unit; owners, IT accounts and addresses a unit or a person; leaves a person.
  if (unit === undefined || unit === null || personRecord) {
    if (unitRecords.has(type)) {
      throw new Unreadable(`${prefix ? `${prefix}.` : ''}org_unit is required`);
    }
    return { kind: 'create_detail', type, unit: null, date, ...until, ...chosen };
  }
  const appoints = type === 'owner' ? fields.optionalRef('owner') : undefined;
  return { kind: 'create_detail', type, unit, date, ...until, ...(appoints ? { appoints } : {}), ...chosen };
}

/**
 * The unit a `details/edit` of type `org_unit` changes: OS2mo 2.4.0 reads `data.uuid` and ignores the top-level
 * `uuid`, so the policy judges `data.uuid` and refuses a body whose two UUIDs name different units.
 */
function editedUnit(fields: Fields, data: Fields): string {
  const unit = data.uuid('uuid');
  if (fields.raw('uuid') !== undefined && fields.uuid('uuid') !== unit) {
    throw new Unreadable(`${fields.prefixed('uuid')} names another unit than ${data.prefixed('uuid')}`);
  }
  return unit;
}

function detailEdit(item: unknown, prefix: string): WriteIntent {
  const fields = Fields.of(item, prefix);
  const type = fields.detailType([...writableDetailTypes, 'org_unit', 'employee']);
  if (type === 'employee') return { kind: 'employee', action: 'edit', uuid: fields.uuid('uuid') };
  const data = fields.nested('data');
  const validity = data.nested('validity');
  const date = validity.date('from');
  const until = validity.until('to');
  if (type === 'org_unit') {
    const unit = editedUnit(fields, data);
    const parent = data.optionalRef('parent');
    return parent === undefined
      ? { kind: 'change_unit', unit, date, ...until }
      : { kind: 'move_unit', unit, parent, date, ...until };
  }
  const uuid = fields.uuid('uuid');
  const detailType = type as DetailType;
  const unit = data.optionalRef('org_unit');
  const person = data.optionalRef('person');
  const personLevel = isPersonRecord(detailType, data);
  const newUnit = personLevel ? null : unit;
  const appoints = detailType === 'owner' ? data.optionalRef('owner') : undefined;
  return {
    kind: 'change_detail',
    action: 'edit',
    type: detailType,
    uuid,
    date,
    ...until,
    ...(newUnit === undefined ? {} : { newUnit }),
    ...(appoints ? { appoints } : {}),
    hints: {
      units: typeof unit === 'string' ? [unit] : [],
      persons: typeof person === 'string' && !personLevel ? [person] : [],
    },
  };
}

function detailTerminate(item: unknown, prefix: string): WriteIntent {
  const fields = Fields.of(item, prefix);
  const type = fields.detailType(writableDetailTypes) as DetailType;
  const uuid = fields.uuid('uuid');
  const date = fields.nested('validity').date('to');
  return {
    kind: 'change_detail',
    action: 'terminate',
    type,
    uuid,
    date,
    // A leave belongs to no unit: only an admin ends one.
    ...(type === 'leave' ? { newUnit: null } : {}),
    hints: { units: [], persons: [] },
  };
}

const detailWrites = new Map([
  ['create', detailCreate],
  ['edit', detailEdit],
  ['terminate', detailTerminate],
]);

/**
 * The lists of detail records an `ou/create` carries, made with the unit: OS2mo 2.4.0 creates each item of
 * `details` with the UUID it gives, after setting its `org_unit` to the new unit
 * (`backend/mora/service/orgunit.py`, `prepare_create` 150–157 and `_inject_org_units` 370–380); our
 * contract also takes `addresses`, as details of type `address` (`OrgUnitCreate`).
 */
const nestedDetailLists: readonly (readonly [string, DetailType | undefined])[] = [
  ['details', undefined],
  ['addresses', 'address'],
];

/**
 * An `ou/create`: the unit under its parent, then every record it carries, each judged as the
 * `details/create` it makes. A record of the new unit (no `org_unit`, or the new unit's own `uuid`) is
 * judged against the parent, whose ownership is the new unit's; one that names another unit against that
 * unit, in case a backend honours it. Each keeps the rules of a create: its own `uuid` needs an admin, so
 * does a record of a person or one that makes the writer owner.
 */
function unitCreate(body: unknown): WriteIntent[] {
  const unit = readable(() => {
    const fields = Fields.of(body, '');
    const parent = fields.optionalRef('parent') ?? null;
    const validity = fields.nested('validity');
    return {
      kind: 'create_unit',
      parent,
      date: validity.date('from'),
      ...validity.until('to'),
      ...chosenUuid(fields),
    };
  });
  if (unit.kind !== 'create_unit') return [unit];
  const fields = body as Record<string, unknown>;
  const nested: WriteIntent[] = [];
  for (const [list, impliedType] of nestedDetailLists) {
    const records = fields[list];
    if (records === undefined || records === null) continue;
    if (!Array.isArray(records)) {
      nested.push({ kind: 'unreadable', problem: `${list} must be a list` });
      continue;
    }
    records.forEach((record, index) => {
      nested.push(readable(() => nestedDetailCreate(record, `${list}[${index}]`, unit, impliedType)));
    });
  }
  return [unit, ...nested];
}

/** One record an `ou/create` carries, as the `details/create` it makes (see `unitCreate`). */
function nestedDetailCreate(
  record: unknown,
  prefix: string,
  unit: Extract<WriteIntent, { kind: 'create_unit' }>,
  impliedType: DetailType | undefined,
): WriteIntent {
  const fields = Fields.of(record, prefix);
  const given = fields.optionalRef('org_unit');
  const inNewUnit = given === undefined || given === null || given === unit.uuid;
  const item = {
    ...(record as Record<string, unknown>),
    ...(impliedType && fields.raw('type') === undefined ? { type: impliedType } : {}),
    ...(inNewUnit && unit.parent !== null ? { org_unit: { uuid: unit.parent } } : {}),
  };
  const intent = detailCreate(item, prefix);
  return intent.kind === 'create_detail' && inNewUnit && intent.unit !== null
    ? { ...intent, inNewUnit: true }
    : intent;
}

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

  if (kind === 'ou' && second === 'create' && third === undefined) return unitCreate(body);
  if (kind === 'e' && second === 'create' && third === undefined) {
    return [{ kind: 'employee', action: 'create', uuid: null }];
  }
  if (kind === 'f' && second !== undefined && second !== '' && third === undefined) {
    return [{ kind: 'class', facet: second }];
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
          const validity = fields.nested('validity');
          // As OS2mo 2.4.0 reads it: with both `from` and `to` the unit is inactive from `from` through `to`
          // (`to: null`: for good), so the write reaches back to `from` whatever `to` says; with only `to`
          // (the deprecated form), `to` is its last day.
          if (validity.raw('from') !== undefined && validity.raw('to') !== undefined) {
            return { kind: 'terminate_unit', unit, date: validity.date('from'), ...validity.until('to') };
          }
          return { kind: 'terminate_unit', unit, date: validity.date('to') };
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
  address: 'address',
  association: 'association',
  role: 'role',
  leave: 'leave',
  kle: 'KLE number',
  related_unit: 'unit relation',
  engagement_association: 'engagement association',
};

/**
 * Why an owner may not make himself owner: his right to write on a unit comes from his owner records, so
 * one he writes himself (a new one, or an edit that keeps or re-dates his own) could extend that right past
 * what an admin gave him, for example past an end an admin set.
 */
const selfAppointment = 'an owner record that makes you owner';

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
        : intent.inNewUnit
          ? `create ${withArticle(detailLabel[intent.type])} in a new org unit under org unit ${intent.unit}`
          : `create ${withArticle(detailLabel[intent.type])} in org unit ${intent.unit}`;
    case 'change_detail':
      return `${intent.action} ${detailLabel[intent.type]} ${intent.uuid}`;
    case 'employee':
      return intent.uuid === null
        ? `${intent.action} an employee`
        : `${intent.action} employee ${intent.uuid}`;
    case 'class':
      return `write a class in facet ${intent.facet}`;
    case 'unreadable':
      return 'send this write';
  }
}

const allow = (reason: string): RbacDecision => ({ allowed: true, reason });
const deny = (reason: string): RbacDecision => ({ allowed: false, reason });

/**
 * Why only an admin may choose a new detail record's UUID. OS2mo keeps every detail type in one table and
 * writes a create over the record that already has its UUID, whatever its type, unit or person; the
 * Service API reads records only through the listings of a unit or person, so whether a UUID is free
 * cannot be read without scanning the whole organisation.
 */
const chosenDetailUuid =
  'a detail record whose uuid you choose needs the admin role, because OS2mo writes a create over any record that already has that UUID and RBAC cannot read cheaply whether it is free; leave uuid out and the backend chooses one';

export interface RbacPolicyOptions {
  /** `IDP_RBAC_ENABLED`: off means every authenticated user may write. */
  enabled: boolean;
  /**
   * Most items an owner may send in one list body (default 100). Each item may need its own reads; an
   * admin's lists are not read, so they are not limited here.
   */
  maxOwnerItems?: number;
  /**
   * Most org units RBAC reads to find an owner's detail that the request does not place (default
   * `defaultMaxScanUnits`); past it the write is refused, so the search stays bounded as the organisation grows.
   */
  maxScanUnits?: number;
}

/**
 * The days a write affects: from its date until its end when it gives one, otherwise for good. A write
 * with no end changes every version from its date on, the ones already scheduled included (an admin's
 * planned move, rename or new owner), so it is judged on all of them, up to where the unit or record
 * ends. A termination's date is its last day, and it changes every version after it.
 */
export function periodOf(intent: { date: string; until?: string }): Period {
  const end = intent.until ?? endOfTime;
  return { from: intent.date, to: end < intent.date ? intent.date : end };
}

const describePeriod = (period: Period) =>
  period.from === period.to
    ? `on ${period.from}`
    : period.to === endOfTime
      ? `from ${period.from} on`
      : `from ${period.from} to ${period.to}`;

/** How many items of one owner's write are decided at once; the rest wait, and stop at a refusal. */
const itemsAtOnce = 8;

/**
 * @example
 * const rbac = createRbacPolicy({ enabled: config.idp.rbacEnabled });
 * const decision = rbac.decideByRole(principal) ??
 *   (await rbac.decide(principal, writeIntents({ method, path, body }), { reads: loaders, today }));
 */
export function createRbacPolicy(options: RbacPolicyOptions) {
  const maxOwnerItems = options.maxOwnerItems ?? 100;

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

  /**
   * The decision on one intent; `undefined` when `mayScan` is false and the decision needs a scan of the
   * units (a detail its hints do not place).
   */
  async function decideIntent(
    intent: WriteIntent,
    ownership: UnitOwnership,
    mayScan: boolean,
    reads: OrganisationReads,
  ): Promise<RbacDecision | undefined> {
    const refused = (why: string) => deny(`You may not ${describeIntent(intent)}: ${why}.`);
    const adminOnly = (what: string) => refused(`${what} needs the admin role`);
    const owning = async (unit: string, period: Period): Promise<RbacDecision | undefined> => {
      const answer = await ownership.ownsUnitOver(unit, period);
      switch (answer.kind) {
        case 'owned':
          return undefined;
        case 'unit_not_found':
          return refused(`org unit ${unit} does not exist on ${answer.at}, so its owners cannot be checked`);
        case 'not_owned':
          return refused(
            period.from === period.to
              ? `employee ${ownership.employee} owns neither org unit ${unit} nor any of its ancestors`
              : `the write takes effect ${describePeriod(period)}, and on ${answer.at} employee ${ownership.employee} owns neither org unit ${unit} nor any of its ancestors`,
          );
        case 'too_many_changes':
          return refused(
            `org unit ${unit} changes place more than ${maxPlacesPerPeriod} times ${describePeriod(period)}, more than RBAC follows; an admin can make this write`,
          );
      }
    };
    const firstRefusal = async (checks: Promise<RbacDecision | undefined>[]) =>
      (await Promise.all(checks)).find((decision) => decision !== undefined) ??
      allow(`Employee ${ownership.employee} owns every unit this write touches.`);

    if (intent.kind === 'employee') return adminOnly('an employee is not an org unit, so this');
    if (intent.kind === 'class') return adminOnly('a class, which every org unit may use,');
    if (intent.kind === 'unreadable') {
      return refused(`${intent.problem}, and a write RBAC cannot read needs the admin role`);
    }
    const period = periodOf(intent);
    switch (intent.kind) {
      case 'create_unit': {
        if (intent.parent === null) return adminOnly('a top-level org unit');
        const underParent = await firstRefusal([owning(intent.parent, period)]);
        // Asked only once the parent is his: no one else learns whether a UUID is in use.
        if (!underParent.allowed || intent.uuid === undefined || !(await reads.unitExists(intent.uuid))) {
          return underParent;
        }
        return {
          allowed: false,
          conflict: true,
          reason: `You may not create an org unit with uuid ${intent.uuid}: that UUID already names an org unit, and the backend would write this create over it. Leave uuid out, choose another, or change the unit with details/edit.`,
        };
      }
      case 'change_unit':
      case 'terminate_unit':
        return firstRefusal([owning(intent.unit, period)]);
      case 'move_unit':
        if (intent.parent === null) return adminOnly('moving an org unit to the top level');
        return firstRefusal([owning(intent.unit, period), owning(intent.parent, period)]);
      case 'create_detail':
        if (intent.unit === null) return adminOnly(`${withArticle(detailLabel[intent.type])} of an employee`);
        if (intent.uuid !== undefined) return adminOnly(chosenDetailUuid);
        if (intent.appoints === ownership.employee) return adminOnly(selfAppointment);
        return firstRefusal([owning(intent.unit, period)]);
      case 'change_detail': {
        if (intent.newUnit === null) {
          return adminOnly(`${withArticle(detailLabel[intent.type])} that belongs to no org unit`);
        }
        const location = await ownership.locateDetailOver(intent.type, intent.uuid, period, intent.hints, {
          mayScan,
        });
        if (location.found === 'needs_scan') return undefined;
        if (location.found === 'too_many_units') {
          return refused(
            `finding it would mean reading ${location.units} org units, more than RBAC searches for an owner; name its unit (data.org_unit) in an edit, or ask an admin`,
          );
        }
        if (location.found === false) {
          return refused(
            `no ${detailLabel[intent.type]} ${intent.uuid} is in force in an org unit on ${intent.date}, so it cannot be checked against the units you own`,
          );
        }
        if (location.found === 'unplaced') {
          return refused(
            `${detailLabel[intent.type]} ${intent.uuid} is in force before and after ${location.at}, but on that day it is in no org unit RBAC can read, so the write cannot be checked against the units you own; an admin can make it`,
          );
        }
        if (location.versions.some((version) => version.unit === null)) {
          return adminOnly(`${withArticle(detailLabel[intent.type])} of an employee`);
        }
        // An edit that leaves the owner as it is keeps naming whoever it names, over its new dates.
        const appointed =
          intent.action !== 'edit' || intent.type !== 'owner'
            ? []
            : intent.appoints !== undefined
              ? [intent.appoints]
              : location.versions.map((version) => version.owner);
        if (appointed.includes(ownership.employee)) return adminOnly(selfAppointment);
        // The record's days in the period: it changes nothing after the record ends.
        const last = location.versions[location.versions.length - 1]!.to;
        const recordPeriod = last !== null && last < period.to ? { ...period, to: last } : period;
        const intoNewUnit =
          intent.newUnit === undefined ? undefined : await owning(intent.newUnit, recordPeriod);
        if (intoNewUnit) return intoNewUnit;
        // Each unit the record is in while the write takes effect, for the days it is there.
        return firstRefusal(
          location.versions.map((version) =>
            owning(version.unit!, {
              from: version.from > period.from ? version.from : period.from,
              to: version.to !== null && version.to < period.to ? version.to : period.to,
            }),
          ),
        );
      }
    }
  }

  /**
   * Decides a write by its intents; every intent must be allowed. Items are decided a few at a time, in
   * order, and no new item starts after a refusal: a long list that fails early costs little. Reads are
   * shared by all items (one scan per detail type, one chain per unit and date).
   */
  async function decide(
    principal: Principal,
    intents: readonly WriteIntent[],
    context: { reads: OrganisationReads; today: string },
  ): Promise<RbacDecision> {
    const byRole = decideByRole(principal);
    if (byRole) return byRole;
    if (intents.length > maxOwnerItems) {
      return deny(
        `You may not send ${intents.length} writes in one request: the owner role may send at most ${maxOwnerItems}, because each is checked against the units you own. Split the list.`,
      );
    }
    const scanFrom = new Map<DetailType, string>();
    for (const intent of intents) {
      if (intent.kind !== 'change_detail') continue;
      const known = scanFrom.get(intent.type);
      if (known === undefined || intent.date < known) scanFrom.set(intent.type, intent.date);
    }
    const ownership = unitOwnership(context.reads, {
      employee: principal.employeeUuid!,
      today: context.today,
      scanFrom,
      ...(options.maxScanUnits === undefined ? {} : { maxScanUnits: options.maxScanUnits }),
    });

    const decisions: (RbacDecision | undefined)[] = [];
    /**
     * Decides the items at `indexes`, a few at a time and in order; no new item starts after a refusal.
     * Returns the first refusal among them, and leaves undecided the items that need a scan when
     * `mayScan` is false.
     */
    const decideItems = async (indexes: readonly number[], mayScan: boolean) => {
      let next = 0;
      let refusedAt = Infinity;
      const work = async () => {
        while (next < indexes.length && next < refusedAt) {
          const position = next++;
          const decision = await decideIntent(
            intents[indexes[position]!]!,
            ownership,
            mayScan,
            context.reads,
          );
          decisions[indexes[position]!] = decision;
          if (decision && !decision.allowed && position < refusedAt) refusedAt = position;
        }
      };
      await Promise.all(Array.from({ length: Math.min(itemsAtOnce, indexes.length) }, work));
      return refusedAt === Infinity ? undefined : decisions[indexes[refusedAt]!];
    };

    // Everything that needs no scan first: a refusal there costs no scan at all.
    const cheap = await decideItems(
      intents.map((_, index) => index),
      false,
    );
    if (cheap) return cheap;
    // Then the details that need one, one type (one scan) at a time, stopping at the first refusal.
    const byType = new Map<DetailType, number[]>();
    intents.forEach((intent, index) => {
      if (decisions[index] !== undefined || intent.kind !== 'change_detail') return;
      byType.set(intent.type, [...(byType.get(intent.type) ?? []), index]);
    });
    for (const indexes of byType.values()) {
      const refusal = await decideItems(indexes, true);
      if (refusal) return refusal;
    }
    return decisions[0] ?? allow('The write names nothing to check; the legacy service will refuse it.');
  }

  return { enabled: options.enabled, decideByRole, decide };
}

export type RbacPolicy = ReturnType<typeof createRbacPolicy>;
