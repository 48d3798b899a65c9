import type { GraphQLResolveInfo } from 'graphql';
import type { GraphQLContext, Source } from '../context.js';
import { withDate } from '../context.js';
import type { DetailType } from '../../legacy/legacy-loaders.js';
import {
  detailCollections,
  allEmployees,
  allOrgUnits,
  classRecords,
  detailRecords,
  employeesByUuid,
  facetRecords,
  itSystemRecords,
  matchesFilter,
  orgUnitsByUuid,
  type CommonFilter,
  type DetailFilter,
  walkedByEmployee,
} from './collections.js';
import { decodeCursor, encodeCursor, page, readLimit } from './pagination.js';
import { prefetchUnitLinks, unitsAnswerableFromManagers } from './prefetch.js';
import { prefetchHierarchy } from './hierarchy.js';

interface PageArgs<F> {
  filter?: (F & { at?: string | null }) | null;
  limit?: number | null;
  cursor?: string | null;
}

/** v2's root fields: `{objects, page_info}` pages of objects as of `filter.at` (default today). */
export function v2QueryResolvers() {
  const dateOf = (args: PageArgs<unknown>, context: GraphQLContext) => args.filter?.at ?? context.today;

  const entities =
    (kind: 'unit' | 'employee') =>
    async (
      _root: unknown,
      args: PageArgs<CommonFilter>,
      context: GraphQLContext,
      info: GraphQLResolveInfo,
    ) => {
      const at = dateOf(args, context);
      const limit = readLimit(args.limit);
      const offset = decodeCursor(args.cursor);
      const filter = args.filter;
      if (filter?.uuids) {
        const uuids = [...new Set(filter.uuids)].slice(offset, offset + limit);
        if (kind === 'unit') prefetchUnitLinks(info, context, uuids, at);
        prefetchHierarchy(info, context, kind, uuids, at);
        const found =
          kind === 'unit'
            ? await orgUnitsByUuid(context, uuids, at, { viaManagers: unitsAnswerableFromManagers(info) })
            : await employeesByUuid(context, uuids, at);
        return {
          objects: found.filter((record) => matchesFilter(record, filter)),
          page_info: {
            next_cursor: offset + limit < new Set(filter.uuids).size ? encodeCursor(offset + limit) : null,
          },
        };
      }
      if (filter?.user_keys) {
        const all = kind === 'unit' ? await allOrgUnits(context, at) : await allEmployees(context, at);
        return page(
          all.filter((record) => matchesFilter(record, filter)),
          offset,
          limit,
        );
      }
      const legacyPage =
        kind === 'unit'
          ? await context.legacy.orgUnitPage(at, offset, limit)
          : await context.legacy.employeePage(at, offset, limit);
      const objects = legacyPage.items.map((item) => withDate(item, at));
      prefetchHierarchy(
        info,
        context,
        kind,
        objects.map((object) => object.uuid),
        at,
      );
      if (kind === 'unit')
        prefetchUnitLinks(
          info,
          context,
          objects.map((unit) => unit.uuid),
          at,
        );
      return {
        objects,
        page_info: { next_cursor: offset + limit < legacyPage.total ? encodeCursor(offset + limit) : null },
      };
    };

  /** Details page by page of units (of employees, for leaves) when no unit or employee narrows them; otherwise one collected list. */
  const details =
    (type: DetailType) => async (_root: unknown, args: PageArgs<DetailFilter>, context: GraphQLContext) => {
      const at = dateOf(args, context);
      const limit = readLimit(args.limit);
      const offset = decodeCursor(args.cursor);
      const filter = args.filter;
      if (filter?.org_units || filter?.employees) {
        return page(await detailRecords(context, type, filter, { at }), offset, limit);
      }
      const walked = walkedByEmployee.has(type)
        ? await context.legacy.employeePage(at, offset, limit)
        : await context.legacy.orgUnitPage(at, offset, limit);
      const objects = await detailRecords(
        context,
        type,
        filter,
        { at },
        walked.items.map((item) => item.uuid),
      );
      return {
        objects,
        page_info: { next_cursor: offset + limit < walked.total ? encodeCursor(offset + limit) : null },
      };
    };

  const simple =
    (
      read: (
        context: GraphQLContext,
        filter: PageArgs<CommonFilter>['filter'],
        at: string,
      ) => Promise<Source[]>,
    ) =>
    async (_root: unknown, args: PageArgs<CommonFilter>, context: GraphQLContext) =>
      page(await read(context, args.filter, context.today), decodeCursor(args.cursor), readLimit(args.limit));

  return {
    org_units: entities('unit'),
    employees: entities('employee'),
    ...detailCollections(details),
    itsystems: simple(itSystemRecords),
    classes: simple(classRecords),
    facets: simple(facetRecords),
  };
}
