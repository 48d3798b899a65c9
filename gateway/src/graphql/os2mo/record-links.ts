import { GraphQLError, type GraphQLResolveInfo } from 'graphql';
import type { GraphQLContext, Source } from '../context.js';
import { withDate } from '../context.js';
import type { LegacyRecord } from '../../legacy/legacy-loaders.js';
import { decodeCursor } from '../resolvers/pagination.js';
import {
  detailListing,
  detailObjects,
  distinctVersions,
  detailTest,
  pageOf,
  responses,
  windowOf,
  type Filter,
} from './collection-resolvers.js';
import type { LinkFilter } from './link-filters.js';
import { refuseSubFilterWindows } from './sub-filter-dates.js';
import { windowDay, type DayWindow } from './time-window.js';
import { addressEngagementFilter, type DetailFilter } from './detail-filters.js';
import { oneResponse, pagedResponse } from './link-responses.js';

const uuidOf = (value: unknown): string | null =>
  value && typeof value === 'object' && 'uuid' in value ? String((value as LegacyRecord).uuid) : null;

/**
 * The engagement an address or a leave names, as its record embeds it (the engagement reader's record as of
 * the record's date); `{uuid}` alone when the engagement has no version on that date, which is no object.
 */
function embeddedEngagement(source: Source): Source | null | undefined {
  const embedded = source.engagement as LegacyRecord | null | undefined;
  if (!embedded?.uuid) return null;
  return 'validity' in embedded ? withDate(embedded, source.__at) : undefined;
}

/** OS2mo's `Address.engagement`: null without an engagement, else the engagement on the address's date. */
export function addressEngagement(source: Source): Source[] | null {
  const engagement = embeddedEngagement(source);
  if (engagement === null) return null;
  return engagement ? [engagement] : [];
}

/** OS2mo's `Leave.engagement` (`Engagement!`): the engagement the leave is from, on the leave's date. */
export function leaveEngagement(source: Source): Source | null {
  return embeddedEngagement(source) ?? null;
}

/**
 * OS2mo's `dynamic_class_uuid` of an association: its one dynamic class (`mora/handler/impl/association.py`
 * @HEAD, `only(classes)`: none is null, more than one is refused).
 */
function dynamicClass(source: Source): LegacyRecord | null {
  const classes = (source.dynamic_classes as LegacyRecord[] | null | undefined) ?? [];
  if (classes.length > 1) {
    throw new GraphQLError(
      `The association ${source.uuid} has ${classes.length} dynamic classes; \`dynamic_class\` names one, so read \`dynamic_classes\` through v2.`,
      { extensions: { code: 'MORE_THAN_ONE_DYNAMIC_CLASS' } },
    );
  }
  return classes[0] ?? null;
}

export const associationDynamicClass = {
  dynamic_class_uuid: (source: Source) => uuidOf(dynamicClass(source)),
  dynamic_class: (source: Source) => {
    const found = dynamicClass(source);
    return found ? withDate(found, source.__at) : null;
  },
  dynamic_class_response: (source: Source, _args: unknown, context: GraphQLContext) =>
    oneResponse(dynamicClass(source), { kind: 'class' }, source, context.today),
};

/**
 * The top-level unit above a unit (itself at the top), as of the unit's date: OS2mo's `root` is the unit
 * with no parent among the unit's ancestors and itself (`mora/graphapi/collections/organisation_unit.py`
 * @HEAD, `descendant` seeded with the unit and `parent: null`). A unit's record embeds its parent chain,
 * so this costs the unit's own read at most.
 */
async function rootOf(source: Source, context: GraphQLContext): Promise<Source | null> {
  let unit: LegacyRecord | null =
    'parent' in source ? source : await context.legacy.orgUnit(source.uuid, source.__at);
  const seen = new Set<string>();
  while (unit && !seen.has(unit.uuid)) {
    seen.add(unit.uuid);
    const parent = unit.parent as LegacyRecord | null | undefined;
    if (!parent?.uuid) return withDate(unit, source.__at);
    unit = 'parent' in parent ? parent : await context.legacy.orgUnit(parent.uuid, source.__at);
  }
  return null;
}

export const unitRoot = {
  root: async (source: Source, _args: unknown, context: GraphQLContext) => {
    const found = await rootOf(source, context);
    return found ? [found] : null;
  },
  root_response: async (source: Source, _args: unknown, context: GraphQLContext) =>
    oneResponse(await rootOf(source, context), { kind: 'unit' }, source, context.today),
};

/** A detail record's validity start, for ordering its versions. */
const startOf = (record: Source) => (record.validity as { from?: string } | undefined)?.from ?? '';

/**
 * The addresses over a window that name one of `engagements`: OS2mo 2.4.0 writes an address's engagement
 * in its `tilknyttedefunktioner` and the address under the engagement's person (`service/address.py`
 * @2.4.0:241), so the engagements' versions in the window (read by UUID) give the people and units whose
 * address listings are searched; each listing is read once per request, shared by every caller.
 */
async function addressesNaming(
  context: GraphQLContext,
  engagements: ReadonlySet<string>,
  window: DayWindow,
): Promise<Source[]> {
  if (engagements.size === 0) return [];
  const versions = await detailObjects(context, 'engagement', { uuids: [...engagements] }, window);
  const owners = new Map<string, { unit?: string; employee?: string }>();
  for (const version of versions) {
    const person = uuidOf(version.person);
    const unit = uuidOf(version.org_unit);
    if (person) owners.set(`employee/${person}`, { employee: person });
    if (unit) owners.set(`unit/${unit}`, { unit });
  }
  const listings = await Promise.all(
    [...owners.values()].map((owner) => detailListing(context, 'address', owner, window)),
  );
  return distinctVersions(
    listings.flat().filter((address) => engagements.has(uuidOf(address.engagement) ?? '')),
  );
}

/**
 * OS2mo's `Engagement.addresses_response`: the addresses that name the engagement. The Service API lists
 * addresses by person and by unit, so the engagement's person's and unit's listings (each read once per
 * request, shared by every engagement of that person or unit) are searched for them. A `filter`
 * (`EngagementBoundAddressFilter`) reads them over its window (absent: today, as OS2mo's
 * `get_date_interval`) and keeps those the address collection's own filter keeps. OS2mo seeds the
 * engagement into that filter (`mora/graphapi/collections/engagement.py`@66.1.2:81-94) and ORs it with
 * the filter's `ituser`, whose UUIDs it takes as they are (`mora/graphapi/resolvers.py`@66.1.2:754-791,
 * `uuid_shortcircuit` :111-122): an `ituser` naming another engagement adds that engagement's addresses.
 */
export async function engagementAddresses(
  source: Source,
  args: { filter?: LinkFilter | null; limit?: number | null; cursor?: string | null },
  context: GraphQLContext,
  info: GraphQLResolveInfo,
) {
  const filter = args.filter ?? null;
  const window = filter
    ? windowOf(filter as Filter, info, context.today)
    : { from: source.__at, to: source.__at };
  const person = uuidOf(source.person);
  const unit = uuidOf(source.org_unit);
  const others = new Set(
    ((filter?.ituser as { uuids?: string[] | null } | null | undefined)?.uuids ?? []).filter(
      (uuid) => uuid !== source.uuid,
    ),
  );
  const [listings, test] = await Promise.all([
    Promise.all([
      person ? detailListing(context, 'address', { employee: person }, window) : [],
      unit ? detailListing(context, 'address', { unit }, window) : [],
      addressesNaming(context, others, window),
    ]),
    // An `ituser`, ORed with the seeded engagement, keeps every address the engagement has
    // (`detail-filters.ts`).
    filter
      ? detailTest(
          context,
          'address',
          { ...filter, engagement: { uuids: [source.uuid] } },
          windowDay(window, context.today),
        )
      : () => true,
  ]);
  const named = listings.flat().filter((address) => {
    const engagement = uuidOf(address.engagement);
    return (engagement === source.uuid || others.has(engagement ?? '')) && test(address);
  });
  return pageOf(
    responses(distinctVersions(named), { kind: 'detail', type: 'address' }, window, context.today),
    decodeCursor(args.cursor),
    args.limit,
  );
}

type LinkArgs = { filter?: LinkFilter | null; limit?: number | null; cursor?: string | null };

/**
 * The addresses an IT account's link lists under a filter, by request: the same filter and window give
 * every IT account the same addresses (below), so a request listing many accounts reads and tests them
 * once. Keyed by the filter as given and the window, which is all that decides the answer; a request
 * holds as many entries as its distinct link filters.
 */
const itUserAddressesByRequest = new WeakMap<GraphQLContext, Map<string, Promise<Source[]>>>();

/**
 * The addresses of the engagements an `ItuserBoundAddressFilter` picks over `window` that the rest of the
 * filter keeps: the engagements first (its `engagement` with `engagements` folded in; UUIDs as they are,
 * `uuid_shortcircuit`), then their addresses (`addressesNaming`), tested by the address collection's filter.
 */
async function pickedEngagementAddresses(
  context: GraphQLContext,
  filter: LinkFilter,
  engagement: { uuids?: string[] | null },
  window: DayWindow,
): Promise<Source[]> {
  const day = windowDay(window, context.today);
  const picked =
    engagement.uuids ??
    (await detailObjects(context, 'engagement', engagement as Filter, { from: day, to: day })).map(
      (record) => record.uuid,
    );
  if (picked.length === 0) return [];
  const [addresses, test] = await Promise.all([
    addressesNaming(context, new Set(picked), window),
    detailTest(context, 'address', filter, day),
  ]);
  return addresses
    .filter((address) => test(address))
    .sort((a, b) => a.uuid.localeCompare(b.uuid) || startOf(a).localeCompare(startOf(b)));
}

/**
 * The addresses OS2mo gives for an IT account's `addresses_response` and `addresses`: it seeds the account
 * into the address filter (`mora/graphapi/collections/it.py`@66.1.2:420-469) and tests that together with
 * the filter's `engagement`, the two ORed on the address's `tilknyttedefunktioner`
 * (`mora/graphapi/resolvers.py`@66.1.2:754-791). No 2.x address names an IT account there (it names an
 * engagement, whose UUID is no account's), so the seed adds nothing: without an `engagement` (or
 * `engagements`) the link holds nothing, read from nowhere, and with one it holds the addresses of the
 * engagements that sub-filter picks, whoever's they are, the same for every account.
 */
async function itUserAddressRecords(
  source: Source,
  args: LinkArgs,
  context: GraphQLContext,
  info: GraphQLResolveInfo,
) {
  const filter = args.filter ?? null;
  const day = { from: source.__at, to: source.__at };
  const engagement = filter && addressEngagementFilter(filter as DetailFilter);
  if (!filter || !engagement) return { records: [], window: day };
  const window = windowOf(filter as Filter, info, context.today);
  refuseSubFilterWindows(info, filter, { day: windowDay(window, context.today), today: context.today });
  let answers = itUserAddressesByRequest.get(context);
  if (!answers) itUserAddressesByRequest.set(context, (answers = new Map()));
  const key = JSON.stringify([filter, window]);
  let records = answers.get(key);
  if (!records) answers.set(key, (records = pickedEngagementAddresses(context, filter, engagement, window)));
  return { records: await records, window };
}

export const itUserAddresses = {
  addresses_response: async (
    source: Source,
    args: LinkArgs,
    context: GraphQLContext,
    info: GraphQLResolveInfo,
  ) => {
    const { records, window } = await itUserAddressRecords(source, args, context, info);
    return pagedResponse(records, { kind: 'detail', type: 'address' }, source, context, args, window);
  },
  // The list link's `filter`, `limit` and `cursor` are applied again around it (`withLinkArguments`).
  addresses: async (source: Source, args: LinkArgs, context: GraphQLContext, info: GraphQLResolveInfo) =>
    (await itUserAddressRecords(source, args, context, info)).records,
};
