import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import { entityResolvers, listLink, singleLink } from './resolvers/entities.js';
import { hierarchyResolvers } from './resolvers/hierarchy.js';
import { mutationResolvers } from './resolvers/mutations.js';
import type { IResolvers } from '@graphql-tools/utils';
import { stepTypeDefs, versionSteps } from './os2mo/older-versions.js';
import { eventModules } from './os2mo/events/index.js';
import { mutationModule } from './os2mo/mutation-modules.js';
import { v30Resolvers, v30TypeDefs, type SchemaModule } from './os2mo/v30.js';
import type { Os2moVersion } from './os2mo/mutations/index.js';
import { organisationResolvers } from './resolvers/organisation.js';
import { v1QueryResolvers } from './resolvers/v1-query.js';
import { v2QueryResolvers } from './resolvers/v2-query.js';
import { scalarResolvers } from './scalars.js';
import { mutationTypeDefs } from './schema/mutation-types.js';
import { readOrgGraphTypeDefs } from './schema/org-graph.js';
import { v1EntityTypeDefs } from './schema/v1-transform.js';
import { v1RootTypeDefs } from './schema/v1-root.js';
import { v2RootTypeDefs } from './schema/v2-root.js';

export interface GraphQLVersion {
  name: string;
  /**
   * Made on its first read (an older OS2mo version's is a rung down from the next one's), so a rung that
   * fails fails that version's requests, each time; the committed SDL snapshots make every version in CI.
   */
  readonly typeDefs: string;
  /** Built on its first read. */
  readonly schema: GraphQLSchema;
}

/** A value made on its first read and kept. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** The gateway's own scalar, beside the org graph's `UUID` and `Date`. */
const gatewayScalarTypeDefs = 'scalar Cursor\n';

/** No parts beyond OS2mo's own: what a served gateway builds v30 with. */
const noExtra: readonly SchemaModule[] = [];

/** The gateway's own versions' SDL: the generated org graph (v2 as it is, v1 through its documented transform). */
function ownTypeDefs(graphTypeDefs: string): { v1: string; v2: string } {
  const shared = gatewayScalarTypeDefs + mutationTypeDefs;
  return {
    v1: v1EntityTypeDefs(graphTypeDefs) + shared + v1RootTypeDefs,
    v2: graphTypeDefs + shared + v2RootTypeDefs,
  };
}

/**
 * Each version's SDL: the generated org graph (v2 as it is, v1 through its documented transform) with
 * the version's own root fields and pages, and the mutations both share; v30 with OS2mo's mutations and
 * `v30Extra`, parts a test adds.
 */
export function versionTypeDefs(
  graphTypeDefs: string = readOrgGraphTypeDefs(),
  v30Extra: readonly SchemaModule[] = noExtra,
): { v1: string; v2: string; v30: string } {
  return {
    ...ownTypeDefs(graphTypeDefs),
    v30: [
      v30TypeDefs(graphTypeDefs),
      mutationModule(30).typeDefs,
      ...eventModules(30).map((module) => module.typeDefs),
      ...v30Extra.map((module) => module.typeDefs),
    ].join('\n'),
  };
}

function version(
  name: string,
  typeDefs: () => string,
  resolvers: () => Parameters<typeof makeExecutableSchema>[0]['resolvers'],
  /** An older OS2mo version keeps the newer one's resolvers, some for fields it no longer has. */
  extraResolvers: 'error' | 'ignore' = 'error',
): GraphQLVersion {
  // Built on its first read (synchronously, so two first requests cannot build it twice): a gateway that
  // serves twelve versions holds only the schemas, and the SDL, its callers use.
  const schema = once(() =>
    makeExecutableSchema({
      typeDefs: typeDefs(),
      resolvers: resolvers(),
      resolverValidationOptions: { requireResolversToMatchSchema: extraResolvers },
      // The SDL is ours and already valid: a schema built with its tokens' locations keeps the whole token
      // stream alive through its types' AST nodes (2 MB for v30).
      noLocation: true,
    }),
  );
  return {
    name,
    get typeDefs() {
      return typeDefs();
    },
    get schema() {
      return schema();
    },
  };
}

/** The versions last built and what decided them: the org graph's SDL and v30's extra modules. */
let lastBuilt:
  | { graphTypeDefs: string; v30Extra: readonly SchemaModule[]; versions: readonly GraphQLVersion[] }
  | undefined;

/**
 * Every version the gateway serves, oldest first; the last one is the newest. `v30Extra` are parts a test
 * adds to v30. The schemas depend on nothing else, so the last build is kept and handed out again: a
 * process that starts several gateways (a test file, the benchmark) builds the twelve schemas once.
 */
export function buildVersions(
  graphTypeDefs: string = readOrgGraphTypeDefs(),
  v30Extra: readonly SchemaModule[] = noExtra,
): GraphQLVersion[] {
  if (lastBuilt?.graphTypeDefs !== graphTypeDefs || lastBuilt.v30Extra !== v30Extra) {
    lastBuilt = { graphTypeDefs, v30Extra, versions: constructVersions(graphTypeDefs, v30Extra) };
  }
  return [...lastBuilt.versions];
}

function constructVersions(graphTypeDefs: string, v30Extra: readonly SchemaModule[]): GraphQLVersion[] {
  // v30's SDL is made by its own chain below (`os2moVersions`), not twice.
  const typeDefs = once(() => ownTypeDefs(graphTypeDefs));
  const v1Query = v1QueryResolvers();
  const v2Query = v2QueryResolvers();
  return [
    version(
      'v1',
      () => typeDefs().v1,
      () => [
        {
          ...scalarResolvers,
          ...entityResolvers(listLink),
          Query: v1Query,
          Mutation: mutationResolvers(),
        },
        hierarchyResolvers(),
        organisationResolvers('v1', v1Query),
      ],
    ),
    version(
      'v2',
      () => typeDefs().v2,
      () => [
        {
          ...scalarResolvers,
          ...entityResolvers(singleLink),
          Query: v2Query,
          Mutation: mutationResolvers(),
        },
        hierarchyResolvers(),
        organisationResolvers('v2', v2Query),
      ],
    ),
    ...os2moVersions(
      once(() => v30TypeDefs(graphTypeDefs)),
      once(() => v30Resolvers(graphTypeDefs)),
      (name) => [
        mutationModule(versionNumber(name)),
        ...eventModules(versionNumber(name)),
        ...(name === 'v30' ? v30Extra : []),
      ],
    ),
  ];
}

const versionNumber = (name: string) => Number(name.slice(1)) as Os2moVersion;

type Resolvers = Parameters<typeof makeExecutableSchema>[0]['resolvers'];

/**
 * OS2mo's versions, oldest first: v30, and each older one a rung down the ladder from the next
 * (`older-versions.ts`), its read SDL transformed and its read resolvers those of the next with the rung's
 * own on top; each then gets its own version's modules (OS2mo's mutations, down the same rungs).
 */
function os2moVersions(
  v30TypeDefs: () => string,
  v30Resolvers: () => IResolvers[],
  modulesOf: (name: string) => readonly SchemaModule[],
): GraphQLVersion[] {
  const chain = [{ name: 'v30', typeDefs: v30TypeDefs, resolvers: v30Resolvers }];
  for (const step of versionSteps) {
    const newer = chain[chain.length - 1]!;
    chain.push({
      name: step.name,
      typeDefs: once(() => stepTypeDefs(newer.typeDefs(), step)),
      resolvers: once(() => (step.resolvers ? [...newer.resolvers(), step.resolvers] : newer.resolvers())),
    });
  }
  return chain.reverse().map((entry) => {
    const modules = once(() => modulesOf(entry.name));
    return version(
      entry.name,
      once(() => [entry.typeDefs(), ...modules().map((module) => module.typeDefs)].join('\n')),
      () => [...entry.resolvers(), ...modules().map((module) => module.resolvers)] as Resolvers,
      entry.name === 'v30' ? 'error' : 'ignore',
    );
  });
}
