import type { GraphQLContext } from '../context.js';
import { facetRecords } from '../resolvers/collections.js';

/** OS2mo's `FacetFilter`: UUIDs and user keys, and the parent facet (with its deprecated lists). */
export interface FacetFilter {
  uuids?: string[] | null;
  user_keys?: string[] | null;
  parent?: FacetFilter | null;
  parents?: string[] | null;
  parent_user_keys?: string[] | null;
}

/**
 * Whether a facet filter asks for a parent facet, which no 2.x facet has (the ledger, `ledger/facet.ts`), so
 * that it keeps no facet: a `parent`, `parents` or `parent_user_keys` that is not null, `{}` and `[]`
 * included. OS2mo folds the two lists into `parent` (`mora/graphapi/resolvers.py`@66.1.2:171-178, so `[]`
 * makes a `parent` of no UUIDs) and asks for a facet's parent relation whenever `parent` is set (:341-359);
 * null, their default, keeps every facet.
 */
export const asksForParent = (filter: FacetFilter | null | undefined): boolean =>
  filter != null && (filter.parent != null || filter.parents != null || filter.parent_user_keys != null);

/** The facets a facet filter keeps, as of `at`: by UUID and user key, and none when it asks for a parent. */
export async function facetsMatching(
  context: GraphQLContext,
  filter: FacetFilter | null | undefined,
  at: string,
) {
  return asksForParent(filter) ? [] : facetRecords(context, filter, at);
}
