import { GraphQLError, type ValidationRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** A mistake in how the client sent its request: 400 with Yoga's code for malformed requests. */
function badRequest(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });
}

/** GET parameters that Yoga reads as JSON, and throws on (a 500) when they are not. */
const jsonParameters = ['variables', 'extensions'] as const;

/** Refuses a GET whose `variables` or `extensions` is not JSON, naming the parameter. */
function checkJsonParameters(request: Request): void {
  if (request.method !== 'GET') return;
  const { searchParams } = new URL(request.url);
  for (const name of jsonParameters) {
    const value = searchParams.get(name);
    if (!value) continue;
    try {
      JSON.parse(value);
    } catch {
      throw badRequest(`The \`${name}\` parameter is not JSON: send a JSON object, URL-encoded.`);
    }
  }
}

/** A subscription sent to a schema that has none: refused as an invalid document, with its own code. */
const subscriptionsUnsupported: ValidationRule = (context) => ({
  OperationDefinition(operation) {
    if (operation.operation !== 'subscription' || context.getSchema().getSubscriptionType()) return;
    context.reportError(
      new GraphQLError('This API has no subscriptions: send a query, or a mutation with POST.', {
        nodes: operation,
        extensions: { code: 'SUBSCRIPTIONS_NOT_SUPPORTED' },
      }),
    );
  },
});

/**
 * Client mistakes in the request itself answered as such (400, a code and a sentence), where Yoga or a
 * later plugin would otherwise fail on them with 500 "Unexpected error.": a GET whose `variables` or
 * `extensions` is not JSON, an `operationName` that is not a string, a subscription on a schema without
 * subscriptions (issue 20, item 8). Register it before any plugin that reads the request's parameters.
 *
 * @example
 * createYoga({ schema, plugins: [useRequestChecks(), …] });
 */
export function useRequestChecks(): Plugin {
  return {
    onRequestParse({ requestParser, setRequestParser }) {
      if (!requestParser) return;
      setRequestParser((request) => {
        checkJsonParameters(request);
        return requestParser(request);
      });
    },
    onParams({ params }) {
      const name: unknown = params.operationName;
      if (name !== undefined && name !== null && typeof name !== 'string') {
        throw badRequest('`operationName` must be a string: the name of one operation in the document.');
      }
    },
    onValidate({ addValidationRule }) {
      addValidationRule(subscriptionsUnsupported);
    },
  };
}
