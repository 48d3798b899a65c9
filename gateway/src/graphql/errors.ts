import { GraphQLError } from 'graphql';
import type { Context, ErrorHandler } from 'hono';
import type { Plugin } from 'graphql-yoga';
import { GatewayError, unexpectedError } from '../errors/gateway-error.js';
import type { UnexpectedErrorLog } from '../errors/legacy-error-body.js';
import { upstreamError } from '../legacy/upstream-error.js';

/** A gateway error's GraphQL `extensions`: its code, the legacy `error_key` of a business error, its context. */
export function graphqlExtensions(error: GatewayError): Record<string, unknown> {
  return {
    code: error.code,
    ...(error.fromLegacyService ? { error_key: error.errorKey } : {}),
    ...error.context,
  };
}

const graphqlResponseType = 'application/graphql-response+json';

/**
 * Whether the client accepts `application/graphql-response+json` (GraphQL over HTTP): then the gateway's
 * own failures use it, as Yoga does for the rest, and clients such as Apollo Client read the errors instead
 * of reporting a bare server error. `q=0` means "not this one".
 */
function acceptsGraphqlResponse(c: Context): boolean {
  return (c.req.header('accept') ?? '').split(',').some((range) => {
    const [type, ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    if (type !== graphqlResponseType) return false;
    const q = params.find((param) => param.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/**
 * `onError` for `/graphql` routes: a `GatewayError` as a GraphQL body, in the media type the client asked
 * for; anything else logged and masked.
 */
export function graphqlErrorHandler(logUnexpected: UnexpectedErrorLog): ErrorHandler {
  return (error, c: Context) => {
    const known = error instanceof GatewayError ? error : unexpectedError();
    if (known !== error) logUnexpected(c, error);
    for (const [name, value] of Object.entries(known.headers)) c.header(name, value);
    const body = { errors: [{ message: known.message, extensions: graphqlExtensions(known) }] };
    if (!acceptsGraphqlResponse(c)) return c.json(body, known.status);
    return c.body(JSON.stringify(body), known.status, {
      'content-type': `${graphqlResponseType}; charset=utf-8`,
    });
  };
}

/** A resolver's legacy failure or `GatewayError` as the GraphQL error users see; others are left to the mask. */
export function mapLegacyError(error: GraphQLError): GraphQLError {
  const known = error.originalError instanceof GraphQLError ? undefined : upstreamError(error.originalError);
  if (!known) return error;
  return new GraphQLError(known.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions: graphqlExtensions(known),
  });
}

/**
 * The one place resolver failures from the legacy service become what users see: its sentence and code,
 * never its address, headers or stack. Registered before the operation observer, which then logs only what
 * is truly unexpected; Yoga's mask hides the rest.
 */
export function useLegacyErrors(): Plugin {
  return {
    onExecute() {
      return {
        onExecuteDone({ result, setResult }) {
          if (!('errors' in result) || !result.errors?.length) return;
          setResult({ ...result, errors: result.errors.map(mapLegacyError) });
        },
      };
    },
  };
}

export function badUserInput(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
}
