import { GraphQLError, Kind, type GraphQLResolveInfo, type ValueNode } from 'graphql';
import type { GraphQLContext, Source } from '../context.js';
import { withDate } from '../context.js';
import { badUserInput } from '../errors.js';
import type { DetailType, LegacyRecord } from '../../legacy/legacy-loaders.js';
import {
  allEmployees,
  allOrgUnits,
  employeesByUuid,
  itSystemRecords,
  matchesFilter,
  orgUnitsByUuid,
  walkedByEmployee,
} from '../resolvers/collections.js';
import { usesDefaultArguments, selectedFields } from '../resolvers/lookahead.js';
import { decodeCursor, encodeCursor } from '../resolvers/pagination.js';
import { prefetchUnitLinks, unitsAnswerableFromManagers } from '../resolvers/prefetch.js';
import { lookUpByUuid } from '../../backend-record/lookup-by-uuid.js';
import { isAbsentPath, readingValidity } from '../../backend-record/backend-reads.js';
import { legacyPaths, type ReadingApiType } from '../../legacy/legacy-paths.js';
import { classesMatching, type ClassFilter, type OwnerReads } from './class-filters.js';
import { detailFilterTests, keepsNoRecord, passing, type DetailFilter } from './detail-filters.js';
import { facetsMatching, type FacetFilter } from './facet-filters.js';
import type { CollectionSource, CollectionView } from './collections-view.js';
import type { Instant } from './date-time.js';
import { managerMatcher } from './manager-filters.js';
import { NOT_SERVED_CODE, notServedMessage } from './omission-errors.js';
import { peopleMatching } from './person-filters.js';
import { dayWindow, overlaps, windowDay, windowReads, type DayWindow } from './time-window.js';
import { hierarchyClasses } from './unit-hierarchy.js';
import { narrowsByTree, unitsMatching, type UnitFilter, type UnitFilterReads } from './unit-filters.js';
import { refuseSubFilterWindows } from './sub-filter-dates.js';

/**
 * The root of an `XResponse`: the object's UUID, and what the listing that found it already knows. A
 * mutation may hand back a root with the UUID alone; every field then loads what it needs.
 */
export interface ResponseRoot {
  uuid: string;
  /** The object as of today, when the listing read it for today (what `current` without `at` answers). */
  __current?: Source;
  /** For a detail record: the unit (or person) whose listing holds it, so it can be read again. */
  __owner?: { unit?: string; employee?: string };
  /**
   * The filter's window the object was listed in: `current` shows only a version that touches it, and
   * `validities` without `start` and `end` lists the versions in it (OS2mo's `test_current.py`,
   * `test_read_current`). Without one (a mutation's root), all time.
   */
  __window?: DayWindow;
  /** Found by UUID (`lookUpByUuid`): its versions are read the same way, in the read already made. */
  __byUuid?: boolean;
}

export interface Filter {
  uuids?: string[] | null;
  user_keys?: string[] | null;
  from_date?: Instant | null;
  to_date?: Instant | null;
  org_unit?: Filter | null;
  org_units?: string[] | null;
  employee?: Filter | null;
  employees?: string[] | null;
  facet?: Filter | null;
  facet_user_keys?: string[] | null;
  query?: string | null;
  cpr_numbers?: string[] | null;
  responsibility?: ClassFilter | null;
  manager_type?: ClassFilter | null;
  exclude?: Filter | null;
}

interface PageArgs {
  filter?: Filter | null;
  limit?: number | null;
  cursor?: string | null;
  /** `managers` only: each unit's managers or, lacking matching ones, its nearest ancestor's. */
  inherit?: boolean;
}

const validityOf = (record: LegacyRecord) =>
  record.validity as { from?: string | null; to?: string | null } | undefined;

/** The date a record's links are read as of: `at`, moved inside the record's validity. */
function dateInside(record: LegacyRecord, at: string): string {
  const validity = validityOf(record);
  if (validity?.from && at < validity.from) return validity.from;
  if (validity?.to && at > validity.to) return validity.to;
  return at;
}

const byStart = (a: LegacyRecord, b: LegacyRecord) =>
  String(validityOf(a)?.from ?? '').localeCompare(String(validityOf(b)?.from ?? ''));

/**
 * One version per validity start: the same version can come from two reads (present and future, or a
 * person's and a unit's listing).
 */
export function distinctVersions<T extends LegacyRecord>(records: readonly T[]): T[] {
  const seen = new Set<string>();
  return records.filter((record) => {
    const key = `${record.uuid}/${validityOf(record)?.from ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Whether a value node was given: a variable the request did not send is absent, not null. */
const sent = (value: ValueNode | undefined, info: GraphQLResolveInfo) =>
  value !== undefined && (value.kind !== Kind.VARIABLE || value.name.value in (info.variableValues ?? {}));

/**
 * Whether the query gave an argument of the current field, or an input field of its `filter` literal. GraphQL
 * treats a variable the request did not send as absent (OS2mo's `UNSET`, which differs from null), though
 * compiled execution hands the resolver `null` for it.
 */
export function given(
  info: GraphQLResolveInfo,
  args: object | null,
  name: string,
  inFilter = false,
): boolean {
  if (!args || !(name in args)) return false;
  const argument = info.fieldNodes[0]?.arguments?.find(
    (node) => node.name.value === (inFilter ? 'filter' : name),
  );
  if (!inFilter) return argument === undefined || sent(argument.value, info);
  if (argument?.value.kind !== Kind.OBJECT) return true;
  return sent(argument.value.fields.find((node) => node.name.value === name)?.value, info);
}

export function windowOf(filter: Filter | null, info: GraphQLResolveInfo, today: string): DayWindow {
  return dayWindow(
    given(info, filter, 'from_date', true) ? filter?.from_date : undefined,
    given(info, filter, 'to_date', true) ? filter?.to_date : undefined,
    today,
    { start: 'filter.from_date', end: 'filter.to_date' },
  );
}

const isToday = (window: DayWindow, today: string) => window.from === today && window.to === today;

/** A detail listing of one unit or person over a window: one Service API read per `validity` scope. */
export async function detailListing(
  context: GraphQLContext,
  type: DetailType,
  owner: { unit?: string; employee?: string },
  window: DayWindow,
  inherit = false,
): Promise<Source[]> {
  const reads = windowReads(window, context.today);
  const batches = await Promise.all(
    reads.scopes.map((validity) =>
      owner.unit !== undefined
        ? context.legacy.unitDetails(type, owner.unit, { at: reads.at, validity, inherit })
        : context.legacy.employeeDetails(type, owner.employee ?? '', { at: reads.at, validity }),
    ),
  );
  return distinctVersions(batches.flat() as LegacyRecord[])
    .filter((record) => overlaps(validityOf(record), window))
    .map((record) => withDate(record, dateInside(record, reads.at)));
}

/** Whether a window is wider than the one day a Service API listing (`?at=`) is read as of. */
const widerThanADay = (window: DayWindow) => window.from === null || window.from !== window.to;

/** A unit or person listing over a window wider than a day, on a backend without the reading API. */
function windowNotServed(): GraphQLError {
  const coordinate = 'filter.to_date';
  return new GraphQLError(
    notServedMessage(
      coordinate,
      'the backend does not answer OS2mo 2.4.0’s reading API (`/api/v1`), so units and people are listed as of one day; leave `to_date` out for `from_date`’s one day, or name the objects by `uuids`',
    ),
    { extensions: { code: NOT_SERVED_CODE, coordinate } },
  );
}

/**
 * Every unit's, person's or detail record's versions touching a window, through OS2mo 2.4.0's reading API
 * (`/api/v1/{type}?validity=FROM/TO`, `backend/mora/api/v1/reading_endpoints.py`@2.4.0): one legacy call where
 * the Service API needs a listing as of each day, or every owner's listing over three scopes. For units and
 * people only over a window wider than a day (their day's listing is what the rest of the gateway reads and
 * caches); with `oneDay`, a day's window too, read as every owner's `details/{type}?at=` is (`validity`
 * left at `present`): a detail type's every record is one call, not one per unit and person, in UUID order
 * as OS2mo lists them (`address_resolver`'s `order_by`, `mora/graphapi/resolvers.py`@HEAD:813). Undefined
 * when the backend has no reading API, and the caller reads as it would without it.
 */
async function readingListing(
  context: GraphQLContext,
  type: ReadingApiType,
  window: DayWindow,
  options: { oneDay?: boolean } = {},
): Promise<Source[] | undefined> {
  const wide = widerThanADay(window);
  if (!wide && !options.oneDay) return undefined;
  const { at } = windowReads(window, context.today);
  let versions: LegacyRecord[];
  try {
    versions = await context.legacy.get<LegacyRecord[]>(
      legacyPaths.readingList(type, wide ? { at, validity: readingValidity(window) } : { at }),
    );
  } catch (error) {
    if (isAbsentPath(error)) return undefined;
    throw error;
  }
  return distinctVersions(versions)
    .filter((record) => overlaps(validityOf(record), window))
    .map((record) => withDate(record, dateInside(record, at)));
}

/**
 * The versions touching a window of the details named by UUID, as `detailListing` hands them on, read by UUID
 * (`lookUpByUuid`: the reading API's `by_uuid`, else the owner the record of the backend names); undefined when
 * neither answers for certain, and the caller walks the listings.
 */
async function detailsByUuid(
  context: GraphQLContext,
  type: DetailType,
  uuids: readonly string[],
  window: DayWindow,
): Promise<Source[] | undefined> {
  if (uuids.length === 0) return [];
  const { at } = windowReads(window, context.today);
  const found = await lookUpByUuid(context.legacy.get, type, uuids, {
    days: window,
    at,
    whereabouts: context.legacy.whereabouts,
  });
  return (
    found &&
    distinctVersions(found).map((record) => ({ ...withDate(record, dateInside(record, at)), __byUuid: true }))
  );
}

/**
 * The detail types a record of which belongs to a unit or to a person (an address, an IT account, an
 * ownership: the contract's records name one or the other), so a listing without either walks both.
 */
const heldByUnitOrPerson: ReadonlySet<DetailType> = new Set<DetailType>(['address', 'it', 'owner']);

/** Where a detail record is listed: its unit's listing, else its person's (for types kept on people only). */
function ownerOf(type: DetailType, record: LegacyRecord): { unit?: string; employee?: string } {
  const person = (record.person as LegacyRecord | null | undefined)?.uuid;
  if (walkedByEmployee.has(type)) return person ? { employee: person } : {};
  // A related-unit record names both its units (a list); either unit's listing holds it.
  const units = record.org_unit as LegacyRecord | LegacyRecord[] | null | undefined;
  const unit = (Array.isArray(units) ? units[0] : units)?.uuid;
  if (unit) return { unit };
  return person && heldByUnitOrPerson.has(type) ? { employee: person } : {};
}

/** Every unit's and (for the types people hold) every person's listing: where an unplaced record may be. */
async function everyOwner(context: GraphQLContext, type: DetailType, at: string) {
  const [units, people] = await Promise.all([
    walkedByEmployee.has(type) ? [] : allOrgUnits(context, at),
    walkedByEmployee.has(type) || heldByUnitOrPerson.has(type) ? allEmployees(context, at) : [],
  ]);
  return [
    ...units.map((unit) => ({ unit: unit.uuid }) as { unit?: string; employee?: string }),
    ...people.map((person) => ({ employee: person.uuid })),
  ];
}

/**
 * The UUIDs a sub-filter (`org_unit: {…}`, `employee: {…}`) and its deprecated list form allow; null: any.
 * Every member of the sub-filter narrows, as OS2mo's predicates do (`resolvers.py`@HEAD: `org_unit` goes
 * through `organisation_unit_predicate`, `employee` through `employee_predicate`): UUIDs, user keys, and a
 * unit's tree, names and search or a person's search and CPR numbers (`unitsMatching`, `peopleMatching`).
 */
async function narrowed(
  context: GraphQLContext,
  kind: 'unit' | 'employee',
  sub: Filter | null | undefined,
  list: string[] | null | undefined,
  at: string,
): Promise<string[] | null> {
  let allowed: string[] | null = list ?? null;
  const narrow = (found: readonly string[]) => {
    allowed = allowed ? allowed.filter((uuid) => found.includes(uuid)) : [...found];
  };
  if (sub == null) return allowed;
  if (sub.uuids) narrow(sub.uuids);
  if (sub.user_keys) {
    const all = kind === 'unit' ? await allOrgUnits(context, at) : await allEmployees(context, at);
    narrow(all.filter((record) => matchesFilter(record, { user_keys: sub.user_keys })).map((r) => r.uuid));
  }
  if (kind === 'unit') {
    // A member the sub-filter holds as null is no filter (the schema's defaults put `engagement: null` and
    // `hierarchy: null` into every unit sub-filter), except `parent`/`parents`, where null is the top level.
    const reads: UnitFilterReads = {
      ...ownerReads(context),
      given: (filter, member) =>
        member in filter && (filter[member] != null || member === 'parent' || member === 'parents'),
    };
    if (narrowsByTree(sub as UnitFilter, reads)) {
      narrow((await unitsMatching(context, sub as UnitFilter, at, reads)).map((unit) => unit.uuid));
    }
  } else {
    const searched = await peopleMatching(context, sub, at, {
      query: sub.query != null,
      cpr_numbers: sub.cpr_numbers !== undefined,
    });
    if (searched) narrow(searched);
  }
  return allowed;
}

/** Detail records of one type matching the filter, through the listings of the units or people it names. */
export async function detailObjects(
  context: GraphQLContext,
  type: DetailType,
  filter: Filter | null | undefined,
  window: DayWindow,
  inherit = false,
): Promise<Source[]> {
  // What no 2.x record can match needs no owner's listing (the IT users of a unit's engagements).
  if (keepsNoRecord(type, (filter ?? {}) as DetailFilter)) return [];
  const at = windowDay(window, context.today);
  const units = await narrowed(context, 'unit', filter?.org_unit, filter?.org_units, at);
  const people = await narrowed(context, 'employee', filter?.employee, filter?.employees, at);
  const managerOnly =
    type === 'manager' ? await managerMatcher(context, filter, at, ownerReads(context)) : () => true;
  const keep = (record: LegacyRecord) => {
    if (!matchesFilter(record, filter) || !managerOnly(record)) return false;
    const person = (record.person as LegacyRecord | null | undefined)?.uuid;
    return people === null || (person !== undefined && people.includes(person));
  };
  if (inherit) {
    const found = await Promise.all(
      (units ?? []).map((unit) => inheritedManagers(context, unit, window, keep)),
    );
    return distinctVersions(found.flat()) as Source[];
  }
  // Named by UUID alone: read by UUID (the reading API, else the owner the record names), not every listing.
  const byUuid =
    units === null && people === null && filter?.uuids
      ? await detailsByUuid(context, type, filter.uuids, window)
      : undefined;
  // Every record: the reading API's one listing, not every unit's and person's (three each over all time).
  const everyRecord =
    byUuid === undefined && units === null && people === null
      ? await readingListing(context, type, window, { oneDay: true })
      : undefined;
  const owners: { unit?: string; employee?: string }[] =
    byUuid !== undefined || everyRecord !== undefined
      ? []
      : units !== null
        ? units.map((unit) => ({ unit }))
        : people !== null
          ? people.map((employee) => ({ employee }))
          : await everyOwner(context, type, at);
  const [listings, tests] = await Promise.all([
    Promise.all([
      ...[...new Map(owners.map((owner) => [JSON.stringify(owner), owner])).values()].map((owner) =>
        detailListing(context, type, owner, window),
      ),
      byUuid ?? everyRecord ?? [],
    ]),
    detailFilterTests(context, type, (filter ?? {}) as DetailFilter, at, {
      ...ownerReads(context),
      engagementUuids: async (engagement, day) =>
        (await detailObjects(context, 'engagement', engagement as Filter, { from: day, to: day })).map(
          (record) => record.uuid,
        ),
    }),
  ]);
  const matching = distinctVersions(listings.flat()).filter((record) => {
    if (!matchesFilter(record, filter) || !managerOnly(record)) return false;
    const person = (record.person as LegacyRecord | null | undefined)?.uuid;
    return units === null || people === null || (person !== undefined && people.includes(person));
  });
  return passing(matching, tests);
}

const unitsOf = (record: LegacyRecord): string[] => {
  const units = record.org_unit as LegacyRecord | LegacyRecord[] | null | undefined;
  return (Array.isArray(units) ? units : units ? [units] : []).map((unit) => unit.uuid);
};

/**
 * The test a detail filter puts on one record as of `at`, built from the same parts `detailObjects` lists
 * with: the unit and person it must name, the manager members, and the detail filter's link members. A
 * link's records are already read, so the test takes the place of the listings the filter would pick.
 */
export async function detailTest(
  context: GraphQLContext,
  type: DetailType,
  asked: object | null | undefined,
  at: string,
): Promise<(record: LegacyRecord) => boolean> {
  const filter = asked as Filter | null | undefined;
  const [units, people, managerOnly, tests] = await Promise.all([
    narrowed(context, 'unit', filter?.org_unit, filter?.org_units, at),
    narrowed(context, 'employee', filter?.employee, filter?.employees, at),
    type === 'manager' ? managerMatcher(context, filter, at, ownerReads(context)) : () => true,
    detailFilterTests(context, type, (filter ?? {}) as DetailFilter, at, {
      ...ownerReads(context),
      engagementUuids: async (engagement, day) =>
        (await detailObjects(context, 'engagement', engagement as Filter, { from: day, to: day })).map(
          (record) => record.uuid,
        ),
    }),
  ]);
  return (record) => {
    if (!matchesFilter(record, filter) || !managerOnly(record)) return false;
    if (units !== null && !unitsOf(record).some((unit) => units.includes(unit))) return false;
    const person = (record.person as LegacyRecord | null | undefined)?.uuid;
    if (people !== null && (person === undefined || !people.includes(person))) return false;
    return passing([record], tests).length === 1;
  };
}

/**
 * The managers a unit inherits with OS2mo's `inherit`: those of the nearest unit up the tree (itself
 * first) with a manager matching the rest of the filter (`_manager_inherit_org_unit_predicate`, OS2mo's
 * `mora/graphapi/resolvers.py` at HEAD). The Service API's `inherit_manager=1` finds the nearest unit with
 * any manager; when none of those match, the walk goes on from that unit's parent.
 */
async function inheritedManagers(
  context: GraphQLContext,
  unit: string,
  window: DayWindow,
  keep: (record: LegacyRecord) => boolean,
): Promise<Source[]> {
  const seen = new Set<string>();
  for (let start: string | null = unit; start !== null && !seen.has(start);) {
    seen.add(start);
    const listing = await detailListing(context, 'manager', { unit: start }, window, true);
    const holder = (listing[0]?.org_unit as LegacyRecord | undefined)?.uuid;
    if (holder === undefined) return [];
    const matching = listing.filter(keep);
    if (matching.length > 0) return matching;
    seen.add(holder);
    const held = await context.legacy.orgUnit(holder, windowDay(window, context.today));
    start = (held?.parent as LegacyRecord | null | undefined)?.uuid ?? null;
  }
  return [];
}

/** The named units or people with a version touching a window wider than a day: their versions' reads. */
async function inWindow(
  context: GraphQLContext,
  source: CollectionSource,
  uuids: readonly string[],
  window: DayWindow,
): Promise<Source[]> {
  const reads = objectReads(source);
  const found = await Promise.all(uuids.map((uuid) => reads.versions(context, { uuid }, window)));
  return found.flatMap((versions) => versions.slice(0, 1));
}

/** Groups versions by UUID, in first-seen order, into response roots. */
export function responses(
  records: Source[],
  source: CollectionSource,
  window: DayWindow,
  today: string,
): ResponseRoot[] {
  // A listing read for today is what `current` without `at` shows.
  const current = isToday(window, today);
  const roots = new Map<string, ResponseRoot>();
  for (const record of records) {
    if (roots.has(record.uuid)) continue;
    roots.set(record.uuid, {
      uuid: record.uuid,
      __window: window,
      ...(current ? { __current: record } : {}),
      ...(source.kind === 'detail' ? { __owner: ownerOf(source.type, record) } : {}),
      ...(record.__byUuid === true ? { __byUuid: true } : {}),
    });
  }
  return [...roots.values()];
}

/** OS2mo's `limit`: absent or null for every object, else at most that many. */
export function pageOf<T>(items: readonly T[], offset: number, limit: number | null | undefined) {
  const end = limit == null ? items.length : offset + limit;
  return {
    objects: items.slice(offset, end),
    page_info: { next_cursor: end < items.length ? encodeCursor(end) : null },
  };
}

/** How a version's collections differ in behaviour from v30's. */
export interface CollectionOptions {
  /** Before OS2mo v25, a manager filter's `employee: null` was the same as leaving it out. */
  nullEmployeeIsAbsent?: boolean;
}

/** The root field of one collection. */
export function collectionResolver(view: CollectionView, options: CollectionOptions = {}) {
  const source = view.source;
  return async (_root: unknown, args: PageArgs, context: GraphQLContext, info: GraphQLResolveInfo) => {
    let filter = args.filter ?? null;
    // OS2mo v25 on: a manager filter's `employee: null` asks for vacant positions (absent: no filter).
    const vacantOnly =
      source.kind === 'detail' &&
      source.type === 'manager' &&
      !options.nullEmployeeIsAbsent &&
      given(info, filter, 'employee', true) &&
      filter?.employee === null;
    const window = windowOf(filter, info, context.today);
    const at = windowDay(window, context.today);
    refuseSubFilterWindows(info, filter, { day: at, today: context.today });
    const offset = decodeCursor(args.cursor);
    const currentPlain =
      isToday(window, context.today) && usesDefaultArguments(selectedFields(info, ['objects', 'current']));
    if (source.kind === 'unit' || source.kind === 'employee') {
      const unit = source.kind === 'unit';
      const selected = filter && (await selectedUuids(context, source.kind, filter, info, at));
      if (filter && selected) {
        const asked = filter.uuids;
        filter = { ...filter, uuids: asked ? selected.filter((uuid) => asked.includes(uuid)) : selected };
      }
      if (filter?.uuids) {
        const uuids = [...new Set(filter.uuids)];
        if (unit && currentPlain) prefetchUnitLinks(info, context, uuids, at, ['objects', 'current']);
        const found =
          window.from === null || window.from !== window.to
            ? await inWindow(context, source, uuids, window)
            : unit
              ? await orgUnitsByUuid(context, uuids, at, {
                  viaManagers: currentPlain && unitsAnswerableFromManagers(info, ['objects', 'current']),
                })
              : await employeesByUuid(context, uuids, at);
        return pageOf(
          responses(
            found.filter((r) => matchesFilter(r, filter)),
            source,
            window,
            context.today,
          ),
          offset,
          args.limit,
        );
      }
      // Over a window wider than a day, the objects with a version in it (OS2mo lists each object whose
      // validity touches the window), not the listing as of its first day.
      const inTheWindow = await readingListing(context, unit ? 'org_unit' : 'employee', window);
      if (inTheWindow !== undefined) {
        const matching = inTheWindow.filter((record) => matchesFilter(record, filter));
        return pageOf(responses(matching, source, window, context.today), offset, args.limit);
      }
      // A listing as of one day would leave out what the rest of the window holds: refused, never ignored.
      if (widerThanADay(window)) throw windowNotServed();
      if (!filter?.user_keys && args.limit != null) {
        const legacyPage = unit
          ? await context.legacy.orgUnitPage(at, offset, args.limit)
          : await context.legacy.employeePage(at, offset, args.limit);
        const objects = legacyPage.items.map((item) => withDate(item, at));
        if (unit && currentPlain) {
          prefetchUnitLinks(
            info,
            context,
            objects.map((o) => o.uuid),
            at,
            ['objects', 'current'],
          );
        }
        const end = offset + args.limit;
        return {
          objects: args.limit === 0 ? [] : responses(objects, source, window, context.today),
          page_info: { next_cursor: args.limit > 0 && end < legacyPage.total ? encodeCursor(end) : null },
        };
      }
      const all = unit ? await allOrgUnits(context, at) : await allEmployees(context, at);
      const matching = all.filter((record) => matchesFilter(record, filter));
      const slice = pageOf(matching, offset, args.limit);
      if (unit && currentPlain) {
        prefetchUnitLinks(
          info,
          context,
          slice.objects.map((o) => o.uuid),
          at,
          ['objects', 'current'],
        );
      }
      return { objects: responses(slice.objects, source, window, context.today), page_info: slice.page_info };
    }
    let records: Source[];
    if (source.kind === 'detail') {
      // OS2mo refuses `inherit` without a unit to start from (tests/graphapi/test_managers.py at HEAD).
      if (args.inherit && filter?.org_unit == null && filter?.org_units == null) {
        throw badUserInput('`inherit` needs a unit to start from: give the filter `org_unit`.');
      }
      records = await detailObjects(context, source.type, filter, window, args.inherit === true);
      if (vacantOnly) records = records.filter((record) => !(record.person as LegacyRecord | null)?.uuid);
    } else if (source.kind === 'class') {
      records = await classesMatching(context, (filter ?? {}) as ClassFilter, at, ownerReads(context));
    } else if (source.kind === 'facet') records = await facetsMatching(context, filter as FacetFilter, at);
    else if (source.kind === 'itsystem') records = await itSystemRecords(context, filter, at);
    // OS2mo's answer for a backend that never held such an object, whatever the filter says.
    else records = [];
    return pageOf(responses(records, source, window, context.today), offset, args.limit);
  };
}

/**
 * How a unit filter nested anywhere (a class's owner) reads its `engagement` member (the engagements' units)
 * and its `hierarchy` member (the classes of the facet `org_unit_hierarchy` the class filter keeps).
 */
export function ownerReads(context: GraphQLContext): OwnerReads {
  return {
    engagementUnits: async (engagement, at) => {
      const records = await detailObjects(context, 'engagement', engagement as Filter, { from: at, to: at });
      return records.flatMap((record) => {
        const unit = (record.org_unit as LegacyRecord | null | undefined)?.uuid;
        return unit ? [unit] : [];
      });
    },
    hierarchyClasses: async (filter, at) => {
      const [kept, hierarchies] = await Promise.all([
        classesMatching(context, filter as ClassFilter, at, ownerReads(context)),
        hierarchyClasses(context),
      ]);
      const keptUuids = new Set(kept.map((record) => record.uuid));
      return hierarchies.flatMap((record) => (keptUuids.has(record.uuid) ? [record.uuid] : []));
    },
  };
}

/** How the unit filters read their members at the top level, and the units of matching engagements. */
export function unitFilterReads(info: GraphQLResolveInfo, context: GraphQLContext): UnitFilterReads {
  return { ...ownerReads(context), given: (filter, member) => given(info, filter, member, true) };
}

/**
 * The UUIDs a unit or person filter's own narrowing members select (tree, names and search for units;
 * search and CPR numbers for people), within its `uuids`; null when it gives none of them.
 */
async function selectedUuids(
  context: GraphQLContext,
  kind: 'unit' | 'employee',
  filter: Filter,
  info: GraphQLResolveInfo,
  at: string,
): Promise<string[] | null> {
  if (kind === 'unit') {
    const reads = unitFilterReads(info, context);
    if (!narrowsByTree(filter as UnitFilter, reads)) return null;
    return (await unitsMatching(context, filter as UnitFilter, at, reads)).map((unit) => unit.uuid);
  }
  return peopleMatching(context, filter, at, {
    query: given(info, filter, 'query', true),
    cpr_numbers: given(info, filter, 'cpr_numbers', true),
  });
}

/** Reads one object as of a day, and its versions over a window, for each kind of collection. */
interface ObjectReads {
  at(context: GraphQLContext, root: ResponseRoot, day: string): Promise<Source | null>;
  versions(context: GraphQLContext, root: ResponseRoot, window: DayWindow): Promise<Source[]>;
}

const entityReads = (
  one: (context: GraphQLContext, uuid: string, day: string) => Promise<LegacyRecord | null>,
  versions: (
    context: GraphQLContext,
    uuid: string,
    at: string,
    scope: 'past' | 'present' | 'future',
  ) => Promise<LegacyRecord[]>,
): ObjectReads => ({
  at: async (context, root, day) => {
    const record = await one(context, root.uuid, day);
    return record ? withDate(record, day) : null;
  },
  versions: async (context, root, window) => {
    const reads = windowReads(window, context.today);
    const batches = await Promise.all(
      reads.scopes.map((scope) => versions(context, root.uuid, reads.at, scope)),
    );
    return distinctVersions(batches.flat())
      .filter((record) => overlaps(validityOf(record), window))
      .sort(byStart)
      .map((record) => withDate(record, dateInside(record, reads.at)));
  },
});

/** A record without validities of its own (a class, a facet, an IT system): the same at every time. */
const timelessReads = (
  find: (context: GraphQLContext, uuid: string) => Promise<LegacyRecord | null | undefined>,
): ObjectReads => {
  const at = async (context: GraphQLContext, root: ResponseRoot, day: string) => {
    const record = root.__current ?? (await find(context, root.uuid));
    return record ? withDate(record, day) : null;
  };
  return {
    at,
    versions: async (context, root, window) => {
      const record = await at(context, root, windowDay(window, context.today));
      return record ? [record] : [];
    },
  };
};

/** Where a detail record is listed; without a hint, every unit's (or person's) listing is searched. */
async function ownersOf(context: GraphQLContext, type: DetailType, root: ResponseRoot, day: string) {
  if (root.__owner?.unit || root.__owner?.employee) return [root.__owner];
  return everyOwner(context, type, day);
}

const detailReads = (type: DetailType): ObjectReads => {
  const versions = async (context: GraphQLContext, root: ResponseRoot, window: DayWindow) => {
    // Found by UUID, or placed nowhere (a mutation's root): by UUID again, the same read, so no second call.
    const placed = root.__owner?.unit !== undefined || root.__owner?.employee !== undefined;
    if (root.__byUuid === true || !placed) {
      const found = await detailsByUuid(context, type, [root.uuid], window);
      if (found !== undefined) return found.sort(byStart);
    }
    const owners = await ownersOf(context, type, root, windowDay(window, context.today));
    const listings = await Promise.all(owners.map((owner) => detailListing(context, type, owner, window)));
    return distinctVersions(listings.flat().filter((record) => record.uuid === root.uuid))
      .sort(byStart)
      .map((record) => record as Source);
  };
  return {
    at: async (context, root, day) => (await versions(context, root, { from: day, to: day }))[0] ?? null,
    versions,
  };
};

export function objectReads(source: CollectionSource): ObjectReads {
  switch (source.kind) {
    case 'unit':
      return entityReads(
        (context, uuid, day) => context.legacy.orgUnit(uuid, day),
        (context, uuid, at, scope) => context.legacy.orgUnitVersions(uuid, at, scope),
      );
    case 'employee':
      return entityReads(
        (context, uuid, day) => context.legacy.employee(uuid, day),
        (context, uuid, at, scope) => context.legacy.employeeVersions(uuid, at, scope),
      );
    case 'detail':
      return detailReads(source.type);
    case 'class':
      return timelessReads((context, uuid) => context.legacy.classWithFacet(uuid));
    case 'facet':
      return timelessReads(async (context, uuid) =>
        (await context.legacy.facets()).find((facet) => facet.uuid === uuid),
      );
    case 'itsystem':
      return timelessReads(async (context, uuid) =>
        (await context.legacy.itSystems()).find((system) => system.uuid === uuid),
      );
    case 'none':
      return { at: () => Promise.resolve(null), versions: () => Promise.resolve([]) };
  }
}

/** `XResponse`'s fields: `current(at)` and `validities(start, end)` (and the deprecated `objects`). */
export function responseResolvers(source: CollectionSource) {
  const reads = objectReads(source);
  const validities = (
    root: ResponseRoot,
    args: { start?: Instant | null; end?: Instant | null },
    context: GraphQLContext,
    info: GraphQLResolveInfo,
  ) => {
    const start = given(info, args, 'start') ? args.start : undefined;
    const end = given(info, args, 'end') ? args.end : undefined;
    const window =
      start === undefined && end === undefined && root.__window
        ? root.__window
        : dayWindow(start, end, context.today, { start: 'start', end: 'end' });
    return reads.versions(context, root, window);
  };
  return {
    current: async (root: ResponseRoot, args: { at?: Instant | null }, context: GraphQLContext) => {
      if (args.at != null) return reads.at(context, root, args.at.day);
      const record = root.__current ?? (await reads.at(context, root, context.today));
      if (record && root.__window && !overlaps(validityOf(record), root.__window)) return null;
      return record;
    },
    objects: validities,
    validities,
  };
}

/** OS2mo's `int`: a page size, a whole number from 0. */
export function checkLimit(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw badUserInput(`limit must be a whole number from 0; got ${JSON.stringify(value)}.`);
  }
  return value;
}
