import { refuseSubFilterWindows } from './sub-filter-dates.js';
import { getNamedType, isInputObjectType, type GraphQLResolveInfo } from 'graphql';
import type { GraphQLContext, Source } from '../context.js';
import { badUserInput } from '../errors.js';
import type { DetailType, LegacyRecord } from '../../legacy/legacy-loaders.js';
import { matchesFilter } from '../resolvers/collections.js';
import { decodeCursor } from '../resolvers/pagination.js';
import { classesAmong, classesMatching, namesFacets, type ClassFilter } from './class-filters.js';
import {
  detailListing,
  detailTest,
  given,
  objectReads,
  ownerReads,
  pageOf,
  unitFilterReads,
  windowOf,
} from './collection-resolvers.js';
import { filterMembers, v30Collections, type CollectionSource } from './collections-view.js';
import { asksForParent, type FacetFilter } from './facet-filters.js';
import type { Instant } from './date-time.js';
import { peopleMatching, type PersonFilter } from './person-filters.js';
import { windowDay, type DayWindow } from './time-window.js';
import { narrowsByTree, unitsMatching, type UnitFilter } from './unit-filters.js';

/** A link's filter: OS2mo's collection filter of the link's objects, less the members the link binds. */
export interface LinkFilter {
  uuids?: string[] | null;
  user_keys?: string[] | null;
  from_date?: Instant | null;
  to_date?: Instant | null;
  [member: string]: unknown;
}

/** A bound filter: the collection filter it copies, and the members the link fills in itself. */
interface BoundFilter {
  base: string;
  without: readonly string[];
}

const byPerson = ['employee', 'employees'];
const byUnit = ['org_unit', 'org_units'];

/**
 * OS2mo's bound filters of the links v30 serves (`get_bound_filter` in OS2mo's
 * `mora/graphapi/seed_resolver.py`@HEAD): each is its collection filter with the seeded members (and their
 * deprecated twins) left out, so a link filters exactly as its collection does. Their names are OS2mo's,
 * irregular spelling included.
 */
export const boundFilters: Readonly<Record<string, BoundFilter>> = {
  ...Object.fromEntries(
    ['Address', 'Association', 'Engagement', 'ITUser', 'Leave', 'Manager'].map((type) => [
      `EmployeeBound${type}Filter`,
      { base: `${type}Filter`, without: byPerson },
    ]),
  ),
  ...Object.fromEntries(
    ['Address', 'Association', 'Engagement', 'ITUser', 'KLE', 'Leave', 'Manager', 'Owner', 'RelatedUnit'].map(
      (type) => [`OrgUnitbound${type.toLowerCase()}filter`, { base: `${type}Filter`, without: byUnit }],
    ),
  ),
  ...Object.fromEntries(
    ['Class', 'Employee', 'Engagement', 'Facet', 'ITSystem', 'ITUser', 'Leave', 'OrganisationUnit'].map(
      (type) => [`UuidsBound${type}Filter`, { base: `${type}Filter`, without: ['uuids'] }],
    ),
  ),
  EngagementBoundAddressFilter: { base: 'AddressFilter', without: ['engagement', 'engagements'] },
  EngagementBoundITUserFilter: { base: 'ITUserFilter', without: ['engagement'] },
  ItuserBoundAddressFilter: { base: 'AddressFilter', without: ['ituser'] },
  ItuserBoundRoleBindingFilter: { base: 'RoleBindingFilter', without: ['ituser'] },
  FacetBoundClassFilter: { base: 'ClassFilter', without: ['facet', 'facets', 'facet_user_keys'] },
  ItSystemboundclassfilter: { base: 'ClassFilter', without: ['it_system'] },
  ParentBoundClassFilter: { base: 'ClassFilter', without: ['parent', 'parents', 'parent_user_keys'] },
  ParentBoundFacetFilter: { base: 'FacetFilter', without: ['parent', 'parents', 'parent_user_keys'] },
  ParentBoundOrganisationUnitFilter: { base: 'OrganisationUnitFilter', without: ['parent', 'parents'] },
  DescendantParentBoundOrganisationUnitFilter: {
    base: 'OrganisationUnitFilter',
    without: ['parent', 'subtree', 'descendant'],
  },
};

function boundFilter(name: string): BoundFilter & { collection: (typeof v30Collections)[number] } {
  const bound = boundFilters[name];
  const collection = bound && v30Collections.find((view) => view.filter === bound.base);
  if (!bound || !collection) throw new Error(`${name} is not a bound filter of a collection v30 serves.`);
  return { ...bound, collection };
}

/** Where a link's objects come from: the collection whose filter its bound filter copies. */
export const linkTarget = (input: string): CollectionSource => boundFilter(input).collection.source;

/**
 * A member line less its deprecation when the member it sends a client to is one the link binds: OS2mo
 * prints such a member undeprecated (`DescendantParentBoundOrganisationUnitFilter.parents`), as it has no
 * replacement there.
 */
function withoutBoundTarget(line: string, without: readonly string[]): string {
  const target = /@deprecated\(reason: "Use `(\w+)/.exec(line)?.[1];
  return target !== undefined && without.includes(target) ? line.replace(/ @deprecated\(.*\)$/, '') : line;
}

/** The SDL of bound filter input types: each its collection filter's members less the bound ones. */
export const linkFilterTypeDefs = (names: readonly string[]) =>
  names
    .map((name) => {
      const { without, collection } = boundFilter(name);
      const members = filterMembers(collection)
        .filter((line) => !without.includes(line.trim().split(':')[0] ?? ''))
        .map((line) => withoutBoundTarget(line, without));
      return `
"""Which of the link's objects to give: those matching every field given, valid somewhere in [from_date, to_date)."""
input ${name} {
${members.join('\n')}
}
`;
    })
    .join('');

/** Where a filtered link's objects come from: a unit's or a person's detail listing of one type. */
export interface LinkListing {
  type: DetailType;
  owner: 'unit' | 'employee';
}

type RecordTest = (record: LegacyRecord) => boolean;

const commonMembers = new Set(['uuids', 'user_keys', 'from_date', 'to_date']);

/** Whether a filter gives nothing beyond the members every record answers itself (UUID, user key, window). */
const onlyCommon = (filter: LinkFilter) =>
  Object.entries(filter).every(([member, value]) => commonMembers.has(member) || value == null);

/**
 * Whether the link's manager filter asks for vacant positions with `employee: null`: OS2mo v25 on, whose
 * `employee` has no default; before, it defaults to null, and null is the same as leaving it out.
 */
function nullIsVacant(info: GraphQLResolveInfo): boolean {
  const argument = info.parentType.getFields()[info.fieldName]?.args.find((arg) => arg.name === 'filter');
  const input = argument && getNamedType(argument.type);
  const employee = isInputObjectType(input) ? input.getFields().employee : undefined;
  return employee !== undefined && employee.defaultValue === undefined;
}

/**
 * The test a collection's filter puts on one record as of `at`, made by the collection's own filters
 * (`detailTest`, `unitsMatching`, `peopleMatching`, `classesMatching`): what the collection lists, a link
 * keeps.
 */
async function collectionTest(
  context: GraphQLContext,
  target: CollectionSource,
  filter: LinkFilter,
  at: string,
  info: GraphQLResolveInfo,
  records: readonly Source[],
): Promise<RecordTest> {
  const common: RecordTest = (record) => matchesFilter(record, filter);
  const among = (uuids: readonly string[]): RecordTest => {
    const kept = new Set(uuids);
    return (record) => kept.has(record.uuid) && common(record);
  };
  switch (target.kind) {
    case 'detail': {
      const test = await detailTest(context, target.type, filter, at);
      const vacantOnly =
        target.type === 'manager' &&
        nullIsVacant(info) &&
        given(info, filter, 'employee', true) &&
        filter.employee === null;
      return vacantOnly ? (record) => !(record.person as LegacyRecord | null)?.uuid && test(record) : test;
    }
    case 'unit': {
      const reads = unitFilterReads(info, context);
      if (!narrowsByTree(filter as UnitFilter, reads)) return common;
      return among((await unitsMatching(context, filter as UnitFilter, at, reads)).map((unit) => unit.uuid));
    }
    case 'employee': {
      const found = await peopleMatching(context, filter as PersonFilter, at, {
        query: given(info, filter, 'query', true),
        cpr_numbers: given(info, filter, 'cpr_numbers', true),
      });
      return found === null ? common : among(found);
    }
    case 'class': {
      if (onlyCommon(filter)) return common;
      // Decided on the link's own classes (every type selector of OS2mo's UI asks by owner): the collection
      // would read every facet's classes to find the few the link holds. Facets named decide what is read.
      const classFilter = filter as ClassFilter;
      const kept = namesFacets(classFilter)
        ? await classesMatching(context, classFilter, at, ownerReads(context))
        : await classesAmong(context, records, classFilter, at, ownerReads(context));
      return among(kept.map((record) => record.uuid));
    }
    case 'facet':
      return asksForParent(filter as FacetFilter) ? () => false : common;
    default:
      // An IT system filter has no member beyond the common ones.
      return common;
  }
}

/**
 * A link's objects narrowed by its `filter`, as OS2mo's seeded resolvers narrow them: the window
 * (`from_date`, `to_date`; absent: today, OS2mo's `get_date_interval`) reads the owner's listing over it
 * when it is not the day the link was read as of, then the collection's own filter test keeps the objects
 * it would list. The reads the test needs are the collection's, through the request's loaders, so a
 * filter given on a link of many objects reads them once.
 */
export async function filterLink(
  records: readonly Source[],
  filter: LinkFilter,
  link: { input: string; listing: LinkListing | null },
  source: Source,
  context: GraphQLContext,
  info: GraphQLResolveInfo,
): Promise<{ records: Source[]; window: DayWindow }> {
  const day = { from: source.__at, to: source.__at };
  const window = windowOf(filter as never, info, context.today);
  refuseSubFilterWindows(info, filter, { day: windowDay(window, context.today), today: context.today });
  const test = await collectionTest(
    context,
    linkTarget(link.input),
    filter,
    windowDay(window, context.today),
    info,
    records,
  );
  const sameDay = window.from === day.from && window.to === day.to;
  if (link.listing === null) {
    const target = linkTarget(link.input);
    // A unit or person has versions of its own: over another window, its versions there (as the collection).
    const read =
      sameDay || (target.kind !== 'unit' && target.kind !== 'employee')
        ? records
        : await versionsOver(context, target, records, window);
    return { records: read.filter((record) => test(record)), window: sameDay ? day : window };
  }
  const read = sameDay
    ? records
    : await detailListing(context, link.listing.type, { [link.listing.owner]: source.uuid }, window);
  return { records: read.filter((record) => test(record)), window };
}

/** The versions over a window of the units or people a link names, in the link's order. */
async function versionsOver(
  context: GraphQLContext,
  target: CollectionSource,
  records: readonly Source[],
  window: DayWindow,
): Promise<Source[]> {
  const reads = objectReads(target);
  const uuids = [...new Set(records.map((record) => record.uuid))];
  const found = await Promise.all(uuids.map((uuid) => reads.versions(context, { uuid }, window)));
  return found.flat();
}

/**
 * A page of a link's objects, as a root collection pages (OS2mo pages a link's objects by UUID, then
 * gives every version of each): `limit` objects from the `cursor` on.
 */
export function pageLink(
  records: readonly Source[],
  args: { limit?: number | null; cursor?: string | null },
): Source[] {
  const groups = new Map<string, Source[]>();
  for (const record of records) groups.set(record.uuid, [...(groups.get(record.uuid) ?? []), record]);
  return pageOf([...groups.values()], decodeCursor(args.cursor), args.limit).objects.flat();
}

/**
 * A link to one object, after its filter and page: OS2mo gives the one object or, for a nullable link,
 * null (`to_only`); a link that always has its object (`to_one`) fails when the arguments leave none.
 */
export function oneOf(records: readonly Source[], coordinate: string, nullable: boolean): Source | null {
  const [first] = records;
  if (first !== undefined || nullable) return first ?? null;
  throw badUserInput(
    `${coordinate} always has its one object, and the given filter, limit or cursor leave none of it.`,
  );
}
