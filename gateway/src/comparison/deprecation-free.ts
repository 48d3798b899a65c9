import {
  getNamedType,
  isObjectType,
  Kind,
  NoDeprecatedCustomRule,
  parse,
  TypeInfo,
  validate,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type FieldNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type SelectionNode,
} from 'graphql';

/**
 * A v30 selection in the fields v30 keeps: each field OS2mo deprecates in favour of another (its
 * `@deprecated` reason, which the served v30 keeps, says `Use \`org_unit_response\`.`) is written as that
 * field. A plain link becomes its `*_response` link with the old selection under `current` (a page's under
 * `objects { current }`), a `*_uuid` field the response's `uuid`, a renamed field the new name. What shows an
 * integration what to ask for (a `410`'s replacement, the coverage report) is thereby not already deprecated.
 */

const named = (value: string) => ({ kind: Kind.NAME, value }) as const;

const selectionSet = (selections: readonly SelectionNode[]) =>
  ({ kind: Kind.SELECTION_SET, selections }) as const;

const fieldNode = (name: string, selections?: readonly SelectionNode[]): FieldNode => ({
  kind: Kind.FIELD,
  name: named(name),
  ...(selections ? { selectionSet: selectionSet(selections) } : {}),
});

/** The field a deprecation reason sends a client to, and the selection it names (`{ uuid }`), if any. */
function targetOf(reason: string | null | undefined): { name: string; inner?: string } | undefined {
  const match = /^Use `(\w+)(?: \{ (\w+) \})?`/.exec(reason ?? '');
  if (!match) return undefined;
  return match[2] === undefined ? { name: match[1]! } : { name: match[1]!, inner: match[2] };
}

/** How a field's objects are reached: directly, through a response's `current`, or a page's. */
function wrapping(field: GraphQLField<unknown, unknown>): 'plain' | 'response' | 'page' {
  const type = getNamedType(field.type);
  if (!isObjectType(type)) return 'plain';
  const fields = type.getFields();
  if ('current' in fields) return 'response';
  const objects = fields.objects && getNamedType(fields.objects.type);
  return isObjectType(objects) && 'current' in objects.getFields() ? 'page' : 'plain';
}

/** One field as its replacement `to` asks for the same: renamed, or its selection wrapped in `current`. */
function reshaped(
  node: FieldNode,
  from: GraphQLField<unknown, unknown>,
  to: GraphQLField<unknown, unknown>,
  inner: string | undefined,
): FieldNode {
  const unknown = (node.arguments ?? []).filter((arg) => !to.args.some((a) => a.name === arg.name.value));
  if (unknown.length > 0) {
    throw new Error(`${from.name}'s arguments have no place on ${to.name}: a shown query may not drop them.`);
  }
  const base = { ...node, name: named(to.name) };
  if (node.selectionSet === undefined) {
    return inner === undefined ? base : { ...base, selectionSet: selectionSet([fieldNode(inner)]) };
  }
  if (getNamedType(from.type) === getNamedType(to.type)) return base;
  const selections = node.selectionSet.selections;
  const shape = wrapping(to);
  if (shape === 'response')
    return { ...base, selectionSet: selectionSet([fieldNode('current', selections)]) };
  if (shape === 'page') {
    return {
      ...base,
      selectionSet: selectionSet([fieldNode('objects', [fieldNode('current', selections)])]),
    };
  }
  return base;
}

/** A field written as the field its deprecation names, and that one's, until one is not deprecated. */
function replaced(node: FieldNode, parent: GraphQLObjectType): FieldNode {
  const fields = parent.getFields();
  let field = fields[node.name.value];
  let result = node;
  const seen = new Set([node.name.value]);
  while (field?.deprecationReason) {
    const target = targetOf(field.deprecationReason);
    const next = target && fields[target.name];
    if (!target || !next || seen.has(target.name)) return result;
    seen.add(target.name);
    result = reshaped(result, field, next, target.inner);
    field = next;
  }
  return result;
}

/** A document whose deprecated fields are written as their replacements, where the deprecation names one. */
export function withoutDeprecated(schema: GraphQLSchema, document: DocumentNode): DocumentNode {
  const typeInfo = new TypeInfo(schema);
  return visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field: {
        leave: (node) => {
          const parent = typeInfo.getParentType();
          return isObjectType(parent) ? replaced(node, parent) : undefined;
        },
      },
    }),
  );
}

/** What a query asks that a schema deprecates, as graphql-js's `NoDeprecatedCustomRule` words it. */
export const deprecatedIn = (schema: GraphQLSchema, query: string): string[] =>
  validate(schema, parse(query), [NoDeprecatedCustomRule]).map((error) => error.message);

/**
 * The fields of a shown selection (`…` for an elided one) that a schema deprecates without naming a
 * replacement, which `withoutDeprecated` leaves: OS2mo's `Query.org` (it is dropping the root organisation),
 * an association's `dynamic_class_response`. By coordinate, with the reason.
 */
export function deprecatedWithoutReplacement(
  schema: GraphQLSchema,
  selection: string,
): { coordinate: string; reason: string }[] {
  const typeInfo = new TypeInfo(schema);
  const found = new Map<string, string>();
  visit(
    parse(`{ ${selection.replaceAll('…', '__typename')} }`),
    visitWithTypeInfo(typeInfo, {
      Field: () => {
        const field = typeInfo.getFieldDef();
        const parent = typeInfo.getParentType();
        if (field?.deprecationReason && parent && !targetOf(field.deprecationReason)) {
          found.set(`${parent.name}.${field.name}`, field.deprecationReason);
        }
      },
    }),
  );
  return [...found].map(([coordinate, reason]) => ({ coordinate, reason }));
}
