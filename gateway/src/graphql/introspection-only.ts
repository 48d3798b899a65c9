import {
  getOperationAST,
  Kind,
  parse,
  type DocumentNode,
  type FragmentDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/** The root fields of an introspection query. */
const introspectionFields = new Set(['__schema', '__type', '__typename']);

/**
 * More than any introspection query needs (graphql-js' full one is a few hundred tokens); only bounds the
 * work of this check, the version's own token limit still applies when the query runs.
 */
const maxTokens = 5000;

function selectsOnlyIntrospection(
  selectionSet: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
  seen: Set<string>,
): boolean {
  return selectionSet.selections.every((selection) => {
    if (selection.kind === Kind.FIELD) return introspectionFields.has(selection.name.value);
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      return selectsOnlyIntrospection(selection.selectionSet, fragments, seen);
    }
    const name = selection.name.value;
    const fragment = fragments.get(name);
    if (!fragment || seen.has(name)) return false;
    seen.add(name);
    return selectsOnlyIntrospection(fragment.selectionSet, fragments, seen);
  });
}

function parsed(query: string): DocumentNode | undefined {
  try {
    return parse(query, { maxTokens, noLocation: true });
  } catch {
    return undefined;
  }
}

/**
 * Whether a GraphQL request body (`{query, operationName?, variables?}` as JSON) asks only for the schema:
 * the operation it runs is a query whose root selects nothing but `__schema`, `__type` and `__typename`
 * (through fragments too). Anything else, unreadable bodies included, is not.
 *
 * @example
 * introspectionOnly(Buffer.from(JSON.stringify({ query: getIntrospectionQuery() }))); // true
 */
export function introspectionOnly(body: Uint8Array | undefined): boolean {
  if (!body) return false;
  let params: unknown;
  try {
    params = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString());
  } catch {
    return false;
  }
  if (typeof params !== 'object' || params === null) return false;
  const { query, operationName } = params as { query?: unknown; operationName?: unknown };
  if (typeof query !== 'string') return false;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string')
    return false;
  const document = parsed(query);
  if (!document) return false;
  const operation = getOperationAST(document, operationName ?? undefined);
  if (!operation || operation.operation !== 'query') return false;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  return selectsOnlyIntrospection(operation.selectionSet, fragments, new Set());
}
