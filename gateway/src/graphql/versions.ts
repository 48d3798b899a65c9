import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import { entityResolvers, listLink, singleLink } from './resolvers/entities.js';
import { mutationResolvers } from './resolvers/mutations.js';
import { v1QueryResolvers } from './resolvers/v1-query.js';
import { v2QueryResolvers } from './resolvers/v2-query.js';
import { scalarResolvers } from './scalars.js';
import { entityTypeDefs, v1Shape, v2Shape } from './schema/entity-types.js';
import { mutationTypeDefs } from './schema/mutation-types.js';
import { v1RootTypeDefs } from './schema/v1-root.js';
import { v2RootTypeDefs } from './schema/v2-root.js';

export interface GraphQLVersion {
  name: string;
  typeDefs: string;
  schema: GraphQLSchema;
}

function version(
  name: string,
  typeDefs: string,
  resolvers: Parameters<typeof makeExecutableSchema>[0]['resolvers'],
) {
  return { name, typeDefs, schema: makeExecutableSchema({ typeDefs, resolvers }) };
}

/** Every version the gateway serves, oldest first; the last one is the newest. */
export function buildVersions(): GraphQLVersion[] {
  return [
    version('v1', entityTypeDefs(v1Shape) + mutationTypeDefs + v1RootTypeDefs, {
      ...scalarResolvers,
      ...entityResolvers(listLink),
      Query: v1QueryResolvers(),
      Mutation: mutationResolvers(),
    }),
    version('v2', entityTypeDefs(v2Shape) + mutationTypeDefs + v2RootTypeDefs, {
      ...scalarResolvers,
      ...entityResolvers(singleLink),
      Query: v2QueryResolvers(),
      Mutation: mutationResolvers(),
    }),
  ];
}
