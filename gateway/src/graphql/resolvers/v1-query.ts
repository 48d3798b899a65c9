import type { GraphQLResolveInfo } from 'graphql';
import type { GraphQLContext, Source } from '../context.js';
import { badUserInput } from '../errors.js';
import type { DetailType } from '../../legacy/legacy-loaders.js';
import {
  detailCollections,
  allEmployees,
  allOrgUnits,
  classRecords,
  detailRecords,
  employeesByUuid,
  facetRecords,
  groupByUuid,
  itSystemRecords,
  matchesFilter,
  orgUnitsByUuid,
  type CommonFilter,
  type DetailFilter,
  type TimeWindow,
} from './collections.js';
import { prefetchUnitLinks, unitsAnswerableFromManagers } from './prefetch.js';
import { prefetchHierarchy } from './hierarchy.js';

interface WindowFilter {
  from_date?: string | null;
  to_date?: string | null;
}

/**
 * The time window of a v1 filter. Without dates it is the present. With dates, detail records overlapping
 * [from_date, to_date] are shown; units and employees are shown as of from_date, because the legacy API
 * serves them by date only.
 */
function windowOf(filter: WindowFilter | null | undefined, today: string): TimeWindow {
  const from = filter?.from_date ?? null;
  const to = filter?.to_date ?? null;
  if (from !== null && to !== null && to < from)
    throw badUserInput('filter.to_date must not be before filter.from_date.');
  if (from === null && to === null) return { at: today };
  return { at: from ?? today, until: to };
}

/** v1's root fields: one `{uuid, objects}` element per matching entity. */
export function v1QueryResolvers() {
  const entities =
    (kind: 'unit' | 'employee') =>
    async (
      _root: unknown,
      args: { filter?: (CommonFilter & WindowFilter) | null },
      context: GraphQLContext,
      info: GraphQLResolveInfo,
    ) => {
      const { at } = windowOf(args.filter, context.today);
      const filter = args.filter;
      let records: Source[];
      if (filter?.uuids) {
        if (kind === 'unit') prefetchUnitLinks(info, context, filter.uuids, at);
        prefetchHierarchy(info, context, kind, filter.uuids, at);
        records =
          kind === 'unit'
            ? await orgUnitsByUuid(context, filter.uuids, at, {
                viaManagers: unitsAnswerableFromManagers(info),
              })
            : await employeesByUuid(context, filter.uuids, at);
      } else {
        records = kind === 'unit' ? await allOrgUnits(context, at) : await allEmployees(context, at);
      }
      return groupByUuid(records.filter((record) => matchesFilter(record, filter)));
    };

  const details =
    (type: DetailType) =>
    async (
      _root: unknown,
      args: { filter?: (DetailFilter & WindowFilter) | null },
      context: GraphQLContext,
    ) =>
      groupByUuid(await detailRecords(context, type, args.filter, windowOf(args.filter, context.today)));

  const simple =
    (
      read: (
        context: GraphQLContext,
        filter: CommonFilter | null | undefined,
        at: string,
      ) => Promise<Source[]>,
    ) =>
    async (
      _root: unknown,
      args: { filter?: (CommonFilter & WindowFilter) | null },
      context: GraphQLContext,
    ) =>
      groupByUuid(await read(context, args.filter, windowOf(args.filter, context.today).at));

  return {
    org_units: entities('unit'),
    employees: entities('employee'),
    ...detailCollections(details),
    itsystems: simple(itSystemRecords),
    classes: simple(classRecords),
    facets: simple(facetRecords),
  };
}
