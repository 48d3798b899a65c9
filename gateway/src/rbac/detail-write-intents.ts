import type { DetailType } from '../legacy/legacy-loaders.js';
import { detailTypes } from '../legacy/legacy-paths.js';
import { Fields, Unreadable } from './write-body-reader.js';
import type { WriteIntent } from './write-intent.js';

/**
 * The intents of one item of `details/create`, `details/edit` or `details/terminate` (pure): which unit a
 * record is in, whether it is a person's, whom it makes owner, which UUID the client chose.
 */

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

/** One item of `details/create`; `prefix` names it in a refusal (`[2]`, `details[0]`, or none). */
export function detailCreate(item: unknown, prefix: string): WriteIntent {
  const fields = Fields.of(item, prefix);
  const type = fields.detailType(writableDetailTypes) as DetailType;
  const unit = type === 'leave' ? undefined : fields.optionalRef('org_unit');
  const personRecord = isPersonRecord(type, fields);
  const validity = fields.nested('validity');
  const date = validity.date('from');
  const until = validity.until('to');
  const chosen = fields.chosenUuid();
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

/** One item of `details/edit`: a unit's change or move, an employee's edit, or a detail's edit. */
export function detailEdit(item: unknown, prefix: string): WriteIntent {
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

/** One item of `details/terminate`: `validity.to` is the record's last day. */
export function detailTerminate(item: unknown, prefix: string): WriteIntent {
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
