import { GraphQLError, type ExecutionResult } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';

/**
 * An error of a request that could not run at all (variables that fail coercion, an operation name the
 * document lacks): a `400` for `application/graphql-response+json`, as the GraphQL-over-HTTP draft asks of an
 * answer without `data` (`spec: true` keeps `application/json`'s `200`, as Yoga does for validation errors),
 * with a code. The scalar's own error is dropped as `originalError`, so Yoga's mask does not turn the
 * client's mistake into an unexpected error; its sentence is already in the message.
 */
function asRequestError(error: GraphQLError): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions: {
      ...error.extensions,
      code: error.extensions.code ?? 'BAD_USER_INPUT',
      http: { spec: true, status: 400 },
    },
  });
}

/**
 * Yoga's JSON parser puts the parser's own error in `extensions.originalError`; clients never see it. Yoga
 * reads that entry to answer `400` rather than `200` for `application/json` too, so the status stays, for
 * every media type.
 */
function withoutParserInternals(error: GraphQLError): GraphQLError {
  const { originalError: _internal, http, ...rest } = error.extensions;
  const status = (http as { status?: number } | undefined)?.status ?? 400;
  const extensions = { ...rest, http: { status } };
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions,
  });
}

type Result = ExecutionResult | readonly ExecutionResult[];

function hasParserInternals(result: Result): result is ExecutionResult {
  return (
    !Array.isArray(result) &&
    (result as ExecutionResult).errors?.some((e) => 'originalError' in e.extensions) === true
  );
}

/**
 * GraphQL over HTTP as the draft says it, on both roads (the JSON exchange and Yoga's own): an answer
 * without `data` is a `4xx` for `application/graphql-response+json`, every such error has a code, and no
 * parser internals reach the client.
 *
 * @example
 * createYoga({ schema, plugins: [useGraphqlOverHttp(), …] });
 */
export function useGraphqlOverHttp(): Plugin {
  return {
    onExecute() {
      return {
        onExecuteDone({ result, setResult }) {
          if (isAsyncIterable(result) || 'data' in result || !result.errors?.length) return;
          setResult({ ...result, errors: result.errors.map(asRequestError) });
        },
      };
    },
    onResultProcess({ result, setResult }) {
      if (!hasParserInternals(result as Result)) return;
      const single = result as ExecutionResult;
      setResult({ ...single, errors: single.errors!.map(withoutParserInternals) });
    },
  };
}
