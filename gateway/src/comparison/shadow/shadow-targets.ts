import { detailTypes, legacyPaths, type DetailType } from '../../legacy/legacy-paths.js';
import { detailCollectionForm } from '../detail-comparison.js';
import { detailField, detailNormalForm, detailSelection, type DetailOwner } from '../detail-listings.js';
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
  type NormalValue,
} from '../normal-form.js';
import type { Os2moForm } from '../os2mo-road.js';
import { rootObjects, type GraphQLRequestBody } from '../subjects.js';

/**
 * A `/service` read the shadow comparison understands: the GraphQL query that answers the same data on the
 * newest version, and how both answers are brought into the comparable form.
 */
export interface ShadowTarget {
  /** `unit`, `employee`, or a detail listing named after its GraphQL field: `unit_addresses`, `employee_itusers`, … */
  kind: ShadowTargetKind;
  uuid: string;
  /** The request's `at`, or `undefined` for today. */
  at: string | undefined;
  request: GraphQLRequestBody;
  /** OS2mo's own forms of the read, where the v2 query does not translate to v30 (a person's owners). */
  forms?: readonly Os2moForm[];
  fromLegacy(body: unknown): NormalValue;
  fromGraphQL(data: unknown): NormalValue;
}

export type ShadowTargetKind = 'unit' | 'employee' | `unit_${string}` | `employee_${string}`;

type FixedKind = 'unit' | 'unit_managers' | 'employee' | 'employee_engagements';

/** A legacy path from `legacyPaths` as a pattern capturing its UUID; a trailing slash it has is optional. */
function pathPattern(path: (uuid: string) => string): RegExp {
  const marker = 'UUID';
  const written = path(marker);
  const slash = written.endsWith('/') ? '/?' : '';
  const [before, after] = written
    .replace(/\/$/, '')
    .split(marker)
    .map((part) => part!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(
    `^${before}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})${after}${slash}$`,
  );
}

const routes: [RegExp, FixedKind][] = [
  [pathPattern((uuid) => legacyPaths.orgUnit(uuid)), 'unit'],
  [pathPattern((uuid) => legacyPaths.unitDetails('manager', uuid)), 'unit_managers'],
  [pathPattern((uuid) => legacyPaths.employee(uuid)), 'employee'],
  [pathPattern((uuid) => legacyPaths.employeeDetails('engagement', uuid)), 'employee_engagements'],
];

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

const unitView = (unit: unknown): NormalValue =>
  isRecord(unit)
    ? {
        uuid: textOf(unit['uuid']),
        name: textOf(unit['name']),
        user_key: textOf(unit['user_key']),
        validity: validity(unit['validity']),
        org_unit_type: classRef(unit['org_unit_type']),
        org_unit_level: classRef(unit['org_unit_level']),
        parent: entityRef(single(unit['parent'])),
      }
    : null;

const employeeView = (employee: unknown): NormalValue =>
  isRecord(employee)
    ? {
        uuid: textOf(employee['uuid']),
        name: textOf(employee['name']),
        givenname: textOf(employee['givenname']),
        surname: textOf(employee['surname']),
        user_key: textOf(employee['user_key']),
      }
    : null;

/** Manager records: the legacy listing's `person` is GraphQL's `employee`. */
const managersView = (managers: unknown, person: 'person' | 'employee'): NormalValue => ({
  managers: keyedByUuid(managers, (manager) => ({
    user_key: textOf(manager['user_key']),
    validity: validity(manager['validity']),
    manager_type: classRef(manager['manager_type']),
    manager_level: classRef(manager['manager_level']),
    responsibility: sortedUserKeys(manager['responsibility']),
    employee: entityRef(single(manager[person])),
    org_unit: entityRef(manager['org_unit']),
  })),
});

const engagementsView = (engagements: unknown, person: 'person' | 'employee'): NormalValue => ({
  engagements: keyedByUuid(engagements, (engagement) => ({
    user_key: textOf(engagement['user_key']),
    validity: validity(engagement['validity']),
    job_function: classRef(engagement['job_function']),
    engagement_type: classRef(engagement['engagement_type']),
    employee: entityRef(single(engagement[person])),
    org_unit: entityRef(engagement['org_unit']),
  })),
});

const unitFields = `uuid name user_key validity { from to } org_unit_type { user_key } org_unit_level { user_key } parent { uuid name }`;
// OS2mo's person record carries no validity, so neither side is compared on it.
const employeeFields = `uuid name givenname surname user_key`;
const managerFields = `uuid user_key validity { from to } manager_type { user_key } manager_level { user_key } responsibility { user_key } employee { uuid name } org_unit { uuid name }`;
const engagementFields = `uuid user_key validity { from to } job_function { user_key } engagement_type { user_key } employee { uuid name } org_unit { uuid name }`;

const queries: Record<FixedKind, [operation: string, root: 'org_units' | 'employees', fields: string]> = {
  unit: ['ShadowUnit', 'org_units', unitFields],
  unit_managers: ['ShadowUnitManagers', 'org_units', `managers { ${managerFields} }`],
  employee: ['ShadowEmployee', 'employees', employeeFields],
  employee_engagements: ['ShadowEmployeeEngagements', 'employees', `engagements { ${engagementFields} }`],
};

/** Every other detail listing: `/service/{ou|e}/{uuid}/details/{type}`. */
const detailListing =
  /^\/service\/(ou|e)\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/details\/([a-z_]+)$/;

/** The single object a v2 page holds for the target's UUID, or `null`. */
const onlyObject = (data: unknown, root: 'org_units' | 'employees') =>
  rootObjects('v2', field(data, root))[0] ?? null;

/**
 * The shadow target of a `GET` on the passthrough, or `null` when the shadow comparison does not cover it:
 * other paths, and query parameters other than `at=YYYY-MM-DD` and `validity=present` (the default).
 *
 * @example
 * shadowTarget('/service/ou/f41291dc-2a78-5663-957a-efb8d5ed9a0e/details/manager', new URLSearchParams());
 */
export function shadowTarget(pathname: string, search: URLSearchParams): ShadowTarget | null {
  let at: string | undefined;
  for (const [name, value] of search) {
    if (name === 'at' && isoDate.test(value) && at === undefined) at = value;
    else if (!(name === 'validity' && value === 'present')) return null;
  }
  for (const [pattern, kind] of routes) {
    const match = pattern.exec(pathname);
    if (!match?.[1]) continue;
    const [operation, root, fields] = queries[kind];
    const request: GraphQLRequestBody = {
      operationName: operation,
      query: `query ${operation}($uuid: UUID!, $at: Date) { ${root}(filter: { uuids: [$uuid], at: $at }, limit: 1) { objects { ${fields} } } }`,
      variables: { uuid: match[1], ...(at === undefined ? {} : { at }) },
    };
    const target = { kind, uuid: match[1], at, request };
    switch (kind) {
      case 'unit':
        return { ...target, fromLegacy: unitView, fromGraphQL: (data) => unitView(onlyObject(data, root)) };
      case 'employee':
        return {
          ...target,
          fromLegacy: employeeView,
          fromGraphQL: (data) => employeeView(onlyObject(data, root)),
        };
      case 'unit_managers':
        return {
          ...target,
          fromLegacy: (body) => managersView(list(body), 'person'),
          fromGraphQL: (data) => managersView(field(onlyObject(data, root), 'managers'), 'employee'),
        };
      case 'employee_engagements':
        return {
          ...target,
          fromLegacy: (body) => engagementsView(list(body), 'person'),
          fromGraphQL: (data) => engagementsView(field(onlyObject(data, root), 'engagements'), 'employee'),
        };
    }
  }
  const detail = detailListing.exec(pathname);
  const type = detail?.[3] as DetailType | undefined;
  if (detail && type !== undefined && (detailTypes as readonly string[]).includes(type)) {
    return detailTarget(detail[1] === 'ou' ? 'org_units' : 'employees', detail[2]!, type, at);
  }
  return null;
}

/** A detail listing compared record by record with the GraphQL field serving it, as the CLI compares it. */
function detailTarget(
  owner: DetailOwner,
  uuid: string,
  type: DetailType,
  at: string | undefined,
): ShadowTarget {
  const fieldName = detailField(owner, type);
  const operation = `Shadow${owner === 'org_units' ? 'Unit' : 'Employee'}Details`;
  return {
    kind: `${owner === 'org_units' ? 'unit' : 'employee'}_${fieldName}`,
    uuid,
    at,
    request: {
      operationName: operation,
      query: `query ${operation}($uuid: UUID!, $at: Date) { ${owner}(filter: { uuids: [$uuid], at: $at }, limit: 1) { objects { ${detailSelection(owner, type)} } } }`,
      variables: { uuid, ...(at === undefined ? {} : { at }) },
    },
    // The record collection's form reads today's records, as the listing without `at` does.
    ...(at === undefined ? { forms: [detailCollectionForm(owner, type, [uuid])] } : {}),
    fromLegacy: (body) => ({ [fieldName]: detailNormalForm(type, 'legacy', body) }),
    fromGraphQL: (data) => ({
      [fieldName]: detailNormalForm(type, 'graphql', field(onlyObject(data, owner), fieldName)),
    }),
  };
}
