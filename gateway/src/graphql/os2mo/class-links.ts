import type { GraphQLContext, Source } from '../context.js';
import { withDate } from '../context.js';
import type { LegacyRecord } from '../../legacy/legacy-loaders.js';
import { oneResponse } from './link-responses.js';

/** The facet a class belongs to: the one a detail record's class embeds, else the class's own read. */
async function facetOf(source: Source, context: GraphQLContext): Promise<string | null> {
  const embedded = source.facet as LegacyRecord | null | undefined;
  if (embedded?.uuid) return embedded.uuid;
  return (await context.legacy.classWithFacet(source.uuid))?.facet?.uuid ?? null;
}

/**
 * The UUID of the class directly above a class, null at the top of its facet. The Service API names a
 * class's children (`/c/{uuid}/children`) but not its parent, so the facet's tree is walked from its
 * top-level classes (`/f/{facet}/children`), one level per round, opening only classes that have children;
 * every listing is one GET per request, shared by all the classes of the facet.
 */
export async function classParentUuid(source: Source, context: GraphQLContext): Promise<string | null> {
  const facet = await facetOf(source, context);
  if (facet === null) return null;
  const top = await context.legacy.facetChildren(facet);
  if (top.some((child) => child.uuid === source.uuid)) return null;
  const opened = new Set<string>();
  let level = top.filter((child) => child.child_count > 0).map((child) => child.uuid);
  while (level.length > 0) {
    level = level.filter((uuid) => !opened.has(uuid));
    level.forEach((uuid) => opened.add(uuid));
    const listings = await Promise.all(level.map((uuid) => context.legacy.classChildren(uuid)));
    const parent = level.find((_uuid, index) => listings[index]?.some((child) => child.uuid === source.uuid));
    if (parent !== undefined) return parent;
    level = listings.flat().flatMap((child) => (child.child_count > 0 ? [child.uuid] : []));
  }
  return null;
}

/** OS2mo's `Class.parent`: the parent class in full (its own read), null at the top. */
export async function classParent(source: Source, _args: unknown, context: GraphQLContext) {
  const parent = await classParentUuid(source, context);
  const record = parent === null ? null : await context.legacy.classWithFacet(parent);
  return record ? withDate(record, source.__at) : null;
}

/** OS2mo's `Class.parent_response`: the parent's response root, null at the top. */
export async function classParentResponse(source: Source, _args: unknown, context: GraphQLContext) {
  return oneResponse(await classParentUuid(source, context), { kind: 'class' }, source, context.today);
}

/**
 * OS2mo's `org_uuid` of a class or facet: the organisation responsible for it (LoRa's `ansvarlig`). OS2mo
 * 2.x keeps one organisation, lists facets by it (2.4.0's `service/facet.py`, `list_facets`:
 * `ansvarlig=orgid`) and writes it into every class it creates (`common.py`, `create_klasse_payload`).
 */
export async function organisationOf(_source: Source, _args: unknown, context: GraphQLContext) {
  return context.legacy.organisationUuid();
}
