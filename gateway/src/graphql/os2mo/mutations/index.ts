import { os2moMutationResolvers } from './resolvers.js';
import { os2moMutationTypeDefs } from './type-defs.js';
import { mutationVersion, type Os2moVersion } from './versions.js';

export { omittedInputFields, omittedMutationFields, type Omission } from '../ledger/index.js';
export { newestMutationOptions, type Os2moMutationOptions } from './resolvers.js';
export { referencedTypes } from './type-defs.js';
export { os2moVersions, type Os2moVersion } from './versions.js';

/**
 * OS2mo's mutations for one of its versions (default v30): the SDL of `type Mutation` and its input types,
 * the resolvers, and what this version leaves out beyond `omittedMutationFields`/`omittedInputFields`. The SDL
 * names but does not define the response types and scalars (`referencedTypes`): the version's read side
 * does. Each resolver answers `{ uuid }`, the root of OS2mo's `XResponse`.
 *
 * @example
 * const mutations = os2moMutations(30);
 * makeExecutableSchema({
 *   typeDefs: [readTypeDefs, mutations.typeDefs],
 *   resolvers: [readResolvers, { Mutation: mutations.resolvers }],
 * });
 */
export function os2moMutations(version: Os2moVersion = 30) {
  const { typeDefs, fields, options, omits } = mutationVersion(os2moMutationTypeDefs, version);
  const resolvers = os2moMutationResolvers(options);
  return {
    typeDefs,
    resolvers: Object.fromEntries(Object.entries(resolvers).filter(([name]) => fields.includes(name))),
    omits,
  };
}
