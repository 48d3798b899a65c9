import { detailTypes, type DetailType } from '../legacy/legacy-paths.js';
import { detailCollectionNames } from '../legacy/os2mo-type-names.js';
import {
  classRef,
  entityRef,
  field,
  isRecord,
  keyedByUuid,
  list,
  single,
  sortedUserKeys,
  textOf,
  validity,
  type JsonRecord,
  type NormalObject,
  type NormalValue,
} from './normal-form.js';

/** Whose detail listing: a unit's (`/service/ou/{uuid}/details/{type}`) or a person's (`/service/e/…`). */
export type DetailOwner = 'org_units' | 'employees';

/**
 * One field both sides carry, compared in its normal form. The legacy listing and the graph sometimes name
 * the same data differently (`person` is `employee`, `kle_aspect` is `kles_aspects`, an embedded
 * `engagement` is `engagement_uuid`), so a compared field names both.
 */
type Compared =
  | { kind: 'text'; name: string }
  | { kind: 'class'; name: string }
  | { kind: 'classes'; legacy: string; graphql: string }
  | { kind: 'entity'; legacy: string; graphql: string }
  | { kind: 'uuid'; legacy: string; graphql: string }
  | { kind: 'uuids'; legacy: string; graphql: string };

const text = (name: string): Compared => ({ kind: 'text', name });
const cls = (name: string): Compared => ({ kind: 'class', name });
const person: Compared = { kind: 'entity', legacy: 'person', graphql: 'employee' };
const unit: Compared = { kind: 'entity', legacy: 'org_unit', graphql: 'org_unit' };
const engagement: Compared = { kind: 'uuid', legacy: 'engagement', graphql: 'engagement_uuid' };

/** Every detail type with the fields of its records both interfaces carry (besides uuid, user_key, validity). */
const comparedFields: Record<DetailType, Compared[]> = {
  engagement: [cls('job_function'), cls('engagement_type'), cls('primary'), text('fraction'), person, unit],
  manager: [
    cls('manager_type'),
    cls('manager_level'),
    { kind: 'classes', legacy: 'responsibility', graphql: 'responsibility' },
    person,
    unit,
  ],
  owner: [
    { kind: 'entity', legacy: 'owner', graphql: 'owner' },
    unit,
    { kind: 'entity', legacy: 'person', graphql: 'person' },
  ],
  it: [{ kind: 'entity', legacy: 'itsystem', graphql: 'itsystem' }, person, unit],
  address: [
    cls('address_type'),
    cls('visibility'),
    text('name'),
    text('value'),
    text('href'),
    person,
    unit,
    engagement,
  ],
  association: [
    cls('association_type'),
    cls('primary'),
    { kind: 'classes', legacy: 'dynamic_classes', graphql: 'dynamic_classes' },
    { kind: 'entity', legacy: 'substitute', graphql: 'substitute' },
    person,
    unit,
  ],
  role: [cls('role_type'), person, unit],
  leave: [cls('leave_type'), person, engagement],
  kle: [{ kind: 'classes', legacy: 'kle_aspect', graphql: 'kle_aspects' }, cls('kle_number'), unit],
  related_unit: [{ kind: 'uuids', legacy: 'org_unit', graphql: 'org_units' }],
  engagement_association: [cls('engagement_association_type'), unit, engagement],
};

/** The GraphQL field of a unit or a person that serves a detail listing. */
export function detailField(owner: DetailOwner, type: DetailType): string {
  if (type === 'manager' && owner === 'employees') return 'manager_roles';
  return detailCollectionNames[type];
}

/** The detail types every unit and every person has a listing and a GraphQL field for. */
export const comparedDetailTypes: readonly DetailType[] = detailTypes;

/** The GraphQL selection of one detail type's records: exactly the compared fields. */
export function detailRecordSelection(type: DetailType): string {
  const parts = comparedFields[type].map((compared) => {
    switch (compared.kind) {
      case 'text':
      case 'uuid':
        return compared.kind === 'text' ? compared.name : compared.graphql;
      case 'class':
        return `${compared.name} { user_key }`;
      case 'classes':
        return `${compared.graphql} { user_key }`;
      case 'entity':
        return `${compared.graphql} { uuid name }`;
      case 'uuids':
        return `${compared.graphql} { uuid }`;
    }
  });
  return `uuid user_key validity { from to } ${parts.join(' ')}`;
}

/** The GraphQL selection of one detail field: exactly the compared fields. */
export function detailSelection(owner: DetailOwner, type: DetailType): string {
  return `${detailField(owner, type)} { ${detailRecordSelection(type)} }`;
}

/** The filter of OS2mo's record collections (`owners`, `kles`, …) that names a unit or a person. */
export const os2moOwnerFilter: Record<DetailOwner, string> = { org_units: 'org_unit', employees: 'employee' };
/** The link of a record in OS2mo's collections that names its unit or person. */
export const os2moOwnerLink: Record<DetailOwner, string> = { org_units: 'org_unit', employees: 'person' };

/**
 * A detail listing from OS2mo's record collection, for a unit or person whose own type has no field for
 * it (OS2mo's `Employee` has no `owners`; `owners(filter: { employee: … })` lists the same records), as
 * a selection in v2's names (`toOs2moDocument` puts it in OS2mo's shape); `owned_by` names whose each
 * record is. `uuids` is the selection's list of units or people (`$uuids`, `[$uuid]`).
 */
export function detailCollectionSelection(owner: DetailOwner, type: DetailType, uuids: string): string {
  // A unit's fields are named as OS2mo's collections are (a person's managers are `manager_roles`).
  return `${detailField('org_units', type)}(filter: { ${os2moOwnerFilter[owner]}: { uuids: ${uuids} } }) { objects { ${detailRecordSelection(type)} owned_by: ${os2moOwnerLink[owner]} { uuid } } }`;
}

const sortedUuids = (values: unknown): NormalValue =>
  list(values)
    .map((value) => (typeof value === 'string' ? value : field(value, 'uuid')))
    .filter((uuid): uuid is string => typeof uuid === 'string')
    .sort();

function recordView(type: DetailType, side: 'legacy' | 'graphql', record: JsonRecord): NormalValue {
  const view: NormalObject = {
    user_key: textOf(record['user_key']),
    validity: validity(record['validity']),
  };
  for (const compared of comparedFields[type]) {
    switch (compared.kind) {
      case 'text':
        view[compared.name] = textOf(record[compared.name]) ?? null;
        break;
      case 'class':
        view[compared.name] = classRef(record[compared.name]);
        break;
      case 'classes':
        view[compared.graphql] = sortedUserKeys(record[compared[side]]);
        break;
      case 'entity':
        view[compared.graphql] = entityRef(single(record[compared[side]]));
        break;
      case 'uuid': {
        const value = side === 'legacy' ? field(record[compared.legacy], 'uuid') : record[compared.graphql];
        view[compared.graphql] = textOf(value);
        break;
      }
      case 'uuids':
        view[compared.graphql] = sortedUuids(record[compared[side]]);
        break;
    }
  }
  return view;
}

/**
 * The comparable form of one detail listing: its records keyed by UUID, each with the fields both sides
 * carry. `legacy` is the listing's JSON body, `graphql` the list the unit's or person's field returned.
 *
 * @example
 * detailNormalForm('address', 'legacy', await (await fetch(`/service/ou/${uuid}/details/address`)).json());
 */
export function detailNormalForm(
  type: DetailType,
  side: 'legacy' | 'graphql',
  records: unknown,
): NormalObject {
  return keyedByUuid(list(records).filter(isRecord), (record) => recordView(type, side, record));
}
