import type { DetailType } from '../legacy/legacy-loaders.js';
import { detailCreate } from './detail-write-intents.js';
import { Fields, readable } from './write-body-reader.js';
import type { IntentOf, WriteIntent } from './write-intent.js';

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
 * An `ou/create`: the unit under its parent, then every record it carries, each read as the
 * `details/create` it makes. A record of the new unit (no `org_unit`, or the new unit's own `uuid`) is
 * placed under the parent, whose ownership is the new unit's (`inNewUnit`); one that names another unit
 * in that unit, in case a backend honours it. Each keeps what makes a create: its own `uuid`, a person,
 * the owner it appoints.
 */
export function unitCreate(body: unknown): WriteIntent[] {
  const unit = readable(() => {
    const fields = Fields.of(body, '');
    const parent = fields.optionalRef('parent') ?? null;
    const validity = fields.nested('validity');
    return {
      kind: 'create_unit',
      parent,
      date: validity.date('from'),
      ...validity.until('to'),
      ...fields.chosenUuid(),
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
  unit: IntentOf<'create_unit'>,
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
