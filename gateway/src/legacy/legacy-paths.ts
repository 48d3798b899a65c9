/**
 * Every legacy `/service` path the gateway calls, written once. Each path segment that carries a value is
 * encoded with `encodeURIComponent` (and a segment of only dots is escaped, since `.` and `..` would be
 * resolved away), and every query string is built with `URLSearchParams`: no value from a GraphQL argument
 * or a request body can change which legacy endpoint is called or add a query parameter.
 *
 * @example
 * legacyPaths.unitDetails('manager', uuid, { at: '2024-01-01', inherit_manager: true });
 * // → /service/ou/{uuid}/details/manager?at=2024-01-01&inherit_manager=1
 */

export type DetailType = 'engagement' | 'manager' | 'owner' | 'it';

/** Query parameters: `undefined` and `false` are left out, `true` is sent as `1`. */
export type LegacyQuery = Record<string, string | number | boolean | undefined>;

/** One path segment holding a value. */
export function segment(value: string): string {
  const encoded = encodeURIComponent(value);
  return /^\.+$/.test(encoded) ? encoded.replace(/\./g, '%2E') : encoded;
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

export const legacyPaths = {
  health: () => '/health',
  organisations: () => '/service/o/',
  orgUnit: (uuid: string, query?: LegacyQuery) => `/service/ou/${segment(uuid)}/${queryString(query)}`,
  employee: (uuid: string, query?: LegacyQuery) => `/service/e/${segment(uuid)}/${queryString(query)}`,
  children: (uuid: string, query?: LegacyQuery) =>
    `/service/ou/${segment(uuid)}/children${queryString(query)}`,
  unitDetails: (type: DetailType, uuid: string, query?: LegacyQuery) =>
    `/service/ou/${segment(uuid)}/details/${segment(type)}${queryString(query)}`,
  employeeDetails: (type: DetailType, uuid: string, query?: LegacyQuery) =>
    `/service/e/${segment(uuid)}/details/${segment(type)}${queryString(query)}`,
  classWithFacet: (uuid: string) => `/service/c/${segment(uuid)}/`,
  orgUnitPage: (organisation: string, query?: LegacyQuery) =>
    `/service/o/${segment(organisation)}/ou/${queryString(query)}`,
  employeePage: (organisation: string, query?: LegacyQuery) =>
    `/service/o/${segment(organisation)}/e/${queryString(query)}`,
  itSystems: (organisation: string) => `/service/o/${segment(organisation)}/it/`,
  facets: (organisation: string) => `/service/o/${segment(organisation)}/f/`,
  facet: (organisation: string, key: string) => `/service/o/${segment(organisation)}/f/${segment(key)}/`,

  orgUnitCreate: () => '/service/ou/create',
  employeeCreate: () => '/service/e/create',
  orgUnitTerminate: (uuid: string) => `/service/ou/${segment(uuid)}/terminate`,
  employeeTerminate: (uuid: string) => `/service/e/${segment(uuid)}/terminate`,
  detailsCreate: () => '/service/details/create',
  detailsEdit: () => '/service/details/edit',
  detailsTerminate: () => '/service/details/terminate',
} as const;
