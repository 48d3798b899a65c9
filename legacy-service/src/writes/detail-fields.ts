import { invalid } from '../errors.js';
import type { BodyReader } from '../input.js';
import {
  addressTypeFacets,
  classFacets,
  extensionFields,
  ownerInferencePriorities,
  type DetailType,
  type Temporal,
  type Validity,
} from '../model.js';
import type { OrgData } from '../org-data.js';
import { coversInterval } from '../time.js';
import { requireClass, requireEmployeeDuring, requireItSystem, requireUnitDuring } from './checks.js';

/**
 * What each detail type's records hold, field by field, as OS2mo's request handlers read them from
 * `details/create` and `details/edit` bodies. One table drives reading, defaults and reference checks.
 */
type FieldKind =
  /** `{uuid}` of a person. */
  | 'person'
  /** `{uuid}` of an org unit. */
  | 'unit'
  /** `{uuid}` of a class; `facet` names the facet it must belong to (or any of `facets`). */
  | 'class'
  /** A list of `{uuid}` classes. */
  | 'classes'
  /** A list of `{uuid}` org units. */
  | 'units'
  | 'engagement'
  | 'itsystem'
  | 'text'
  | 'number'
  | 'priority';

export interface FieldSpec {
  kind: FieldKind;
  required?: boolean;
  facets?: readonly string[];
}

const any: readonly string[] = [];

export const detailFields: Record<DetailType, Record<string, FieldSpec>> = {
  address: {
    address_type: { kind: 'class', required: true, facets: Object.values(addressTypeFacets) },
    value: { kind: 'text', required: true },
    person: { kind: 'person' },
    org_unit: { kind: 'unit' },
    engagement: { kind: 'engagement' },
    visibility: { kind: 'class', facets: [classFacets.visibility] },
  },
  association: {
    person: { kind: 'person' },
    org_unit: { kind: 'unit', required: true },
    association_type: { kind: 'class', required: true, facets: [classFacets.association_type] },
    primary: { kind: 'class', facets: [classFacets.primary] },
    substitute: { kind: 'person' },
    dynamic_classes: { kind: 'classes', facets: any },
  },
  engagement: {
    person: { kind: 'person', required: true },
    org_unit: { kind: 'unit', required: true },
    job_function: { kind: 'class', required: true, facets: [classFacets.job_function] },
    engagement_type: { kind: 'class', required: true, facets: [classFacets.engagement_type] },
    primary: { kind: 'class', facets: [classFacets.primary] },
    fraction: { kind: 'number' },
    ...Object.fromEntries(extensionFields.map((field) => [field, { kind: 'text' } as FieldSpec])),
  },
  engagement_association: {
    engagement: { kind: 'engagement', required: true },
    org_unit: { kind: 'unit', required: true },
    engagement_association_type: {
      kind: 'class',
      required: true,
      facets: [classFacets.engagement_association_type],
    },
  },
  it: {
    itsystem: { kind: 'itsystem', required: true },
    person: { kind: 'person' },
    org_unit: { kind: 'unit' },
  },
  kle: {
    org_unit: { kind: 'unit', required: true },
    kle_number: { kind: 'class', required: true, facets: [classFacets.kle_number] },
    kle_aspect: { kind: 'classes', required: true, facets: [classFacets.kle_aspect] },
  },
  leave: {
    person: { kind: 'person', required: true },
    leave_type: { kind: 'class', required: true, facets: [classFacets.leave_type] },
    engagement: { kind: 'engagement' },
  },
  manager: {
    person: { kind: 'person' },
    org_unit: { kind: 'unit', required: true },
    manager_type: { kind: 'class', required: true, facets: [classFacets.manager_type] },
    manager_level: { kind: 'class', required: true, facets: [classFacets.manager_level] },
    responsibility: { kind: 'classes', facets: [classFacets.responsibility] },
  },
  owner: {
    owner: { kind: 'person' },
    org_unit: { kind: 'unit' },
    person: { kind: 'person' },
    owner_inference_priority: { kind: 'priority' },
  },
  related_unit: {
    org_units: { kind: 'units' },
  },
  role: {
    person: { kind: 'person', required: true },
    org_unit: { kind: 'unit', required: true },
    role_type: { kind: 'class', required: true, facets: [classFacets.role_type] },
  },
};

/** Engagement extension fields are stored together, as OS2mo stores them in one attribute. */
const isExtension = (name: string) => (extensionFields as readonly string[]).includes(name);

function readField(body: BodyReader, name: string, spec: FieldSpec): unknown {
  switch (spec.kind) {
    case 'person':
    case 'unit':
    case 'class':
    case 'engagement':
    case 'itsystem':
      return spec.required ? body.ref(name) : (body.optionalRef(name) ?? null);
    case 'classes':
    case 'units':
      return body.refList(name);
    case 'text':
      return spec.required ? body.string(name) : (body.optionalString(name) ?? null);
    case 'number':
      return body.number(name);
    case 'priority': {
      const value = body.raw(name);
      if (value === undefined || value === null) return null;
      if (!(ownerInferencePriorities as readonly unknown[]).includes(value)) {
        throw invalid.input([
          { key: name, message: `must be one of ${ownerInferencePriorities.join(', ')} or null` },
        ]);
      }
      return value;
    }
  }
}

/** Stored attributes of a new record from a `details/create` item; every required field must be there. */
export function readNewAttributes(type: DetailType, body: BodyReader, uuid: string): Record<string, unknown> {
  // OS2mo names a record without a user key by its own UUID.
  const attributes: Record<string, unknown> = { user_key: body.optionalString('user_key') ?? uuid };
  const extensions: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(detailFields[type])) {
    const value = readField(body, name, spec);
    if (isExtension(name)) extensions[name] = value;
    else attributes[name] = value;
  }
  if (type === 'engagement') attributes.extensions = extensions;
  return attributes;
}

/** The fields of a `details/edit` item's `data` that change; absent fields stay as they are. */
export function readChanges(type: DetailType, data: BodyReader, current: Record<string, unknown>) {
  const changes: Record<string, unknown> = {};
  if (data.raw('user_key') !== undefined) changes.user_key = data.string('user_key');
  for (const [name, spec] of Object.entries(detailFields[type])) {
    if (data.raw(name) === undefined) continue;
    const value = readField(data, name, spec);
    if (isExtension(name)) {
      changes.extensions = {
        ...((changes.extensions ?? current.extensions ?? {}) as object),
        [name]: value,
      };
    } else {
      changes[name] = value;
    }
  }
  return changes;
}

function requireEngagementDuring(data: OrgData, uuid: string, validity: Validity): void {
  const engagement = data.detail('engagement', uuid);
  if (!coversInterval(engagement, validity)) throw invalid.notActive('engagement', uuid, validity.from);
}

/** Every version's references exist, are of the right facet, and are valid throughout that version. */
export function checkDetailReferences(data: OrgData, type: DetailType, entity: Temporal<unknown>): void {
  const specs = detailFields[type];
  for (const version of entity.versions as (Record<string, unknown> & Validity)[]) {
    const validity = { from: version.from, to: version.to };
    for (const [name, spec] of Object.entries(specs)) {
      if (isExtension(name)) continue;
      const value = version[name];
      if (
        value === null ||
        value === undefined ||
        (spec.required && Array.isArray(value) && value.length === 0)
      ) {
        if (spec.required) throw invalid.missing(name, version);
        continue;
      }
      const values = Array.isArray(value) ? (value as string[]) : [value as string];
      for (const uuid of values) {
        switch (spec.kind) {
          case 'person':
            requireEmployeeDuring(data, uuid, validity);
            break;
          case 'unit':
          case 'units':
            requireUnitDuring(data, uuid, validity);
            break;
          case 'engagement':
            requireEngagementDuring(data, uuid, validity);
            break;
          case 'itsystem':
            requireItSystem(data, uuid);
            break;
          case 'class':
          case 'classes':
            requireClass(data, name, uuid, spec.facets ?? any);
            break;
          default:
            break;
        }
      }
    }
  }
}
