import type { IResolvers } from '@graphql-tools/utils';
import { scalarResolvers } from '../scalars.js';
import { os2moMutations, type Os2moVersion } from './mutations/index.js';
import type { SchemaModule } from './v30.js';

/**
 * The read-side types that only OS2mo's mutations name: `Date` (a day, in a few inputs) and the owner
 * inference priority (the Service API stores `engagement_priority` / `association_priority`).
 */
const mutationSupportTypeDefs = `
scalar Date

"""Which of a person's records an owner is inferred from, when the owner record names no owner."""
enum OwnerInferencePriority {
  ENGAGEMENT
  ASSOCIATION
}
`;

/**
 * OS2mo's mutations in one version's own shape, as a part of that version's schema: v30's, with the write
 * half of each rung of the version ladder (`older-versions.ts`) down to it applied.
 */
export function mutationModule(version: Os2moVersion): SchemaModule {
  const mutations = os2moMutations(version);
  return {
    typeDefs: `${mutationSupportTypeDefs}\n${mutations.typeDefs}`,
    resolvers: { Date: scalarResolvers.Date, Mutation: mutations.resolvers } as IResolvers,
  };
}
