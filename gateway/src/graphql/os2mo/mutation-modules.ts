import type { IResolvers } from '@graphql-tools/utils';
import type { GraphQLResolveInfo } from 'graphql';
import type { GraphQLContext } from '../context.js';
import { sendMoEvents, touchedByMutation } from '../../events/mo-events.js';
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
  const resolvers = Object.fromEntries(
    Object.entries(mutations.resolvers).map(([field, resolve]) => [field, withMoEvents(field, resolve)]),
  );
  return {
    typeDefs: `${mutationSupportTypeDefs}\n${mutations.typeDefs}`,
    resolvers: { Date: scalarResolvers.Date, Mutation: resolvers } as IResolvers,
  };
}

type MutationResolver = (
  root: unknown,
  args: never,
  context: GraphQLContext,
  info: GraphQLResolveInfo,
) => Promise<unknown>;

/** A mutation that, once its write has succeeded, sends the "mo" events of what it touched. */
function withMoEvents(field: string, resolve: unknown): MutationResolver {
  const write = resolve as MutationResolver;
  return async (root, args, context, info) => {
    const answer = await write(root, args, context, info);
    const store = context.events?.store;
    if (store) await sendMoEvents(store, touchedByMutation(field, answer), context.log);
    return answer;
  };
}
