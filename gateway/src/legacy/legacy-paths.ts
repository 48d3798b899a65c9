import type { OrganisationSummaryRecord } from './contract-records.generated.js';
import { LegacyResponseError } from './legacy-errors.js';

/**
 * Every legacy `/service` (and `/api/v1`) path the gateway calls, written once. Each path segment that carries a value is
 * encoded with `encodeURIComponent` (and a value that no encoding keeps in its segment is refused), and
 * every query string is built with `URLSearchParams`: no value from a GraphQL argument
 * or a request body can change which legacy endpoint is called or add a query parameter.
 *
 * @example
 * legacyPaths.unitDetails('manager', uuid, { at: '2024-01-01', inherit_manager: true });
 * // → /service/ou/{uuid}/details/manager?at=2024-01-01&inherit_manager=1
 */

/** The detail listings (`/details/{type}`) of a unit or a person that the gateway reads. */
export const detailTypes = [
  'engagement',
  'manager',
  'owner',
  'it',
  'address',
  'association',
  'role',
  'leave',
  'kle',
  'related_unit',
  'engagement_association',
] as const;

export type DetailType = (typeof detailTypes)[number];

/**
 * The counts `/service/o/{org}/` answers: `Organisation` serves each as a field, and the coverage report
 * compares each, from this one list.
 */
export const organisationCountFields = [
  'child_count',
  'unit_count',
  'person_count',
  'engagement_count',
  'association_count',
  'leave_count',
  'role_count',
  'manager_count',
] as const satisfies readonly (keyof OrganisationSummaryRecord)[];

/**
 * What OS2mo 2.4.0's reading API (`/api/v1`, `backend/mora/api/v1/reading_endpoints.py`) reads: every detail
 * type, and units and people.
 */
export const readingApiTypes = [...detailTypes, 'employee', 'org_unit'] as const;

export type ReadingApiType = (typeof readingApiTypes)[number];

/** Query parameters: `undefined` and `false` are left out, `true` is sent as `1`. */
export type LegacyQuery = Record<string, string | number | boolean | undefined>;

/**
 * A value that cannot be a path segment: empty (servers and proxies merge `//`) or `.`/`..` (URL parsers
 * resolve them, encoded as `%2E` or not). No record has such a key, so it is answered as the legacy
 * service answers an unknown one: 404, without a call.
 */
export class UnaddressableValueError extends LegacyResponseError {
  constructor() {
    super(404, {
      error: true,
      status: 404,
      error_key: 'E_NOT_FOUND',
      description: 'No record has that key: an empty key, "." and ".." name nothing.',
    });
    this.name = 'UnaddressableValueError';
  }
}

/** One path segment holding a value. */
export function segment(value: string): string {
  if (value === '' || /^(\.|%2e){1,2}$/i.test(value)) throw new UnaddressableValueError();
  return encodeURIComponent(value);
}

/** `?a=1&b=2`, or nothing when no parameter is set. */
export function queryString(params: LegacyQuery = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== false) search.set(key, value === true ? '1' : String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** A query string with one parameter repeated for each value (`?uuid=a&uuid=b`), then the others. */
function repeated(name: string, values: string[], params: LegacyQuery = {}): string {
  const search = new URLSearchParams();
  for (const value of values) search.append(name, value);
  const rest = queryString(params).slice(1);
  const text = [search.toString(), rest].filter(Boolean).join('&');
  return text ? `?${text}` : '';
}

export const legacyPaths = {
  /** OS2mo 2.x's release (outside `/service`, as 2.x serves it). */
  version: () => '/version/',
  organisations: () => '/service/o/',
  orgUnit: (uuid: string, query?: LegacyQuery) => `/service/ou/${segment(uuid)}/${queryString(query)}`,
  employee: (uuid: string, query?: LegacyQuery) => `/service/e/${segment(uuid)}/${queryString(query)}`,
  children: (uuid: string, query?: LegacyQuery) =>
    `/service/ou/${segment(uuid)}/children${queryString(query)}`,
  unitDetails: (type: DetailType, uuid: string, query?: LegacyQuery) =>
    `/service/ou/${segment(uuid)}/details/${segment(type)}${queryString(query)}`,
  employeeDetails: (type: DetailType, uuid: string, query?: LegacyQuery) =>
    `/service/e/${segment(uuid)}/details/${segment(type)}${queryString(query)}`,
  // OS2mo adds the class's facet only when asked (`facet=1`).
  employeeVersions: (uuid: string, query?: LegacyQuery) =>
    `/service/e/${segment(uuid)}/details/employee${queryString(query)}`,
  classWithFacet: (uuid: string) => `/service/c/${segment(uuid)}/${queryString({ facet: true })}`,
  orgUnitVersions: (uuid: string, query?: LegacyQuery) =>
    `/service/ou/${segment(uuid)}/details/org_unit${queryString(query)}`,
  /** The classes whose parent is this class, each with its child count. */
  classChildren: (uuid: string) => `/service/c/${segment(uuid)}/children`,
  /** A facet's classes without a parent class (the facet by UUID or user key), each with its child count. */
  facetChildren: (facet: string) => `/service/f/${segment(facet)}/children`,
  /** The export folder's file names, and one file (OS2mo 2.4.0 `service/exports.py`). */
  exports: () => '/service/exports/',
  exportFile: (name: string) => `/service/exports/${segment(name)}`,
  /** Creates a class in the facet, or writes one anew (OS2mo 2.4.0 `service/facet.py:800`). */
  classWrite: (facet: string) => `/service/f/${segment(facet)}/`,
  /** The tree from the top down to each unit named (`uuid` repeated). */
  orgUnitTree: (organisation: string, uuids: string[], query?: LegacyQuery) =>
    `/service/o/${segment(organisation)}/ou/tree${repeated('uuid', uuids, query)}`,
  /** Each named unit's ancestors, with every ancestor's children. */
  orgUnitAncestorTree: (uuids: string[], query?: LegacyQuery) =>
    `/service/ou/ancestor-tree${repeated('uuid', uuids, query)}`,
  orgUnitPage: (organisation: string, query?: LegacyQuery) =>
    `/service/o/${segment(organisation)}/ou/${queryString(query)}`,
  employeePage: (organisation: string, query?: LegacyQuery) =>
    `/service/o/${segment(organisation)}/e/${queryString(query)}`,
  itSystems: (organisation: string) => `/service/o/${segment(organisation)}/it/`,
  facets: (organisation: string) => `/service/o/${segment(organisation)}/f/`,
  facet: (organisation: string, key: string) => `/service/o/${segment(organisation)}/f/${segment(key)}/`,
  /** The organisation with its counts (units, people, engagements, …) as of `at`. */
  organisation: (organisation: string, query?: LegacyQuery) =>
    `/service/o/${segment(organisation)}/${queryString(query)}`,
  /** The units without a parent on `at`. */
  rootOrgUnits: (organisation: string, query?: LegacyQuery) =>
    `/service/o/${segment(organisation)}/children${queryString(query)}`,
  /** For each detail type, whether the unit or the person has records of it. */
  unitDetailTypes: (uuid: string) => `/service/ou/${segment(uuid)}/details/`,
  employeeDetailTypes: (uuid: string) => `/service/e/${segment(uuid)}/details/`,
  /** Free-text search: every word of `query` must match. */
  orgUnitAutocomplete: (query: LegacyQuery) => `/service/ou/autocomplete/${queryString(query)}`,
  employeeAutocomplete: (query: LegacyQuery) => `/service/e/autocomplete/${queryString(query)}`,
  cprLookup: (cpr: string) => `/service/e/cpr_lookup/${queryString({ q: cpr })}`,

  /**
   * Every record of a type in the validity asked for (2.4.0's reading API); `changed_since` (an ISO date or
   * date-time) keeps the objects written after it.
   */
  readingList: (type: ReadingApiType, query?: LegacyQuery) => `/api/v1/${segment(type)}${queryString(query)}`,
  /**
   * The records of the UUIDs given (`uuid` repeated), of one type (2.4.0's reading API). The detail types take
   * `at`, `validity` and `only_primary_uuid`; `employee` and `org_unit` also `changed_since`.
   */
  readingByUuid: (type: ReadingApiType, uuids: readonly string[], query?: LegacyQuery) =>
    `/api/v1/${segment(type)}/by_uuid${repeated('uuid', [...uuids], query)}`,

  orgUnitCreate: () => '/service/ou/create',
  employeeCreate: () => '/service/e/create',
  /** Relates a unit to exactly the units a body lists (OS2mo's related units). */
  orgUnitMap: (uuid: string) => `/service/ou/${segment(uuid)}/map`,
  orgUnitTerminate: (uuid: string) => `/service/ou/${segment(uuid)}/terminate`,
  employeeTerminate: (uuid: string) => `/service/e/${segment(uuid)}/terminate`,
  detailsCreate: () => '/service/details/create',
  detailsEdit: () => '/service/details/edit',
  detailsTerminate: () => '/service/details/terminate',
} as const;
