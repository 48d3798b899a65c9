import { GraphQLError, type GraphQLResolveInfo } from 'graphql';
import type { GraphQLContext, Source } from '../context.js';
import { withDate } from '../context.js';
import { LegacyResponseError } from '../../legacy/legacy-errors.js';
import { legacyPaths, organisationCountFields } from '../../legacy/legacy-paths.js';
import type {
  CprLookupRecord,
  EmployeeDetailTypesRecord,
  OrganisationRecord,
  OrganisationSummaryRecord,
  OrgUnitDetailTypesRecord,
} from '../../legacy/contract-records.generated.js';
import { groupByUuid } from './collections.js';
import { selectedFields } from './lookahead.js';
import { decodeCursor, page, readLimit } from './pagination.js';
import { isSearch, searchRecords, type SearchFilter, type SearchKind } from './search-filters.js';
import { readerOf } from '../../cpr/cpr-policy.js';

/**
 * The reads OS2mo's Service API has beside the collections, as the graph serves them in both versions:
 * - `org`: the organisation (`/service/o/`), and its counts (`/service/o/{org}/`, read only when a count
 *   is selected);
 * - `OrgUnit.detail_types` / `Employee.detail_types`: `/service/{ou|e}/{uuid}/details/`;
 * - `cpr_lookup(cpr_number)`: `/service/e/cpr_lookup/?q=`, answering the name only;
 * - the `query` and `parent` filters of `org_units` and `employees` (`search-filters.ts`).
 */

type Resolver = (
  root: unknown,
  args: Record<string, unknown>,
  context: GraphQLContext,
  info: GraphQLResolveInfo,
) => unknown;

/** The one organisation the legacy service holds, as its listing shows it. */
export async function organisation(_root: unknown, _args: unknown, context: GraphQLContext): Promise<Source> {
  const [first] = await context.legacy.get<OrganisationRecord[]>(legacyPaths.organisations());
  if (!first) throw new Error('The legacy service holds no organisation.');
  return withDate(first, context.today);
}

/** A count of the organisation: from `/service/o/{org}/` as of the organisation's date. */
async function organisationCount(
  source: Source,
  _args: unknown,
  context: GraphQLContext,
  info: GraphQLResolveInfo,
) {
  const summary = await context.legacy.get<OrganisationSummaryRecord>(
    legacyPaths.organisation(source.uuid, { at: source.__at }),
  );
  return summary[info.fieldName as keyof OrganisationSummaryRecord];
}

/** Reads the CPR register; a refusal keeps its key and sentence but loses the number OS2mo puts in it. */
async function readCprRegister(context: GraphQLContext, cprNumber: string) {
  try {
    return await context.legacy.get<Partial<CprLookupRecord>>(legacyPaths.cprLookup(cprNumber));
  } catch (error) {
    if (!(error instanceof LegacyResponseError)) throw error;
    // OS2mo's `V_CPR_NOT_VALID` body carries the number (`cpr`): the answer must not echo it.
    const { cpr: _cpr, ...body } = error.body;
    throw new LegacyResponseError(error.status, body);
  }
}

/** One probe on record: who looked a number up and whether it named someone, never the number. */
function logProbe(context: GraphQLContext, hit: boolean) {
  context.log?.info(
    {
      cpr_lookup: {
        road: 'graphql',
        hit,
        ...readerOf(context.principal),
        ...context.cpr?.ids,
      },
    },
    'CPR number looked up',
  );
}

async function cprLookup(_root: unknown, args: { cpr_number: string }, context: GraphQLContext) {
  if (context.cpr?.mayRead === false) {
    throw new GraphQLError(
      'Looking a person up by CPR number needs a role or client that CPR_READ_ROLES or CPR_READ_CLIENTS names.',
      { extensions: { code: 'FORBIDDEN' } },
    );
  }
  let found: Partial<CprLookupRecord>;
  try {
    found = await readCprRegister(context, args.cpr_number);
  } catch (error) {
    if (error instanceof LegacyResponseError) logProbe(context, false);
    throw error;
  }
  // OS2mo without the CPR register (`ENABLE_SP=false`) answers `{}`: no name to give.
  const hit = typeof found.name === 'string';
  logProbe(context, hit);
  if (!hit) return null;
  // Only the name: the number stays with the caller who sent it.
  return { name: found.name };
}

interface Collections {
  org_units: Resolver;
  employees: Resolver;
}

/** The date a v1 filter reads units and people as of (v1's collections read them at `from_date`). */
const v1Date = (filter: { from_date?: string | null } | null | undefined, today: string) =>
  filter?.from_date ?? today;

const detailTypesPath = (kind: SearchKind, uuid: string) =>
  kind === 'unit' ? legacyPaths.unitDetailTypes(uuid) : legacyPaths.employeeDetailTypes(uuid);

/**
 * Starts the `detail_types` reads of units or people asked for by UUID in the same round as their own
 * reads: the listing needs only the UUID. The resolver awaits the same cached load and reports its error.
 */
function prefetchDetailTypes(
  kind: SearchKind,
  uuids: readonly string[],
  context: GraphQLContext,
  info: GraphQLResolveInfo,
) {
  if (selectedFields(info, ['objects', 'detail_types']).length === 0) return;
  for (const uuid of uuids) context.legacy.get(detailTypesPath(kind, uuid)).catch(() => undefined);
}

/** `org_units`/`employees` that answer the `query` and `parent` filters, and otherwise do as before. */
function searchable(version: 'v1' | 'v2', kind: SearchKind, plain: Resolver): Resolver {
  return async (root, args, context, info) => {
    const filter = args.filter as (SearchFilter & { at?: string | null; from_date?: string | null }) | null;
    if (filter === null || !isSearch(filter)) {
      if (filter?.uuids) {
        const uuids = [...new Set(filter.uuids)];
        const offset = version === 'v2' ? decodeCursor(args.cursor as string | null | undefined) : 0;
        const limit = version === 'v2' ? readLimit(args.limit as number | null | undefined) : uuids.length;
        prefetchDetailTypes(kind, uuids.slice(offset, offset + limit), context, info);
      }
      return plain(root, args, context, info);
    }
    if (version === 'v1') {
      return groupByUuid(
        await searchRecords(context, kind, filter, v1Date(filter, context.today), info, ['objects']),
      );
    }
    const limit = readLimit(args.limit as number | null | undefined);
    const offset = decodeCursor(args.cursor as string | null | undefined);
    const at = filter.at ?? context.today;
    return page(await searchRecords(context, kind, filter, at, info, ['objects']), offset, limit);
  };
}

/**
 * Resolvers for a version, merged over its own (`makeExecutableSchema` takes both): `collections` are
 * the version's `org_units` and `employees`, which these wrap.
 */
export function organisationResolvers(version: 'v1' | 'v2', collections: Collections) {
  return {
    Query: {
      org: organisation,
      cpr_lookup: cprLookup,
      org_units: searchable(version, 'unit', collections.org_units),
      employees: searchable(version, 'employee', collections.employees),
    },
    Organisation: Object.fromEntries(organisationCountFields.map((field) => [field, organisationCount])),
    OrgUnit: {
      detail_types: (source: Source, _args: unknown, context: GraphQLContext) =>
        context.legacy.get<OrgUnitDetailTypesRecord>(detailTypesPath('unit', source.uuid)),
    },
    Employee: {
      detail_types: (source: Source, _args: unknown, context: GraphQLContext) =>
        context.legacy.get<EmployeeDetailTypesRecord>(detailTypesPath('employee', source.uuid)),
    },
  };
}
