import type { GraphQLContext, Source } from '../context.js';
import type { OrgUnitPageRecord } from '../../legacy/contract-records.generated.js';
import type { LegacyRecord } from '../../legacy/legacy-loaders.js';
import { legacyPaths } from '../../legacy/legacy-paths.js';

/**
 * A unit's hierarchy (OS2mo's `org_unit_hierarchy`, LoRa's `opmærkning`) as OS2mo 2.4.0 keeps it: `ou/create`
 * and the unit edit store it (`backend/mora/service/orgunit.py`@2.4.0, lines 121–141 and 255–260), but no
 * unit read gives it back; the children reads filter by it instead (`org_unit_hierarchy=<class>`, the same
 * file, lines 656–756). So a unit's hierarchy is the class whose filtered listing of the unit's parent (or of
 * the organisation's top level) still holds the unit, and the units of a hierarchy are those its filtered
 * listings hold. The candidates are the classes of the facet `org_unit_hierarchy`, the only ones 2.x offers
 * as hierarchies. Every listing is one GET per request, shared by every unit read here.
 */

/** The facet OS2mo 2.x labels units with. */
export const hierarchyFacet = 'org_unit_hierarchy';

/** The classes of the facet `org_unit_hierarchy` (none when the backend has no such facet). */
export async function hierarchyClasses(context: GraphQLContext): Promise<LegacyRecord[]> {
  const facet = await context.legacy.facet(hierarchyFacet);
  return (facet?.data.items ?? []) as LegacyRecord[];
}

/** The units directly below `parent` (null: the top level) that belong to `hierarchy`, as of `at`. */
async function childrenIn(
  context: GraphQLContext,
  parent: string | null,
  hierarchy: string,
  at: string,
): Promise<LegacyRecord[]> {
  const query = { at, org_unit_hierarchy: hierarchy };
  const path =
    parent === null
      ? legacyPaths.rootOrgUnits(await context.legacy.organisationUuid(), query)
      : legacyPaths.children(parent, query);
  return context.legacy.get<LegacyRecord[]>(path);
}

/** The parent's UUID of a unit as of its date (null at the top), from its record or its own read. */
async function parentOf(source: Source, context: GraphQLContext): Promise<string | null | undefined> {
  const record: LegacyRecord | null =
    'parent' in source ? source : await context.legacy.orgUnit(source.uuid, source.__at);
  if (!record) return undefined;
  const parent = record.parent as LegacyRecord | null | undefined;
  return parent?.uuid ?? null;
}

/**
 * The UUID of the hierarchy a unit belongs to as of its date, or null: the first class of the facet whose
 * filtered listing of the unit's parent holds the unit.
 */
export async function unitHierarchyUuid(source: Source, context: GraphQLContext): Promise<string | null> {
  const [parent, classes] = await Promise.all([parentOf(source, context), hierarchyClasses(context)]);
  if (parent === undefined || classes.length === 0) return null;
  const listings = await Promise.all(
    classes.map((hierarchy) => childrenIn(context, parent, hierarchy.uuid, source.__at)),
  );
  const index = listings.findIndex((listing) => listing.some((unit) => unit.uuid === source.uuid));
  return index === -1 ? null : (classes[index]?.uuid ?? null);
}

/**
 * The units with children as of `at`: the unit listing with `details=nchildren` (its default in 2.4.0,
 * `list_orgunits`, `backend/mora/service/orgunit.py`@2.4.0), one call. A unit it gives no `child_count` is
 * kept.
 */
async function unitsWithChildren(context: GraphQLContext, at: string): Promise<string[]> {
  const page = await context.legacy.get<OrgUnitPageRecord>(
    legacyPaths.orgUnitPage(await context.legacy.organisationUuid(), {
      at,
      start: 0,
      limit: 0,
      details: 'nchildren',
    }),
  );
  return page.items.filter((unit) => unit.child_count !== 0).map((unit) => unit.uuid);
}

/**
 * The UUIDs of the units that belong to any of `hierarchies` as of `at`: the top level's and every unit's
 * children, each listing filtered by one hierarchy (one GET per unit with children and hierarchy, shared by
 * the request; a unit without children has none in any hierarchy, so its listings are not read).
 */
export async function unitsInHierarchies(
  context: GraphQLContext,
  hierarchies: readonly string[],
  at: string,
): Promise<Set<string>> {
  const wanted = [...new Set(hierarchies)];
  if (wanted.length === 0) return new Set();
  const parents = [null, ...(await unitsWithChildren(context, at))];
  const listings = await Promise.all(
    wanted.flatMap((hierarchy) => parents.map((parent) => childrenIn(context, parent, hierarchy, at))),
  );
  return new Set(listings.flat().map((unit) => unit.uuid));
}
