import { Kind, parse, print, visit, type FieldDefinitionNode, type StringValueNode } from 'graphql';

/**
 * v1's documented differences from the org graph's entity types (see docs/migration-v1-to-v2.md):
 * these links to one object are lists of zero or one, as in the specification's sample response.
 * Each entry gives the field's v1 description (`null`: none).
 */
export const v1ListLinks: Readonly<Record<string, string | null>> = {
  'OrgUnit.parent': 'The unit above this one; empty at the top.',
  'Engagement.employee': null,
  'Manager.employee': 'The person holding the position; empty while it is vacant.',
};

/**
 * The org graph's entity types as v1 shows them: every field of {@link v1ListLinks} becomes
 * `[Type!]!`. Fails when the graph has lost one of those fields, so that v1 cannot silently change.
 */
export function v1EntityTypeDefs(orgGraphTypeDefs: string): string {
  const applied = new Set<string>();
  let typeName = '';
  const document = visit(parse(orgGraphTypeDefs), {
    ObjectTypeDefinition: {
      enter: (node) => {
        typeName = node.name.value;
      },
    },
    FieldDefinition: (node): FieldDefinitionNode | undefined => {
      const coordinate = `${typeName}.${node.name.value}`;
      if (!(coordinate in v1ListLinks)) return undefined;
      if (node.type.kind !== Kind.NAMED_TYPE) {
        throw new Error(`${coordinate} is not a link to one object in the org graph; v1 cannot list it.`);
      }
      applied.add(coordinate);
      const text = v1ListLinks[coordinate];
      const description: StringValueNode | undefined =
        text == null ? undefined : { kind: Kind.STRING, value: text, block: true };
      return {
        ...node,
        description,
        type: {
          kind: Kind.NON_NULL_TYPE,
          type: { kind: Kind.LIST_TYPE, type: { kind: Kind.NON_NULL_TYPE, type: node.type } },
        },
      };
    },
  });
  const missing = Object.keys(v1ListLinks).filter((coordinate) => !applied.has(coordinate));
  if (missing.length > 0) {
    throw new Error(`The org graph has no ${missing.join(', ')}: v1's documented shape needs them.`);
  }
  return print(document);
}
