import {
  getNamedType,
  getOperationAST,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
} from 'graphql';

/** The fragments an operation spreads, directly or through other fragments. */
function fragmentsUsed(document: DocumentNode, root: DocumentNode['definitions'][number]): Set<string> {
  const byName = new Map(
    document.definitions
      .filter(
        (definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION,
      )
      .map((fragment) => [fragment.name.value, fragment]),
  );
  const used = new Set<string>();
  const pending = [root];
  while (pending.length > 0) {
    visit(pending.pop()!, {
      FragmentSpread(spread) {
        const fragment = byName.get(spread.name.value);
        if (fragment === undefined || used.has(spread.name.value)) return;
        used.add(spread.name.value);
        pending.push(fragment);
      },
    });
  }
  return used;
}

/**
 * The schema coordinates (`OrgUnit.managers`) an operation selects, sorted: bounded by the schema, whatever the
 * client sends. Introspection (`__schema`, `__typename`) is left out. A document that does not validate against
 * the schema has no coordinates for the fields the schema lacks.
 */
export function schemaCoordinates(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName?: string | null,
): string[] {
  const operation = getOperationAST(document, operationName);
  if (operation === null || operation === undefined) return [];
  const fragments = fragmentsUsed(document, operation);
  const coordinates = new Set<string>();
  const typeInfo = new TypeInfo(schema);
  const visitor = visitWithTypeInfo(typeInfo, {
    Field(node) {
      const parent = typeInfo.getParentType();
      if (!parent || node.name.value.startsWith('__') || getNamedType(parent).name.startsWith('__')) {
        return false;
      }
      if (typeInfo.getFieldDef()) coordinates.add(`${parent.name}.${node.name.value}`);
      return undefined;
    },
  });
  for (const definition of document.definitions) {
    const wanted =
      definition === operation ||
      (definition.kind === Kind.FRAGMENT_DEFINITION && fragments.has(definition.name.value));
    if (wanted) visit(definition, visitor);
  }
  return [...coordinates].sort();
}

/**
 * `schemaCoordinates` remembered per schema, parsed document and operation name: Yoga's parser cache hands the
 * same document object to every request with the same query text, so repeated queries cost two lookups.
 */
export function coordinatesCache() {
  const bySchema = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, string[]>>>();
  return (schema: GraphQLSchema, document: DocumentNode, operationName?: string | null): string[] => {
    let byDocument = bySchema.get(schema);
    if (byDocument === undefined) bySchema.set(schema, (byDocument = new WeakMap()));
    let byName = byDocument.get(document);
    if (byName === undefined) byDocument.set(document, (byName = new Map()));
    const key = operationName ?? '';
    let coordinates = byName.get(key);
    if (coordinates === undefined) {
      byName.set(key, (coordinates = schemaCoordinates(schema, document, operationName)));
    }
    return coordinates;
  };
}
