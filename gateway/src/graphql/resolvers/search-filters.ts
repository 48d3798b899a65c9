import type { GraphQLResolveInfo } from 'graphql';
import type { GraphQLContext, Source } from '../context.js';
import { withDate } from '../context.js';
import { badUserInput } from '../errors.js';
import { cprCheckedSearch } from '../cpr-searches.js';
import { legacyPaths } from '../../legacy/legacy-paths.js';
import type {
  AutocompleteResultsRecord,
  OrgUnitListItemRecord,
} from '../../legacy/contract-records.generated.js';
import { employeesByUuid, matchesFilter, orgUnitsByUuid, type CommonFilter } from './collections.js';
import { entityResolvers, singleLink } from './entities.js';
import { hierarchyResolvers } from './hierarchy.js';
import { childFieldNames } from './lookahead.js';

/**
 * OS2mo's graph filters `org_units` and `employees` by free text (`query`) and `org_units` by parent
 * (`parent: null` for the top-level units, `parent: {uuids}` for the units directly below those). Each
 * reads one legacy listing: `/service/{ou|e}/autocomplete/?query=`, `/service/o/{org}/children` or
 * `/service/ou/{uuid}/children`. The listings' items carry the uuid and name (and, for children, the
 * user key and validity); a query selecting more reads the records in full, one read each.
 */
export interface SearchFilter extends CommonFilter {
  query?: string | null;
  /** `null`: top-level units; `{uuids}`: the units directly below those. */
  parent?: CommonFilter | null;
}

export type SearchKind = 'unit' | 'employee';

/** True when the filter asks for a text search or a parent, which the plain collections do not read. */
export function isSearch(filter: SearchFilter | null | undefined): boolean {
  return filter != null && (typeof filter.query === 'string' || filter.parent !== undefined);
}

/** The fields a listing's item answers or whose resolver reads by uuid alone (or reads the full record). */
function answerableFields(kind: SearchKind): Set<string> {
  const resolvers = entityResolvers(singleLink);
  const own = kind === 'unit' ? resolvers.OrgUnit : resolvers.Employee;
  // Versions, child counts and ancestors read by UUID (ancestors through the same cached unit read).
  const hierarchy = hierarchyResolvers();
  const history = kind === 'unit' ? hierarchy.OrgUnit : hierarchy.Employee;
  return new Set([
    'uuid',
    'name',
    '__typename',
    'detail_types',
    ...Object.keys(own),
    ...Object.keys(history),
  ]);
}

const answerable = { unit: answerableFields('unit'), employee: answerableFields('employee') };

async function parentHits(context: GraphQLContext, parent: CommonFilter | null, at: string) {
  if (parent === null) {
    const organisation = await context.legacy.organisationUuid();
    return context.legacy.get<OrgUnitListItemRecord[]>(legacyPaths.rootOrgUnits(organisation, { at }));
  }
  const { uuids, ...rest } = parent;
  if (!uuids || Object.values(rest).some((value) => value !== undefined && value !== null)) {
    throw badUserInput(
      'filter.parent takes null (the top-level units) or { uuids: [...] } (the units directly below those).',
    );
  }
  const lists = await Promise.all([...new Set(uuids)].map((uuid) => context.legacy.children(uuid, at)));
  return lists.flat();
}

async function queryHits(context: GraphQLContext, kind: SearchKind, query: string, at: string) {
  if (kind === 'unit') {
    return (
      await context.legacy.get<AutocompleteResultsRecord>(legacyPaths.orgUnitAutocomplete({ query, at }))
    ).items;
  }
  // A text that is a CPR number searches the register: on record, and gated (`cprCheckedSearch`).
  return cprCheckedSearch(
    context,
    query,
    async () =>
      (await context.legacy.get<AutocompleteResultsRecord>(legacyPaths.employeeAutocomplete({ query, at })))
        .items,
  );
}

/**
 * The units or people a search filter selects, in the legacy listing's order, as of `at`. `path` leads
 * from the root field to the objects (`['objects']`), so the selection decides whether items suffice.
 */
export async function searchRecords(
  context: GraphQLContext,
  kind: SearchKind,
  filter: SearchFilter,
  at: string,
  info: GraphQLResolveInfo,
  path: readonly string[],
): Promise<Source[]> {
  const [byQuery, byParent] = await Promise.all([
    typeof filter.query === 'string' ? queryHits(context, kind, filter.query, at) : null,
    filter.parent !== undefined ? parentHits(context, filter.parent, at) : null,
  ]);
  let hits: { uuid: string }[] = byQuery ?? byParent ?? [];
  if (byQuery && byParent) {
    const below = new Set(byParent.map((unit) => unit.uuid));
    hits = byQuery.filter((hit) => below.has(hit.uuid));
  }
  const unique = [...new Map(hits.map((hit) => [hit.uuid, hit])).values()];
  const needsFull =
    Boolean(filter.user_keys) || childFieldNames(info, path).some((field) => !answerable[kind].has(field));
  if (!needsFull) {
    return unique.filter((hit) => matchesFilter(hit, filter)).map((hit) => withDate(hit, at));
  }
  const wanted = unique.map((hit) => hit.uuid).filter((uuid) => !filter.uuids || filter.uuids.includes(uuid));
  const full =
    kind === 'unit' ? await orgUnitsByUuid(context, wanted, at) : await employeesByUuid(context, wanted, at);
  return full.filter((record) => matchesFilter(record, filter));
}
