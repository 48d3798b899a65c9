import type { SchemaModule } from '../v30.js';
import { eventResolvers } from './event-resolvers.js';
import { eventTypeDefs } from './event-type-defs.js';
import { refreshMutationFields, refreshResolvers, refreshTypeDefs } from './refresh.js';

/** The first OS2mo version whose printout has the GraphQL event system (`event_fetch`, `me`, …). */
export const firstEventVersion = 29;

/**
 * OS2mo's event system as a part of one version's schema: every version's `*_refresh` mutations in its own
 * shape, and from v29 the event API and `me`.
 */
export function eventModules(version: number): SchemaModule[] {
  const refresh = { typeDefs: refreshTypeDefs(version), resolvers: refreshResolvers(version) };
  return version >= firstEventVersion
    ? [refresh, { typeDefs: eventTypeDefs, resolvers: eventResolvers }]
    : [refresh];
}

/** The Mutation fields these modules serve in one version. */
export function eventMutationFields(version: number): string[] {
  const events = version >= firstEventVersion ? Object.keys(eventResolvers.Mutation as object) : [];
  return [...refreshMutationFields(version), ...events];
}
