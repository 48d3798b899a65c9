import type { GraphQLContext, Source } from '../context.js';
import { withDate } from '../context.js';
import { LegacyResponseError } from '../../legacy/legacy-client.js';
import type { DetailType, LegacyRecord } from '../../legacy/legacy-loaders.js';
import { detailCollectionNames } from '../../legacy/os2mo-type-names.js';

/** Fetches for the root collections, shared by the versions; each version shapes the result its own way. */

export interface CommonFilter {
  uuids?: string[] | null;
  user_keys?: string[] | null;
}

export interface DetailFilter extends CommonFilter {
  org_units?: string[] | null;
  employees?: string[] | null;
}

/** Which detail validities to read: as of `at`, or everything overlapping [at, to]. */
export interface TimeWindow {
  at: string;
  /** Set for a window: records from `at` up to and including `to` (null: open end). */
  until?: string | null;
}

const unique = (values: readonly string[]) => [...new Set(values)];

export function matchesFilter(record: LegacyRecord, filter: CommonFilter | null | undefined): boolean {
  if (filter?.uuids && !filter.uuids.includes(record.uuid)) return false;
  if (filter?.user_keys && !filter.user_keys.includes(String(record.user_key))) return false;
  return true;
}

/**
 * Units by UUID as of `at`, leaving out those that do not exist then. With `viaManagers`, a unit is read
 * from its manager listing's embedded `org_unit` (a listing the query makes anyway), and only units
 * without managers are read on their own.
 */
export async function orgUnitsByUuid(
  context: GraphQLContext,
  uuids: readonly string[],
  at: string,
  options: { viaManagers?: boolean } = {},
): Promise<Source[]> {
  const units = await Promise.all(
    unique(uuids).map(async (uuid) => {
      if (options.viaManagers) {
        const managers = await context.legacy.unitDetails('manager', uuid, { at }).catch((error: unknown) => {
          if (error instanceof LegacyResponseError && error.status === 404) return null;
          throw error;
        });
        if (managers === null) return null;
        const embedded = managers[0]?.org_unit as LegacyRecord | undefined;
        if (embedded?.uuid === uuid) return embedded;
      }
      return context.legacy.orgUnit(uuid, at);
    }),
  );
  return units.flatMap((unit) => (unit ? [withDate(unit, at)] : []));
}

export async function employeesByUuid(
  context: GraphQLContext,
  uuids: readonly string[],
  at: string,
): Promise<Source[]> {
  const employees = await Promise.all(unique(uuids).map((uuid) => context.legacy.employee(uuid, at)));
  return employees.flatMap((employee) => (employee ? [withDate(employee, at)] : []));
}

export async function allOrgUnits(context: GraphQLContext, at: string): Promise<Source[]> {
  const page = await context.legacy.orgUnitPage(at, 0, 0);
  return page.items.map((item) => withDate(item, at));
}

export async function allEmployees(context: GraphQLContext, at: string): Promise<Source[]> {
  const page = await context.legacy.employeePage(at, 0, 0);
  return page.items.map((item) => withDate(item, at));
}

async function detailsOf(
  context: GraphQLContext,
  type: DetailType,
  owner: 'unit' | 'employee',
  uuid: string,
  window: TimeWindow,
): Promise<Source[]> {
  const read = (validity: 'present' | 'future') =>
    owner === 'unit'
      ? context.legacy.unitDetails(type, uuid, { at: window.at, validity })
      : context.legacy.employeeDetails(type, uuid, { at: window.at, validity });
  const batches = await Promise.all(
    window.until === undefined ? [read('present')] : [read('present'), read('future')],
  );
  return batches
    .flat()
    .filter((record) => {
      const validity = record.validity as { from: string } | undefined;
      return (
        window.until === undefined ||
        window.until === null ||
        (validity !== undefined && validity.from <= window.until)
      );
    })
    .map((record) => withDate(record, window.at));
}

/** Each detail collection's root resolver, by field name (`itusers`), made by a version's `details(type)`. */
export function detailCollections<R>(details: (type: DetailType) => R) {
  return Object.fromEntries(
    Object.entries(detailCollectionNames).map(([type, field]) => [field, details(type as DetailType)]),
  ) as Record<(typeof detailCollectionNames)[DetailType], R>;
}

/**
 * Detail types OS2mo records on people only (a leave has no unit): without a unit or employee filter they
 * are found by walking every employee, because every unit's listing of them is empty.
 */
export const walkedByEmployee: ReadonlySet<DetailType> = new Set<DetailType>(['leave']);

/**
 * Detail records of one type: through the units the filter names (narrowed to its employees, if any), else
 * through its employees, else through every unit, or every employee for `walkedByEmployee` types (the legacy
 * API has no listing of details on their own). `walked` overrides that walk with one page of units (or
 * employees). The same version met twice (a relation listed by both its units) is kept once.
 */
export async function detailRecords(
  context: GraphQLContext,
  type: DetailType,
  filter: DetailFilter | null | undefined,
  window: TimeWindow,
  walked?: readonly string[],
): Promise<Source[]> {
  const employees = filter?.employees ?? null;
  const walkEmployees = !filter?.org_units && !employees && walkedByEmployee.has(type);
  const byUnit = walkEmployees
    ? null
    : (walked ??
      filter?.org_units ??
      (employees ? null : (await allOrgUnits(context, window.at)).map((u) => u.uuid)));
  const byEmployee = walkEmployees
    ? (walked ?? (await allEmployees(context, window.at)).map((e) => e.uuid))
    : (employees ?? []);
  const batches = await Promise.all(
    byUnit !== null
      ? unique(byUnit).map((uuid) => detailsOf(context, type, 'unit', uuid, window))
      : unique(byEmployee).map((uuid) => detailsOf(context, type, 'employee', uuid, window)),
  );
  const seen = new Set<string>();
  return batches.flat().filter((record) => {
    const key = `${record.uuid}/${(record.validity as { from: string } | undefined)?.from}`;
    if (seen.has(key) || !matchesFilter(record, filter)) return false;
    seen.add(key);
    const person = (record.person as LegacyRecord | null | undefined)?.uuid;
    return byUnit === null || employees === null || (person !== undefined && employees.includes(person));
  });
}

export async function itSystemRecords(
  context: GraphQLContext,
  filter: CommonFilter | null | undefined,
  at: string,
) {
  return (await context.legacy.itSystems())
    .filter((record) => matchesFilter(record, filter))
    .map((record) => withDate(record, at));
}

export async function facetRecords(
  context: GraphQLContext,
  filter: CommonFilter | null | undefined,
  at: string,
) {
  return (await context.legacy.facets())
    .filter((record) => matchesFilter(record, filter))
    .map((record) => withDate(record, at));
}

export async function classRecords(
  context: GraphQLContext,
  filter: (CommonFilter & { facets?: string[] | null }) | null | undefined,
  at: string,
) {
  const facetKeys = filter?.facets ?? (await context.legacy.facets()).map((facet) => String(facet.user_key));
  const facets = await Promise.all(unique(facetKeys).map((key) => context.legacy.facet(key)));
  return facets
    .flatMap((facet) => facet?.data.items ?? [])
    .filter((record) => matchesFilter(record, filter))
    .map((record) => withDate(record, at));
}

/** Groups records by UUID, in first-seen order, with each group's versions sorted by start date. */
export function groupByUuid(records: Source[]): { uuid: string; objects: Source[] }[] {
  const groups = new Map<string, Source[]>();
  for (const record of records) groups.set(record.uuid, [...(groups.get(record.uuid) ?? []), record]);
  return [...groups].map(([uuid, objects]) => ({
    uuid,
    objects: objects.sort((a, b) =>
      String((a.validity as { from?: string } | undefined)?.from ?? '').localeCompare(
        String((b.validity as { from?: string } | undefined)?.from ?? ''),
      ),
    ),
  }));
}
