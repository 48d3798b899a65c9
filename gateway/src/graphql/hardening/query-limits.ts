import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { getOperationAST, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GraphQLLimits } from '../../config.js';
import { weightedCost } from './weighted-cost.js';

/**
 * What a client sees when a document breaks a limit: what to change, never the limit itself (a number to
 * probe against helps an attacker tune a query just below it more than it helps a real client).
 */
const refusals = {
  tokens: ['QUERY_TOO_LONG', 'The query document is too long. Split it into several smaller queries.'],
  depth: [
    'QUERY_TOO_DEEP',
    'The query is nested too deeply. Select fewer levels at once, or start a second query from the inner objects.',
  ],
  aliases: ['TOO_MANY_ALIASES', 'The query uses too many aliases. Split it into several queries.'],
  directives: ['TOO_MANY_DIRECTIVES', 'The query uses too many directives. Remove repeated directives.'],
  cost: [
    'QUERY_TOO_COMPLEX',
    'The query asks for too much at once. Select fewer fields, or split it into several queries.',
  ],
} as const satisfies Record<string, readonly [string, string]>;

/**
 * Our refusal in place of GraphQL Armor's. Like any parse or validation error (GraphQL over HTTP): 400 for
 * `application/graphql-response+json`, 200 with `errors` and no `data` for `application/json`.
 */
function refusal(kind: keyof typeof refusals): GraphQLError {
  const [code, message] = refusals[kind];
  return new GraphQLError(message, { extensions: { code, http: { spec: true, status: 400 } } });
}

/** Armor's rejection replaced with ours; thrown, it stops parsing or validation at once. */
function refuse(kind: keyof typeof refusals): () => never {
  return () => {
    throw refusal(kind);
  };
}

type ArmorConfig = NonNullable<Parameters<typeof EnvelopArmorPlugin>[0]>;

const allOff: ArmorConfig = {
  maxTokens: { enabled: false },
  maxDepth: { enabled: false },
  maxAliases: { enabled: false },
  maxDirectives: { enabled: false },
  costLimit: { enabled: false },
  // Suggestions are `useHiddenSuggestions`' job, and depend on configuration.
  blockFieldSuggestion: { enabled: false },
};

/**
 * Token, depth, alias and directive limits (GraphQL Armor), checked while a document is parsed and
 * validated, and Armor's cost model weighted by `limit`, checked for every request with its own variables
 * just before its operation executes (validation results are cached per document, and the cost depends on
 * the variables): a request over a limit never executes, so it never reaches the legacy service.
 * One Armor instance per limit fixes the order they are checked in, so a deep query is reported as deep
 * rather than as costly (depth also multiplies the cost).
 *
 * @example
 * createYoga({ schema, plugins: [useQueryLimits({ maxDepth: 20, maxAliases: 30, maxTokens: 2000, maxCost: 20000, maxDirectives: 20 })] });
 */
export function useQueryLimits(limits: GraphQLLimits): Plugin {
  const common = { enabled: true, exposeLimits: false, propagateOnRejection: true } as const;
  const ordered: ArmorConfig[] = [
    { maxTokens: { ...common, n: limits.maxTokens, onReject: [refuse('tokens')] } },
    { maxDepth: { ...common, n: limits.maxDepth, onReject: [refuse('depth')] } },
    { maxAliases: { ...common, n: limits.maxAliases, onReject: [refuse('aliases')] } },
    { maxDirectives: { ...common, n: limits.maxDirectives, onReject: [refuse('directives')] } },
  ];
  // Armor's cost model, weighing `limit` (see weighted-cost.ts); checked last, like Armor's own.
  const cost: Plugin = {
    onExecute({ args, setResultAndStopExecution }) {
      const operation = getOperationAST(args.document, args.operationName);
      if (!operation) return;
      const { schema, document, variableValues: variables } = args;
      if (weightedCost({ schema, document, operation, variables }) > limits.maxCost) {
        setResultAndStopExecution({ errors: [refusal('cost')] });
      }
    },
  };
  const plugins = [...ordered.map((config) => EnvelopArmorPlugin({ ...allOff, ...config }) as Plugin), cost];
  return {
    onPluginInit({ addPlugin }) {
      for (const plugin of plugins) addPlugin(plugin);
    },
  };
}
