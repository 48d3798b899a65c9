/**
 * The seam between GraphQL Mesh and the gateway: turns Mesh's build output into the org graph that the
 * public versions are checked against. Only this module knows how Mesh writes its output, so moving
 * to Mesh v1 (a composed supergraph SDL) changes this file and nothing else.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildASTSchema,
  getNamedType,
  isObjectType,
  isScalarType,
  isSpecifiedScalarType,
  Kind,
  parse,
  visit,
  type ASTVisitor,
  type DocumentNode,
  type GraphQLField,
  type GraphQLSchema,
  type NamedTypeNode,
  type TypeNode,
} from 'graphql';
import { pruneSchema } from '@graphql-tools/utils';

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

/** The object types the versions share with the org graph. */
export const entityTypeNames = [
  'OrgUnit',
  'Employee',
  'Engagement',
  'Manager',
  'Owner',
  'ITSystem',
  'ITUser',
  'Class',
  'Facet',
  'Validity',
] as const;

/** Directives Mesh's handlers put on the root fields they generate from a source's operations. */
const operationDirectives = new Set(['httpOperation', 'pubsubOperation']);

/** Directive uses the org graph keeps: graphql-js's own; every other one is Mesh's. */
const keptDirectives = new Set(['deprecated', 'specifiedBy']);

/** Scalars the org graph keeps by name: the versions declare the same ones. */
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
};

/** Scalars of Mesh's own directive arguments and untyped payloads; what uses them is dropped. */
const droppedScalars = new Set(['JSON', 'ObjMap']);

/** The legacy error body, which Mesh adds to `*_response` unions unless told to ignore error responses. */
const errorTypeNames = new Set(['LegacyError']);

/**
 * Reads Mesh's build output (`.mesh/schema.graphql`) and returns the org graph.
 *
 * @example
 * const { schema } = await loadOrgGraph();
 * const problems = checkVersionAgainstOrgGraph(v2Schema, schema);
 */
export async function loadOrgGraph(options: LoadOrgGraphOptions = {}): Promise<OrgGraph> {
  const path = join(options.meshDir ?? defaultMeshDir, 'schema.graphql');
  let sdl: string;
  try {
    sdl = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new Error(`${path} is missing: build the org graph with \`npx mesh build --fileType js\`.`, {
      cause: error,
    });
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

export interface VersionCheckOptions {
  /** The object types compared; default: {@link entityTypeNames}. */
  entityTypes?: readonly string[];
  /**
   * Fields (`Type.field`) a version may have although the org graph has not, each with the reason; an
   * allowance for a field the org graph has is reported, so that it does not outlive its reason.
   */
  allowedExtraFields?: Readonly<Record<string, string>>;
}

/**
 * Compares a version's entity types with the org graph and returns the problems, one sentence each
 * (none: the version only shows what the org graph has). Each entity type of the version must be an
 * object type of the org graph; each of its fields, and each field argument, must be there with the
 * same named type. List and non-null wrappers may differ: a version may change them (v1's list-valued
 * `employee`).
 */
export function checkVersionAgainstOrgGraph(
  versionSchema: GraphQLSchema,
  orgGraph: GraphQLSchema,
  options: VersionCheckOptions = {},
): string[] {
  const { entityTypes = entityTypeNames, allowedExtraFields = {} } = options;
  const problems: string[] = [];
  for (const typeName of entityTypes) {
    const versionType = versionSchema.getType(typeName);
    if (!isObjectType(versionType)) continue;
    const graphType = orgGraph.getType(typeName);
    if (!isObjectType(graphType)) {
      problems.push(`${typeName}: the org graph has no object type ${typeName}.`);
      continue;
    }
    const graphFields = graphType.getFields();
    for (const field of Object.values(versionType.getFields())) {
      const coordinate = `${typeName}.${field.name}`;
      const graphField = graphFields[field.name];
      const allowance = allowedExtraFields[coordinate];
      if (!graphField) {
        if (allowance === undefined) {
          problems.push(
            `${coordinate}: the org graph has no such field; link it in .meshrc.yaml, or allow it with a reason.`,
          );
        }
        continue;
      }
      if (allowance !== undefined) {
        problems.push(
          `${coordinate}: allowed as an extra field ("${allowance}"), but the org graph has it now.`,
        );
      }
      problems.push(...compareField(coordinate, field, graphField));
    }
  }
  return problems;
}

function compareField(
  coordinate: string,
  versionField: GraphQLField<unknown, unknown>,
  graphField: GraphQLField<unknown, unknown>,
): string[] {
  const problems: string[] = [];
  const versionType = getNamedType(versionField.type).name;
  const graphType = getNamedType(graphField.type).name;
  if (versionType !== graphType) {
    problems.push(`${coordinate}: the version's type is ${versionType}, the org graph's is ${graphType}.`);
  }
  for (const argument of versionField.args) {
    const graphArgument = graphField.args.find((candidate) => candidate.name === argument.name);
    const argumentCoordinate = `${coordinate}(${argument.name}:)`;
    if (!graphArgument) {
      problems.push(`${argumentCoordinate}: the org graph's field takes no such argument.`);
    } else if (getNamedType(argument.type).name !== getNamedType(graphArgument.type).name) {
      problems.push(
        `${argumentCoordinate}: the version's type is ${getNamedType(argument.type).name}, ` +
          `the org graph's is ${getNamedType(graphArgument.type).name}.`,
      );
    }
  }
  return problems;
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
