import type { GraphQLContext, Source } from '../context.js';
import type { DetailType, LegacyRecord } from '../../legacy/legacy-loaders.js';
import { allEmployees, itSystemRecords, matchesFilter } from '../resolvers/collections.js';
import { classesMatching, type ClassFilter, type OwnerReads } from './class-filters.js';
import { peopleMatching, type PersonFilter } from './person-filters.js';

interface KeyFilter {
  uuids?: string[] | null;
  user_keys?: string[] | null;
}

/**
 * The members of OS2mo's detail filters (`AddressFilter`, `AssociationFilter`, `ITUserFilter`,
 * `OwnerFilter`, `EngagementFilter`, and `ManagerFilter`'s `engagement`) that pick records by what they link
 * to, beyond the unit and the person.
 */
export interface DetailFilter {
  address_type?: ClassFilter | null;
  address_types?: string[] | null;
  address_type_user_keys?: string[] | null;
  visibility?: ClassFilter | null;
  engagement?: object | null;
  engagements?: string[] | null;
  ituser?: object | null;
  association_type?: ClassFilter | null;
  association_types?: string[] | null;
  association_type_user_keys?: string[] | null;
  it_association?: boolean | null;
  itsystem?: KeyFilter | null;
  itsystem_uuids?: string[] | null;
  external_ids?: string[] | null;
  binding_types?: string[] | null;
  owner?: (KeyFilter & PersonFilter) | null;
  job_function?: ClassFilter | null;
  engagement_type?: ClassFilter | null;
}

/** How the detail filters read what they cannot decide alone: the engagements an engagement filter picks. */
export interface DetailFilterReads extends OwnerReads {
  engagementUuids(filter: object, at: string): Promise<string[]>;
}

/** OS2mo folds a deprecated UUID (and user-key) list into its sub-filter (`resolvers.py`, `extend_uuids`). */
function folded<T extends KeyFilter>(
  sub: T | null | undefined,
  uuids: string[] | null | undefined,
  userKeys?: string[] | null,
): T | null {
  if (uuids == null && userKeys == null) return sub ?? null;
  const into = { ...(sub ?? {}) } as T;
  if (uuids != null) into.uuids = [...(into.uuids ?? []), ...uuids];
  if (userKeys != null) into.user_keys = [...(into.user_keys ?? []), ...userKeys];
  return into;
}

/**
 * An address filter's engagement sub-filter with its deprecated `engagements` list folded in (OS2mo's
 * `handle_deprecated_engagement_filters`, `mora/graphapi/resolvers.py`@66.1.2:155); null: neither given.
 */
export const addressEngagementFilter = (filter: DetailFilter): KeyFilter | null =>
  folded(filter.engagement as KeyFilter | null | undefined, filter.engagements);

/** OS2mo's `uuid_shortcircuit`: a sub-filter naming UUIDs picks those, whatever else it says. */
async function picked(sub: KeyFilter, resolve: () => Promise<string[]>): Promise<ReadonlySet<string>> {
  return new Set(sub.uuids ?? (await resolve()));
}

const refOf = (record: LegacyRecord, field: string) =>
  (record[field] as LegacyRecord | null | undefined)?.uuid ?? null;

/** The people a person sub-filter picks as of `at`: by UUID, user key, search and CPR number. */
async function peopleOf(context: GraphQLContext, sub: KeyFilter & PersonFilter, at: string) {
  const [searched, everyone] = await Promise.all([
    peopleMatching(context, sub, at, { query: 'query' in sub, cpr_numbers: 'cpr_numbers' in sub }),
    sub.user_keys ? allEmployees(context, at) : null,
  ]);
  const keyed = everyone?.filter((person) => matchesFilter(person, sub)).map((person) => person.uuid);
  if (searched && keyed) return searched.filter((uuid) => keyed.includes(uuid));
  return searched ?? keyed ?? (await allEmployees(context, at)).map((person) => person.uuid);
}

/** One record test: the UUIDs a linked field must be among, or a test on the whole record. */
type Test = (record: LegacyRecord) => boolean;

const linkedTo = (field: string, allowed: ReadonlySet<string>): Test => {
  return (record) => {
    const uuid = refOf(record, field);
    return uuid !== null && allowed.has(uuid);
  };
};

const nothing: Test = () => false;

/**
 * Whether a detail filter asks for a link no 2.x record has, so that it keeps no record and no listing
 * need be read: OS2mo ORs an address's `engagement` and `ituser`, and a 2.x address never names an IT
 * account (but for an `ituser` naming UUIDs, which OS2mo matches against the engagement a 2.x address holds
 * in the same relation: `addressLinks`); a 2.x association is never an IT association (`false` keeps all); a
 * 2.x IT account has no engagement, external id or binding type (v30's `external_ids: null`, accounts
 * without one, keeps all); a 2.x manager names no engagement, and OS2mo's manager filter asks for one
 * whenever `engagement` is not null, `{}` included (`mora/graphapi/resolvers.py`@66.1.2:1630-1650).
 */
export function keepsNoRecord(type: DetailType, filter: DetailFilter): boolean {
  if (type === 'address')
    return (
      filter.ituser != null &&
      (filter.ituser as KeyFilter).uuids == null &&
      folded(filter.engagement as KeyFilter | null | undefined, filter.engagements) === null
    );
  if (type === 'association') return filter.it_association === true;
  if (type === 'manager') return filter.engagement != null;
  if (type === 'it')
    return filter.engagement != null || filter.external_ids != null || filter.binding_types != null;
  return false;
}

/**
 * The functions (engagements, and IT accounts by UUID) an address filter's `engagement` and `ituser` let an
 * address name, ORed as OS2mo does: both test the address's `tilknyttedefunktioner`, whichever is not null
 * (`mora/graphapi/resolvers.py`@66.1.2:754-791). A 2.x address holds its engagement there alone, so an
 * `ituser` adds only the UUIDs it names, which OS2mo takes as they are (`uuid_shortcircuit`, :111-122): an
 * `ituser` naming an engagement's UUID keeps that engagement's addresses. Null: neither member is given.
 */
function addressLinks(
  filter: DetailFilter,
  at: string,
  reads: DetailFilterReads,
): Promise<ReadonlySet<string>> | null {
  const engagement = folded(filter.engagement as KeyFilter | null | undefined, filter.engagements);
  const itUser = filter.ituser as KeyFilter | null | undefined;
  if (engagement === null && itUser == null) return null;
  const engagements = engagement
    ? picked(engagement, () => reads.engagementUuids(engagement, at))
    : Promise.resolve(new Set<string>());
  return engagements.then((found) => new Set([...found, ...(itUser?.uuids ?? [])]));
}

/**
 * The tests a detail filter's link members put on records of one type as of `at`, each following OS2mo's
 * `resolvers.py`@HEAD (`address_predicate`, `association_predicate`, `it_user_predicate`, `owner_predicate`,
 * `engagement_predicate`): null is no filter, a sub-filter keeps the records whose link it matches. What a
 * 2.x record never links to (an IT association, an address's IT account, an IT account's engagement,
 * external id or binding type) matches no record, as OS2mo answers for data written through the 2.x
 * Service API.
 */
export async function detailFilterTests(
  context: GraphQLContext,
  type: DetailType,
  filter: DetailFilter,
  at: string,
  reads: DetailFilterReads,
): Promise<Test[]> {
  const classes = (sub: ClassFilter) =>
    picked(sub, async () => (await classesMatching(context, sub, at, reads)).map((record) => record.uuid));
  if (keepsNoRecord(type, filter)) return [nothing];
  const tests: Promise<Test>[] = [];
  if (type === 'address') {
    const addressType = folded(filter.address_type, filter.address_types, filter.address_type_user_keys);
    if (addressType) tests.push(classes(addressType).then((allowed) => linkedTo('address_type', allowed)));
    if (filter.visibility)
      tests.push(classes(filter.visibility).then((allowed) => linkedTo('visibility', allowed)));
    const links = addressLinks(filter, at, reads);
    if (links) tests.push(links.then((allowed) => linkedTo('engagement', allowed)));
  }
  if (type === 'association') {
    const associationType = folded(
      filter.association_type,
      filter.association_types,
      filter.association_type_user_keys,
    );
    if (associationType) {
      tests.push(classes(associationType).then((allowed) => linkedTo('association_type', allowed)));
    }
  }
  if (type === 'it') {
    const itsystem = folded(filter.itsystem, filter.itsystem_uuids);
    if (itsystem) {
      const systems = picked(itsystem, async () =>
        (await itSystemRecords(context, itsystem, at)).map((record) => record.uuid),
      );
      tests.push(systems.then((allowed) => linkedTo('itsystem', allowed)));
    }
  }
  if (type === 'engagement') {
    if (filter.job_function) {
      const jobFunction = filter.job_function;
      tests.push(classes(jobFunction).then((allowed) => linkedTo('job_function', allowed)));
    }
    if (filter.engagement_type) {
      const engagementType = filter.engagement_type;
      tests.push(classes(engagementType).then((allowed) => linkedTo('engagement_type', allowed)));
    }
    // OS2mo keeps the engagements an IT account names; a 2.x IT account names none.
    if (filter.ituser != null) tests.push(Promise.resolve(nothing));
  }
  if (type === 'owner' && filter.owner) {
    const owner = filter.owner;
    tests.push(
      picked(owner, () => peopleOf(context, owner, at)).then((allowed) => linkedTo('owner', allowed)),
    );
  }
  return Promise.all(tests);
}

/** The records every test keeps. */
export const passing = (records: LegacyRecord[], tests: readonly Test[]): Source[] =>
  (tests.length === 0
    ? records
    : records.filter((record) => tests.every((test) => test(record)))) as Source[];
