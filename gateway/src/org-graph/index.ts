/**
 * The seam between GraphQL Mesh and the gateway: turns Mesh's build output into the org graph, the
 * SDL that `npm run graph:generate` commits and the public versions are transforms of. Only this
 * module knows how Mesh writes its output, so moving to Mesh v1 (a composed supergraph SDL) changes
 * this file and nothing else.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildASTSchema,
  getNamedType,
  getNullableType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLScalarType,
  GraphQLSchema,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isUnionType,
  isNonNullType,
  printSchema,
  type GraphQLOutputType,
  isObjectType,
  isScalarType,
  isSpecifiedScalarType,
  Kind,
  parse,
  visit,
  type ASTVisitor,
  type DocumentNode,
  type NamedTypeNode,
  type TypeNode,
} from 'graphql';
import { MapperKind, mapSchema, pruneSchema } from '@graphql-tools/utils';
import { notPublic } from './not-public.js';

/** The org graph as the versions see it: Mesh's schema without Mesh's internals. */
export interface OrgGraph {
  schema: GraphQLSchema;
}

export interface LoadOrgGraphOptions {
  /** Mesh's build output; default: `.mesh/` at the repository root. */
  meshDir?: string;
}

/** Where `mesh build` writes its output: `.mesh/` at the repository root. */
export const defaultMeshDir = fileURLToPath(new URL('../../../.mesh/', import.meta.url));

/** Directives Mesh's handlers put on the root fields they generate from a source's operations. */
const operationDirectives = new Set(['httpOperation', 'pubsubOperation']);

/** Directive uses the org graph keeps: graphql-js's own; every other one is Mesh's. */
const keptDirectives = new Set(['deprecated', 'specifiedBy']);

/** Scalars the org graph keeps by name: the gateway implements them (`graphql/scalars.ts`). */
const ownScalars = new Set(['UUID', 'Date']);

/** Mesh's (graphql-scalars') scalars, as the plain scalar that carries the same values. */
const plainScalars: Readonly<Record<string, string>> = {
  NonNegativeInt: 'Int',
  PositiveInt: 'Int',
  NonPositiveInt: 'Int',
  NegativeInt: 'Int',
  NonNegativeFloat: 'Float',
  PositiveFloat: 'Float',
  NonEmptyString: 'String',
  // String formats the contract may use (`date-time`, `email`, `uri`, `ipv4`, `ipv6`, `byte`).
  DateTime: 'String',
  Time: 'String',
  EmailAddress: 'String',
  URL: 'String',
  IPv4: 'String',
  IPv6: 'String',
  Byte: 'String',
};

/** Scalars of Mesh's own directive arguments and untyped payloads; what uses them is dropped. */
const droppedScalars = new Set(['JSON', 'ObjMap']);

/** The legacy error body, which Mesh adds to `*_response` unions unless told to ignore error responses. */
const errorTypeNames = new Set(['LegacyError']);

/**
 * Reads Mesh's build output (`.mesh/schema.graphql`) and returns the org graph.
 *
 * @example
 * const sdl = printOrgGraph((await loadOrgGraph()).schema);
 */
export async function loadOrgGraph(options: LoadOrgGraphOptions = {}): Promise<OrgGraph> {
  const path = join(options.meshDir ?? defaultMeshDir, 'schema.graphql');
  let sdl: string;
  try {
    sdl = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new Error(
      `${path} is missing: build the org graph with \`npm run graph:generate\` (or \`npm run mesh:build\`).`,
      {
        cause: error,
      },
    );
  }
  return orgGraphFromSdl(sdl);
}

/**
 * The org graph from Mesh's printed schema: without the root fields Mesh generated from the legacy
 * operations (the graph's own root fields stay), without `*_response` unions and the legacy error
 * type, without Mesh's directives, and with Mesh's scalars mapped to plain ones (`UUID` and `Date`
 * keep their names). Only what the remaining root fields reach is kept.
 */
export function orgGraphFromSdl(sdl: string): OrgGraph {
  const document = parse(sdl);
  const regexpScalars = scalarsWithDirective(document, 'regexp');
  const plain = visit(removeGeneratedOperations(document), {
    ...withoutMeshDirectives,
    ...withPlainScalars(regexpScalars, responseUnions(document)),
  });
  const schema = pruneSchema(buildASTSchema(plain));
  assertOnlyKnownScalars(schema);
  return { schema };
}

/**
 * The nullability rule of the org graph, applied to every field of its object types:
 *
 * - a field is non-null iff the contract lists the property in `required` and does not mark it
 *   `nullable` (Mesh renders this, and `gateway/mesh/contract-nullability.js` restores what Mesh
 *   drops next to `allOf`);
 * - except a field whose value is another entity (an object type with a `uuid`) and not a list: it is
 *   always nullable, because the gateway resolves it as a link and a failed link nulls that field
 *   only, not the record around it;
 * - list elements are never null (the contract has no nullable array items).
 */
export const nullabilityRule =
  'A field is non-null iff the contract marks it required and not nullable; a field holding one other ' +
  'entity (an object type with a `uuid`) is always nullable; list elements are never null.';

export interface PrintOrgGraphOptions {
  /** `Type.field` → why the public may not see it; default: {@link notPublic}. */
  notPublic?: Readonly<Record<string, string>>;
}

/**
 * The org graph as the committed SDL: every type its own root fields reach, with the contract's
 * descriptions, without the fields in the not-public list, under the nullability rule, and without
 * the root fields themselves and their argument and result types (those serve Mesh's own server; the
 * gateway's versions declare their own). Types no public field reaches any more are left out; the
 * typed legacy records still cover every contract schema.
 */
export function printOrgGraph(graph: GraphQLSchema, options: PrintOrgGraphOptions = {}): string {
  const hidden = options.notPublic ?? notPublic;
  for (const coordinate of Object.keys(hidden)) {
    const [typeName = '', fieldName = ''] = coordinate.split('.');
    const type = graph.getType(typeName);
    if (!isObjectType(type) || !type.getFields()[fieldName]) {
      throw new Error(
        `${coordinate} is in the not-public list (gateway/src/org-graph/not-public.ts), but the org graph ` +
          'has no such field: remove the entry.',
      );
    }
  }
  const roots = new Set(
    [graph.getQueryType(), graph.getMutationType(), graph.getSubscriptionType()].flatMap((root) =>
      root ? [root.name] : [],
    ),
  );
  const shown = pruneSchema(
    mapSchema(graph, {
      [MapperKind.OBJECT_FIELD]: (field, fieldName, typeName) => {
        if (roots.has(typeName)) return field;
        if (`${typeName}.${fieldName}` in hidden) return null;
        return { ...field, type: withNullabilityRule(field.type) };
      },
      // Mesh describes its scalars in its own words; the gateway's scalars describe themselves.
      [MapperKind.SCALAR_TYPE]: (type) =>
        new GraphQLScalarType({ ...type.toConfig(), description: undefined }),
    }),
  );
  const rootOnly = rootOnlyTypes(shown, roots);
  const types = Object.values(shown.getTypeMap()).filter(
    (type) => !type.name.startsWith('__') && !roots.has(type.name) && !rootOnly.has(type.name),
  );
  return printSchema(new GraphQLSchema({ types, directives: [] }));
}

function withNullabilityRule(type: GraphQLOutputType): GraphQLOutputType {
  const nullable = isNonNullType(type) ? type.ofType : type;
  if (isListType(nullable)) {
    const element = getNullableType(nullable.ofType);
    const list = new GraphQLList(new GraphQLNonNull(element));
    return isNonNullType(type) ? new GraphQLNonNull(list) : list;
  }
  if (isObjectType(nullable) && nullable.getFields().uuid) return nullable;
  return type;
}

/** The named types of the root fields' results and arguments that nothing else in the graph uses. */
function rootOnlyTypes(schema: GraphQLSchema, roots: Set<string>): Set<string> {
  const candidates = new Set<string>();
  for (const rootName of roots) {
    const root = schema.getType(rootName);
    if (!isObjectType(root)) continue;
    for (const field of Object.values(root.getFields())) {
      candidates.add(getNamedType(field.type).name);
      for (const argument of field.args) candidates.add(getNamedType(argument.type).name);
    }
  }
  const usedElsewhere = new Set<string>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (roots.has(type.name) || candidates.has(type.name)) continue;
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        usedElsewhere.add(getNamedType(field.type).name);
        for (const argument of field.args) usedElsewhere.add(getNamedType(argument.type).name);
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) usedElsewhere.add(getNamedType(field.type).name);
    } else if (isUnionType(type)) {
      for (const member of type.getTypes()) usedElsewhere.add(member.name);
    }
  }
  return new Set([...candidates].filter((name) => !usedElsewhere.has(name)));
}

function scalarsWithDirective(document: DocumentNode, directive: string): Set<string> {
  const names = new Set<string>();
  for (const definition of document.definitions) {
    if (
      (definition.kind === Kind.SCALAR_TYPE_DEFINITION || definition.kind === Kind.SCALAR_TYPE_EXTENSION) &&
      definition.directives?.some((use) => use.name.value === directive)
    ) {
      names.add(definition.name.value);
    }
  }
  return names;
}

/** The `*_response` unions Mesh makes of an operation's success and error bodies. */
function responseUnions(document: DocumentNode): Set<string> {
  const names = new Set<string>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.UNION_TYPE_DEFINITION && definition.name.value.endsWith('_response')) {
      names.add(definition.name.value);
    }
  }
  return names;
}

/**
 * Removes the root fields Mesh generated from the source's operations (they carry the operation's
 * transport directive), and the root types left without fields. The query root must keep fields of
 * the graph's own, or nothing of the graph would be reachable.
 */
function removeGeneratedOperations(document: DocumentNode): DocumentNode {
  const schemaDefinition = document.definitions.find(
    (definition) => definition.kind === Kind.SCHEMA_DEFINITION,
  );
  const roots = new Map<string, string>(
    schemaDefinition
      ? schemaDefinition.operationTypes.map((root) => [root.type.name.value, root.operation])
      : [
          ['Query', 'query'],
          ['Mutation', 'mutation'],
          ['Subscription', 'subscription'],
        ],
  );
  const remainingFields = new Map<string, number>();
  const definitions = document.definitions.map((definition) => {
    if (
      (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION) ||
      !roots.has(definition.name.value)
    ) {
      return definition;
    }
    const fields = (definition.fields ?? []).filter(
      (field) => !field.directives?.some((use) => operationDirectives.has(use.name.value)),
    );
    const name = definition.name.value;
    remainingFields.set(name, (remainingFields.get(name) ?? 0) + fields.length);
    return { ...definition, fields };
  });
  const emptied = new Set([...roots.keys()].filter((name) => !remainingFields.get(name)));
  if ([...emptied].some((name) => roots.get(name) === 'query')) {
    throw new Error(
      'The org graph has no query root field of its own: declare them in .meshrc.yaml (additionalTypeDefs).',
    );
  }
  return {
    ...document,
    definitions: definitions
      .filter(
        (definition) => !('name' in definition && definition.name && emptied.has(definition.name.value)),
      )
      .map((definition) =>
        definition.kind === Kind.SCHEMA_DEFINITION
          ? {
              ...definition,
              operationTypes: definition.operationTypes.filter((root) => !emptied.has(root.type.name.value)),
            }
          : definition,
      ),
  };
}

/** Drops every directive definition and every use of a directive that is not graphql-js's own. */
const withoutMeshDirectives: ASTVisitor = {
  DirectiveDefinition: () => null,
  Directive: (node) => (keptDirectives.has(node.name.value) ? undefined : null),
};

/**
 * Replaces Mesh's scalars by plain ones, and drops the dropped scalars, the `*_response` unions and
 * the legacy error type together with every field, argument and union member typed with them.
 */
function withPlainScalars(regexpScalars: Set<string>, unionsToDrop: Set<string>): ASTVisitor {
  const plainNameOf = (name: string) =>
    plainScalars[name] ?? (regexpScalars.has(name) ? 'String' : undefined);
  const isDropped = (name: string) =>
    droppedScalars.has(name) || errorTypeNames.has(name) || unionsToDrop.has(name);
  const dropIfTypedWithDropped = (node: { type: TypeNode }) =>
    isDropped(namedTypeOf(node.type).name.value) ? null : undefined;
  const dropIfDropped = (node: { name: { value: string } }) =>
    isDropped(node.name.value) ? null : undefined;
  return {
    FieldDefinition: dropIfTypedWithDropped,
    InputValueDefinition: dropIfTypedWithDropped,
    ObjectTypeDefinition: dropIfDropped,
    ScalarTypeDefinition: (node) =>
      isDropped(node.name.value) || plainNameOf(node.name.value) !== undefined ? null : undefined,
    UnionTypeDefinition: (node) =>
      isDropped(node.name.value)
        ? null
        : { ...node, types: node.types?.filter((member) => !isDropped(member.name.value)) },
    NamedType: (node) => {
      const plainName = plainNameOf(node.name.value);
      return plainName === undefined ? undefined : { ...node, name: { ...node.name, value: plainName } };
    },
  };
}

function namedTypeOf(type: TypeNode): NamedTypeNode {
  return type.kind === Kind.NAMED_TYPE ? type : namedTypeOf(type.type);
}

function assertOnlyKnownScalars(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isScalarType(type) || isSpecifiedScalarType(type) || ownScalars.has(type.name)) continue;
    throw new Error(
      `The org graph has the scalar ${type.name}, which the seam does not map: add it to plainScalars ` +
        'in gateway/src/org-graph/index.ts.',
    );
  }
}
