import { GraphQLError } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';

/** graphql-js appends these to validation and variable errors: " Did you mean "name"?", "… the enum value …?". */
const suggestion = /\s*Did you mean [^?]*\?/g;

function withoutSuggestion<E extends Error>(error: E): E | GraphQLError {
  if (!(error instanceof GraphQLError) || !error.message.includes('Did you mean')) return error;
  return new GraphQLError(error.message.replace(suggestion, ''), {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: error.extensions,
  });
}

/**
 * Removes "Did you mean …?" from errors, which would otherwise spell out field, argument, type and enum
 * names to a client that may not introspect. Covers validation errors and variable errors (raised when
 * execution starts). GraphQL Armor's block-field-suggestions only covers the first, with a visible mask.
 *
 * @example
 * createYoga({ schema, plugins: [useHiddenSuggestions()] });
 */
export function useHiddenSuggestions(): Plugin {
  return {
    onValidate() {
      return ({ valid, result, setResult }) => {
        if (!valid) setResult(result.map(withoutSuggestion));
      };
    },
    onExecute() {
      return {
        onExecuteDone({ result, setResult }) {
          if (isAsyncIterable(result) || result.errors === undefined) return;
          setResult({ ...result, errors: result.errors.map(withoutSuggestion) });
        },
      };
    },
  };
}
