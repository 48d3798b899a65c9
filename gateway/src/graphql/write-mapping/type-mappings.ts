import type { DetailType } from '../../legacy/legacy-loaders.js';

/**
 * How one GraphQL input field becomes one Service API body field: a reference (`{uuid}`), a list of
 * references, or a plain value.
 */
export interface FieldMapping {
  legacy: string;
  kind: 'ref' | 'refs' | 'value';
  /** What a create sends when the input leaves the field out; absent: the create leaves it out too. */
  absentOnCreate?: unknown;
}

/** A type's fields, keyed by the newest graph's input name (OS2mo's), each once for every write. */
export type TypeMapping = Readonly<Record<string, FieldMapping>>;

const ref = (legacy: string, absentOnCreate?: null): FieldMapping =>
  absentOnCreate === undefined ? { legacy, kind: 'ref' } : { legacy, kind: 'ref', absentOnCreate };
const refs = (legacy: string, absentOnCreate?: []): FieldMapping =>
  absentOnCreate === undefined ? { legacy, kind: 'refs' } : { legacy, kind: 'refs', absentOnCreate };
const value = (legacy: string): FieldMapping => ({ legacy, kind: 'value' });

/** Every record's key (OS2mo's `user_key`); the Service API defaults it to the name or the UUID. */
const userKey = { user_key: value('user_key') };

/** The Service API's names for OS2mo's ten free-text engagement extensions are the same. */
const engagementExtensions = Object.fromEntries(
  Array.from({ length: 10 }, (_, index) => [`extension_${index + 1}`, value(`extension_${index + 1}`)]),
);

/**
 * Each writable type's mapping, declared once, used by every version's create, update and terminate. The
 * keys are OS2mo's input names; a version that names a field differently (v1/v2's `employee` for OS2mo's
 * `person`) says so in its `InputShape`, not here. Names and kinds follow the Service API's request
 * handlers (OS2mo 2.4.0 `backend/mora/service/*.py`, as `legacy-service/src/writes/detail-fields.ts` reads them).
 */
export const typeMappings = {
  org_unit: {
    ...userKey,
    name: value('name'),
    parent: ref('parent'),
    org_unit_type: ref('org_unit_type'),
    org_unit_level: ref('org_unit_level'),
    time_planning: ref('time_planning'),
    // 2.4.0 stores it on `ou/create` and on a unit edit (`service/orgunit.py`, lines 121 and 255).
    org_unit_hierarchy: ref('org_unit_hierarchy'),
  },
  employee: {
    ...userKey,
    given_name: value('givenname'),
    surname: value('surname'),
    nickname_given_name: value('nickname_givenname'),
    nickname_surname: value('nickname_surname'),
    seniority: value('seniority'),
    cpr_number: value('cpr_no'),
  },
  engagement: {
    ...userKey,
    person: ref('person'),
    org_unit: ref('org_unit'),
    job_function: ref('job_function'),
    engagement_type: ref('engagement_type'),
    primary: ref('primary'),
    fraction: value('fraction'),
    ...engagementExtensions,
  },
  manager: {
    ...userKey,
    // A position without a person is vacant: the create says so explicitly.
    person: ref('person', null),
    org_unit: ref('org_unit'),
    manager_type: ref('manager_type'),
    manager_level: ref('manager_level'),
    responsibility: refs('responsibility', []),
  },
  owner: {
    ...userKey,
    owner: ref('owner'),
    org_unit: ref('org_unit'),
    person: ref('person'),
    inference_priority: value('owner_inference_priority'),
  },
  it: {
    ...userKey,
    itsystem: ref('itsystem'),
    person: ref('person'),
    org_unit: ref('org_unit'),
  },
  address: {
    ...userKey,
    address_type: ref('address_type'),
    value: value('value'),
    value2: value('value2'),
    visibility: ref('visibility'),
    person: ref('person'),
    org_unit: ref('org_unit'),
    engagement: ref('engagement'),
  },
  association: {
    ...userKey,
    person: ref('person', null),
    org_unit: ref('org_unit'),
    association_type: ref('association_type'),
    primary: ref('primary'),
    dynamic_classes: refs('dynamic_classes'),
    substitute: ref('substitute'),
  },
  role: {
    ...userKey,
    person: ref('person'),
    org_unit: ref('org_unit'),
    role_type: ref('role_type'),
  },
  leave: {
    ...userKey,
    person: ref('person'),
    leave_type: ref('leave_type'),
    engagement: ref('engagement'),
  },
  kle: {
    ...userKey,
    org_unit: ref('org_unit'),
    kle_number: ref('kle_number'),
    // OS2mo's graph calls the aspects `kle_aspects`; the Service API's body, `kle_aspect`.
    kle_aspects: refs('kle_aspect'),
  },
  engagement_association: {
    ...userKey,
    engagement: ref('engagement'),
    org_unit: ref('org_unit'),
    engagement_association_type: ref('engagement_association_type'),
  },
} satisfies Record<Exclude<DetailType, 'related_unit'> | 'org_unit' | 'employee', TypeMapping>;

export type MappedType = keyof typeof typeMappings;
