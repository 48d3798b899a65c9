import { os2moMutationResolvers, type Os2moMutationOptions } from './resolvers.js';
import { os2moMutationTypeDefs } from './type-defs.js';

export { omittedInputFields, omittedMutationFields, type Omission } from './omissions.js';
export { newestMutationOptions, type Os2moMutationOptions } from './resolvers.js';
export { referencedTypes } from './type-defs.js';

/**
 * OS2mo's mutations for one version: the SDL of `type Mutation` and its input types, and the resolvers.
 * The SDL names but does not define the response types and scalars (`referencedTypes`): the version's read
 * side does. Each resolver answers `{ uuid }`, the root of OS2mo's `XResponse`.
 *
 * @example
 * const mutations = os2moMutations();
 * makeExecutableSchema({
 *   typeDefs: [readTypeDefs, mutations.typeDefs],
 *   resolvers: [readResolvers, { Mutation: mutations.resolvers }],
 * });
 */
export function os2moMutations(options?: Os2moMutationOptions) {
  return { typeDefs: os2moMutationTypeDefs, resolvers: os2moMutationResolvers(options) };
}
