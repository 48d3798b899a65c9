import type { GraphQLParams } from 'graphql-yoga';

/** What Yoga's JSON request parser takes (`isPOSTJsonRequest`): the first type named, parameters allowed. */
const jsonTypes = ['application/json', 'application/graphql+json'];

const parameterNames = new Set(['query', 'variables', 'operationName', 'extensions']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isJsonType(contentType: string | undefined): boolean {
  const first = contentType?.split(',')[0];
  if (!first) return false;
  return jsonTypes.some((type) => first === type || first.startsWith(`${type};`));
}

/** Every parameter Yoga's checks (and `useRequestChecks`) would accept, so none of them can refuse it. */
function isWellFormed(body: Record<string, unknown>): boolean {
  for (const [name, value] of Object.entries(body)) {
    if (value === null || value === undefined) continue;
    if (!parameterNames.has(name)) return false;
    if (name === 'query' || name === 'operationName') {
      if (typeof value !== 'string') return false;
    } else if (!isPlainObject(value)) {
      return false;
    }
  }
  return typeof body.query === 'string';
}

/**
 * The GraphQL parameters of a JSON POST whose body is one well-formed request: a JSON object with a string
 * `query`, `variables` and `extensions` objects (or absent or null), a string `operationName` (or absent or
 * null) and nothing else. Anything else (another content type, a body that is not JSON, a batch, a parameter
 * of the wrong type) gives `undefined`: Yoga's own HTTP layer then answers it, with its exact errors.
 *
 * @example
 * plainJsonParams('application/json', body); // { query: '{ __typename }' }
 */
export function plainJsonParams(contentType: string | undefined, body: string): GraphQLParams | undefined {
  if (!isJsonType(contentType)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  return isPlainObject(parsed) && isWellFormed(parsed) ? (parsed as GraphQLParams) : undefined;
}
