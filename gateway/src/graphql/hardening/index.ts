import type { Plugin } from 'graphql-yoga';
import type { GraphQLLimits } from '../../config.js';
import { useAnswerBudget } from './answer-budget.js';
import { useHiddenSuggestions } from './hidden-suggestions.js';
import { useQueryLimits } from './query-limits.js';
import { useVariableLimits } from './variable-limits.js';

export { useAnswerBudget } from './answer-budget.js';
export { useHiddenSuggestions } from './hidden-suggestions.js';
export { useQueryLimits } from './query-limits.js';
export { useVariableLimits } from './variable-limits.js';

export interface HardeningOptions {
  limits: GraphQLLimits;
  /** Keep graphql-js's "Did you mean …?" hints (development, or wherever introspection is on anyway). */
  fieldSuggestions: boolean;
}

/**
 * Everything that stops an abusive request: the variables' limits and the query limits before it executes,
 * the answer's budget while it does, and hidden field suggestions unless they are allowed. Batching, the body limit and introspection are set elsewhere
 * (the Yoga options, the Hono route and `useNoIntrospection`).
 *
 * @example
 * plugins: [useHardening({ limits: config.graphqlLimits, fieldSuggestions: config.fieldSuggestions })]
 */
export function useHardening(options: HardeningOptions): Plugin {
  const { limits } = options;
  const plugins = [
    useVariableLimits({
      maxBytes: limits.maxVariablesBytes,
      maxDepth: limits.maxVariablesDepth,
      maxListLength: limits.maxVariablesListLength,
    }),
    useQueryLimits(limits),
    useAnswerBudget({ maxObjects: limits.maxAnswerObjects }),
    ...(options.fieldSuggestions ? [] : [useHiddenSuggestions()]),
  ];
  return {
    onPluginInit({ addPlugin }) {
      for (const plugin of plugins) addPlugin(plugin);
    },
  };
}
