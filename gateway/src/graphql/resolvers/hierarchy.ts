import { valueFromASTUntyped, type GraphQLResolveInfo } from 'graphql';
import type { GraphQLContext, Source } from '../context.js';
import { withDate } from '../context.js';
import type { LegacyRecord } from '../../legacy/legacy-loaders.js';
import { childFieldNames, selectedFields } from './lookahead.js';

/** `ValidityScope` as the Service API's `validity` parameter spells it. */
type Scope = 'PAST' | 'PRESENT' | 'FUTURE';
const legacyScope = (scope: Scope | undefined) =>
  (scope ?? 'PRESENT').toLowerCase() as 'past' | 'present' | 'future';

/**
 * The date a version's links are read as of: the date asked for, moved inside the version's validity (a
 * past version's last day, a future version's first), so its parent, type and details are the ones it had.
 */
function dateInside(record: LegacyRecord, at: string): string {
  const validity = record.validity as { from?: string; to?: string | null } | undefined;
  if (validity?.from && at < validity.from) return validity.from;
  if (validity?.to && at > validity.to) return validity.to;
  return at;
}

/** The class fields a children listing carries (or that resolve without the class's own read). */
const listedClassFields = new Set([
  'uuid',
  'name',
  'user_key',
  'child_count',
  'children',
  'facet',
  '__typename',
]);

const isRecord = (value: unknown): value is LegacyRecord =>
  typeof value === 'object' && value !== null && 'uuid' in value;

/**
 * The ancestors of a unit, nearest first. A full unit record embeds its parent in full up to the top, so
 * the chain costs the unit's own read at most (none when the source is a full record); a link in the chain
 * without its own `parent` (a reference only) is read in full.
 */
async function ancestorsOf(source: Source, context: GraphQLContext): Promise<Source[]> {
  const ancestors: Source[] = [];
  let current: LegacyRecord | null =
    'parent' in source ? source : await context.legacy.orgUnit(source.uuid, source.__at);
  const seen = new Set<string>([source.uuid]);
  while (current) {
    let parent: unknown = current.parent;
    if (!isRecord(parent) || seen.has(parent.uuid)) break;
    if (!('parent' in parent)) parent = await context.legacy.orgUnit(parent.uuid, source.__at);
    if (!isRecord(parent)) break;
    seen.add(parent.uuid);
    ancestors.push(withDate(parent, source.__at));
    current = parent;
  }
  return ancestors;
}

/**
 * The hierarchy and history fields of the org graph (declared in `.meshrc.yaml`): a unit's ancestors and
 * child count, a class's children and child count, a facet's top-level classes, and the versions of a unit
 * or a person. Each reads one legacy listing through the request's loaders, or what the source carries.
 */
export function hierarchyResolvers() {
  /**
   * A children listing names a class and counts its children; when the selection asks for more (its
   * scope, example, …), each class is read in full once (the same read `Class.facet` makes).
   */
  const asClasses = async (
    records: LegacyRecord[],
    source: Source,
    context: GraphQLContext,
    info: GraphQLResolveInfo,
  ) => {
    const needsFull = childFieldNames(info, []).some((name) => !listedClassFields.has(name));
    return Promise.all(
      records.map(async (record) => ({
        ...(needsFull ? await context.legacy.classWithFacet(record.uuid) : {}),
        ...withDate(record, source.__at),
      })),
    );
  };
  return {
    OrgUnit: {
      ancestors: (source: Source, _args: unknown, context: GraphQLContext) => ancestorsOf(source, context),
      // A children listing's or a tree's unit carries its count; otherwise it is the children listing's length.
      child_count: async (source: Source, _args: unknown, context: GraphQLContext) =>
        typeof source.child_count === 'number'
          ? source.child_count
          : (await context.legacy.children(source.uuid, source.__at)).length,
      validities: async (source: Source, args: { validity?: Scope }, context: GraphQLContext) =>
        (await context.legacy.orgUnitVersions(source.uuid, source.__at, legacyScope(args.validity))).map(
          (record) => withDate(record, dateInside(record, source.__at)),
        ),
    },
    Employee: {
      validities: async (source: Source, args: { validity?: Scope }, context: GraphQLContext) =>
        (await context.legacy.employeeVersions(source.uuid, source.__at, legacyScope(args.validity))).map(
          (record) => withDate(record, dateInside(record, source.__at)),
        ),
    },
    Class: {
      children: async (source: Source, _args: unknown, context: GraphQLContext, info: GraphQLResolveInfo) =>
        asClasses(await context.legacy.classChildren(source.uuid), source, context, info),
      child_count: async (source: Source, _args: unknown, context: GraphQLContext) =>
        typeof source.child_count === 'number'
          ? source.child_count
          : (await context.legacy.classChildren(source.uuid)).length,
    },
    Facet: {
      top_level_classes: async (
        source: Source,
        _args: unknown,
        context: GraphQLContext,
        info: GraphQLResolveInfo,
      ) => asClasses(await context.legacy.facetChildren(source.uuid), source, context, info),
    },
  };
}

/**
 * Starts, in the same round as the units or people themselves, the version listings (`validities`, with
 * the scope each selection asks for) and, for units, the children listings `child_count` counts: reads
 * the query makes anyway, so it needs one dependent round fewer.
 */
export function prefetchHierarchy(
  info: GraphQLResolveInfo,
  context: GraphQLContext,
  kind: 'unit' | 'employee',
  uuids: readonly string[],
  at: string,
): void {
  const loads: ((uuid: string) => Promise<unknown>)[] = [];
  for (const node of selectedFields(info, ['objects', 'validities'])) {
    const argument = node.arguments?.find((arg) => arg.name.value === 'validity');
    const value = argument ? valueFromASTUntyped(argument.value, info.variableValues) : undefined;
    const scope = legacyScope(typeof value === 'string' ? (value as Scope) : undefined);
    loads.push((uuid) =>
      kind === 'unit'
        ? context.legacy.orgUnitVersions(uuid, at, scope)
        : context.legacy.employeeVersions(uuid, at, scope),
    );
  }
  if (kind === 'unit' && selectedFields(info, ['objects', 'child_count']).length > 0)
    loads.push((uuid) => context.legacy.children(uuid, at));
  // The resolver awaits the same cached promise and reports its error; this one must not be unhandled.
  for (const uuid of uuids) for (const load of loads) load(uuid).catch(() => undefined);
}
