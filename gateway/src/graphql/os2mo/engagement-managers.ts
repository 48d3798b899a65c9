import type { GraphQLResolveInfo } from 'graphql';
import { withDate, type GraphQLContext, type Source } from '../context.js';
import type { LegacyRecord } from '../../legacy/legacy-loaders.js';
import { detailObjects, windowOf, type Filter } from './collection-resolvers.js';
import type { LinkFilter } from './link-filters.js';

interface ManagersArgs {
  inherit?: boolean;
  exclude_self?: boolean;
  filter?: LinkFilter | null;
}

const uuidOf = (value: unknown): string | null =>
  value && typeof value === 'object' && 'uuid' in value ? String((value as LegacyRecord).uuid) : null;

/**
 * `Engagement.managers(inherit, exclude_self)`: the managers of the engagement's unit; when it has none and
 * `inherit` is set, those of the nearest ancestor that has some. With `exclude_self`, the engagement's own
 * person never counts, so the walk goes on past a unit the person manages alone (OS2mo's
 * `mora/graphapi/collections/engagement.py`, `managers`). Without it, the Service API's `inherit_manager`
 * answers in one read.
 */
export async function engagementManagers(
  source: Source,
  args: ManagersArgs,
  context: GraphQLContext,
  info: GraphQLResolveInfo,
): Promise<Source[]> {
  const at = source.__at;
  const unit = uuidOf(source.org_unit);
  if (!unit) return [];
  const inherit = args.inherit === true;
  if (args.filter) return filteredManagers(source, unit, args, context, info);
  if (!args.exclude_self) {
    const managers = await context.legacy.unitDetails('manager', unit, { at, inherit });
    return managers.map((manager) => withDate(manager, at));
  }
  const self = uuidOf(source.person);
  const visited = new Set<string>();
  for (let current: string | null = unit; current && !visited.has(current);) {
    visited.add(current);
    const managers = await context.legacy.unitDetails('manager', current, { at });
    const others = managers.filter((manager) => self === null || uuidOf(manager.person) !== self);
    if (others.length > 0 || !inherit) return others.map((manager) => withDate(manager, at));
    current = uuidOf((await context.legacy.orgUnit(current, at))?.parent);
  }
  return [];
}

/**
 * With OS2mo's `filter` (the unit's bound manager filter): the managers query OS2mo seeds with the
 * engagement's unit, and with its person as `exclude` for `exclude_self` (`collections/engagement.py`@HEAD),
 * over the filter's window (absent: today, as OS2mo's `get_date_interval`), the same walk as
 * `managers(inherit: true)` finds for the root collection.
 */
async function filteredManagers(
  source: Source,
  unit: string,
  args: ManagersArgs,
  context: GraphQLContext,
  info: GraphQLResolveInfo,
): Promise<Source[]> {
  const filter = args.filter ?? {};
  const self = uuidOf(source.person);
  // The window is the filter's own; every other member narrows as the managers collection's filter does.
  const { from_date: _from, to_date: _to, ...members } = filter;
  const seeded: Filter = {
    ...members,
    org_unit: { uuids: [unit] },
    ...(args.exclude_self && self ? { exclude: { uuids: [self] } } : {}),
  };
  const window = windowOf(filter as Filter, info, context.today);
  return detailObjects(context, 'manager', seeded, window, args.inherit === true);
}
