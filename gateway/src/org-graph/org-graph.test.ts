import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  buildSchema,
  isObjectType,
  isScalarType,
  isSpecifiedScalarType,
  isUnionType,
  specifiedDirectives,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { contractOperationsOf, type ContractPaths } from './contract-operations-module.js';
import {
  contractPath,
  generate,
  generateCommand,
  generatedFiles,
  meshConfigPath,
  type Generated,
} from './generate.js';
import { graphLinks } from '../graphql/graph-links.js';
import { meshGraphLinks, type MeshConfig } from './graph-links-module.js';
import { loadOrgGraph, orgGraphFromSdl, printOrgGraph } from './index.js';
import { ensureMeshBuild, repositoryRoot } from './mesh-build.js';
import { notPublic } from './not-public.js';

const meshDirectives = [
  'httpOperation',
  'transport',
  'regexp',
  'typescript',
  'example',
  'resolveRoot',
  'statusCodeTypeName',
  'discriminator',
  'enum',
  'oneOf',
];

/** The fields the rest of the org graph is reached through, with their types (`Type.field`). */
const links: Record<string, string> = {
  'OrgUnit.parent': 'OrgUnit',
  'OrgUnit.children': '[OrgUnit!]!',
  'OrgUnit.managers': '[Manager!]!',
  'OrgUnit.owners': '[Owner!]!',
  'OrgUnit.engagements': '[Engagement!]!',
  'OrgUnit.itusers': '[ITUser!]!',
  'Employee.engagements': '[Engagement!]!',
  'Employee.manager_roles': '[Manager!]!',
  'Employee.owners': '[Owner!]!',
  'Employee.itusers': '[ITUser!]!',
  'Manager.employee': 'Employee',
  'Manager.org_unit': 'OrgUnit',
  'Engagement.employee': 'Employee',
  'Engagement.org_unit': 'OrgUnit',
  'Owner.owner': 'Employee',
  'Owner.org_unit': 'OrgUnit',
  'Owner.person': 'Employee',
  'ITUser.employee': 'Employee',
  'ITUser.org_unit': 'OrgUnit',
  'ITUser.itsystem': 'ITSystem',
  'Class.facet': 'Facet',
  'Facet.classes': '[Class!]!',
};

function fieldType(schema: GraphQLSchema, coordinate: string): string | undefined {
  const [typeName = '', fieldName = ''] = coordinate.split('.');
  const type = schema.getType(typeName);
  return type && 'getFields' in type ? type.getFields()[fieldName]?.type.toString() : undefined;
}

function namedTypes(schema: GraphQLSchema): GraphQLNamedType[] {
  return Object.values(schema.getTypeMap()).filter((type) => !type.name.startsWith('__'));
}

async function contractOperationIds(): Promise<string[]> {
  const contract = parseYaml(
    await readFile(join(repositoryRoot, 'openapi', 'legacy-service.yaml'), 'utf8'),
  ) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  return Object.values(contract.paths).flatMap((operations) =>
    Object.values(operations).flatMap((operation) => (operation.operationId ? [operation.operationId] : [])),
  );
}

/**
 * The repository's Mesh build of `.meshrc.yaml` and the contract, made when missing or older than them: one
 * build for this file and the Mesh peer's tests, not one each.
 */
let orgGraph: GraphQLSchema;
let generated: Generated;
beforeAll(async () => {
  await ensureMeshBuild();
  orgGraph = (await loadOrgGraph()).schema;
  generated = await generate();
}, 120_000);

describe('the committed generated files', () => {
  it.each(Object.entries(generatedFiles))(
    `%s is what the Mesh build generates (else run \`${generateCommand}\`)`,
    async (key, path) => {
      const committed = await readFile(path, 'utf8');
      expect(
        committed === generated[key as keyof typeof generatedFiles],
        `${path} differs from what .meshrc.yaml and the contract generate: run \`${generateCommand}\` and commit the result.`,
      ).toBe(true);
    },
  );
});

describe('the org graph file', () => {
  let graph: GraphQLSchema;
  beforeAll(() => {
    graph = buildSchema(printOrgGraph(orgGraph));
  });

  it('leaves out every field of the not-public list, and the root fields that serve Mesh', () => {
    for (const coordinate of Object.keys(notPublic)) expect(fieldType(graph, coordinate)).toBeUndefined();
    expect(graph.getQueryType()).toBeUndefined();
    for (const name of [
      'OrgUnitObjects',
      'ITSystemObjects',
      'OrgUnitFilter',
      'PersonRef',
      'OrganisationListItem',
      'OrganisationObjects',
      'CprLookupObjects',
    ]) {
      expect(graph.getType(name)).toBeUndefined();
    }
  });

  it('keeps the contract descriptions', () => {
    expect(graph.getType('Engagement')?.description).toBe("A person's employment in a unit.");
    const engagement = graph.getType('Engagement');
    expect(isObjectType(engagement) && engagement.getFields().primary?.description).toBe(
      'The primary type (a class of the `primary_type` facet), or null.',
    );
  });

  it('leaves out the fields only a `/service` flag the versions never send would fill (always null otherwise)', () => {
    const fields = (name: string) => {
      const type = graph.getType(name);
      return isObjectType(type) ? Object.keys(type.getFields()) : [];
    };
    expect(fields('Engagement')).toContain('primary');
    expect(fields('Engagement')).not.toContain('is_primary');
    expect(fields('OrgUnit')).toContain('name');
    expect(fields('OrgUnit')).not.toContain('engagement_count');
    expect(fields('OrgUnit')).not.toContain('association_count');
  });

  it('follows the one nullability rule', () => {
    // Required and not nullable: non-null.
    expect(fieldType(graph, 'Facet.description')).toBe('String!');
    expect(fieldType(graph, 'OrgUnit.validity')).toBe('Validity!');
    // Nullable in the contract.
    expect(fieldType(graph, 'ITSystem.system_type')).toBe('String');
    expect(fieldType(graph, 'Validity.to')).toBe('Date');
    // One other entity: a link, always nullable, although the contract requires it.
    expect(fieldType(graph, 'OrgUnit.org_unit_type')).toBe('Class');
    expect(fieldType(graph, 'Engagement.job_function')).toBe('Class');
    // List elements are never null (Mesh writes `[Class]!`).
    expect(fieldType(orgGraph, 'Manager.responsibility')).toBe('[Class]!');
    expect(fieldType(graph, 'Manager.responsibility')).toBe('[Class!]!');
  });

  it('refuses a not-public entry the graph does not have', () => {
    expect(() => printOrgGraph(orgGraph, { notPublic: { 'OrgUnit.shoe_size': 'gone' } })).toThrow(
      /OrgUnit.shoe_size is in the not-public list .* remove the entry/,
    );
  });
});

describe("the org graph from Mesh's build", () => {
  it("shows none of Mesh's directives", () => {
    const printed = printSchemaWithDirectives(orgGraph);
    for (const directive of meshDirectives) expect(printed).not.toContain(`@${directive}`);
    expect(orgGraph.getDirectives().map((directive) => directive.name)).toEqual(
      specifiedDirectives.map((directive) => directive.name),
    );
  });

  it('has no response unions, no legacy error type, and only plain scalars besides UUID and Date', () => {
    const types = namedTypes(orgGraph);
    expect(types.filter(isUnionType).map((type) => type.name)).toEqual([]);
    expect(orgGraph.getType('LegacyError')).toBeUndefined();
    const ownScalars = types.filter((type) => isScalarType(type) && !isSpecifiedScalarType(type));
    expect(ownScalars.map((type) => type.name).sort()).toEqual(['Date', 'UUID']);
    expect(fieldType(orgGraph, 'Engagement.fraction')).toBe('Int');
  });

  it('keeps only its own root fields, none generated from a legacy operation', async () => {
    const rootFields = Object.keys(orgGraph.getQueryType()?.getFields() ?? {});
    expect(rootFields.sort()).toEqual(['cpr_lookup', 'itsystems', 'org', 'org_units']);
    const operationIds = await contractOperationIds();
    expect(operationIds).toContain('listOrgUnitManagers');
    for (const operationId of operationIds) expect(rootFields).not.toContain(operationId);
    expect(orgGraph.getMutationType()).toBeUndefined();
    expect(fieldType(orgGraph, 'Query.org_units')).toBe('OrgUnitObjects!');
    expect(fieldType(orgGraph, 'OrgUnitObjects.objects')).toBe('[OrgUnit!]!');
    expect(fieldType(orgGraph, 'ITSystemObjects.objects')).toBe('[ITSystem!]!');
  });

  it('links units, people and their records under the public names', () => {
    const actual = Object.fromEntries(
      Object.keys(links).map((coordinate) => [coordinate, fieldType(orgGraph, coordinate)]),
    );
    expect(actual).toEqual(links);
    const managers = orgGraph.getType('OrgUnit') as {
      getFields(): Record<string, { args: readonly { name: string; type: unknown }[] }>;
    };
    expect(managers.getFields().managers?.args.map((arg) => `${arg.name}: ${String(arg.type)}`)).toEqual([
      'inherit: Boolean',
    ]);
    expect(managers.getFields().owners?.args.map((arg) => `${arg.name}: ${String(arg.type)}`)).toEqual([
      'inherit: Boolean',
    ]);
  });

  it("has every record field and reference type the Mesh peer's links read (graph-links.generated.js)", async () => {
    const contract = parseYaml(await readFile(contractPath, 'utf8')) as ContractPaths;
    const meshConfig = parseYaml(await readFile(meshConfigPath, 'utf8')) as MeshConfig;
    const links = meshGraphLinks(graphLinks, meshConfig, contractOperationsOf(contract));
    const read = Object.entries(links).flatMap(([type, fields]) =>
      Object.entries(fields).flatMap(([field, link]) => [
        `${type}.${field}`,
        ...('field' in link ? [`${type}.${link.field}`] : []),
      ]),
    );
    expect(read.filter((coordinate) => fieldType(orgGraph, coordinate) === undefined)).toEqual([]);
  });

  it('keeps the nullability the contract declares, so vacant positions and top units can be served', () => {
    expect(fieldType(orgGraph, 'Manager.person')).toBe('PersonRef');
    expect(fieldType(orgGraph, 'OrgUnit.org_unit_level')).toBe('Class');
    expect(fieldType(orgGraph, 'Owner.owner_ref')).toBe('PersonRef');
    expect(fieldType(orgGraph, 'ITUser.person')).toBe('PersonRef');
    expect(fieldType(orgGraph, 'OrgUnit.validity')).toBe('Validity!');
  });
});

describe('the seam on Mesh output this build does not produce', () => {
  const meshLikeSdl = /* GraphQL */ `
    schema @transport(subgraph: "Legacy", kind: "rest", location: "{env.LEGACY_URL}") {
      query: Query
      mutation: Mutation
    }
    directive @transport(subgraph: String, kind: String, location: String) repeatable on SCHEMA
    directive @httpOperation(subgraph: String, path: String, queryParamArgMap: ObjMap) on FIELD_DEFINITION
    directive @regexp(subgraph: String, pattern: String) on SCALAR
    directive @statusCodeTypeName(subgraph: String, typeName: String, statusCode: String) repeatable on UNION
    scalar ObjMap
    scalar JSON
    scalar NonNegativeInt
    scalar DateTime
    scalar UUID
    scalar Code @regexp(subgraph: "Legacy", pattern: "^[A-Z]+$")
    type Query {
      getUnit(uuid: UUID!): getUnit_response @httpOperation(subgraph: "Legacy", path: "/ou/{args.uuid}")
      units(filter: UnitFilter): [Unit!]!
    }
    type Mutation {
      createUnit(input: UnitInput @oneOf(subgraph: "Legacy")): UUID
        @httpOperation(subgraph: "Legacy", path: "/ou")
    }
    input UnitFilter {
      uuids: [UUID!]
      raw: JSON
    }
    input UnitInput {
      name: String
    }
    union getUnit_response @statusCodeTypeName(subgraph: "Legacy", typeName: "Unit", statusCode: "200") =
      | Unit
      | LegacyError
    type LegacyError {
      error_key: String!
    }
    type Unit {
      uuid: UUID!
      code: Code!
      child_count: NonNegativeInt!
      changed_at: DateTime
      extra: ObjMap
      last_error: LegacyError
      result: getUnit_response
    }
  `;

  it('drops generated operations, response unions, the error type, Mesh scalars and directives', () => {
    const { schema } = orgGraphFromSdl(meshLikeSdl);
    expect(printSchemaWithDirectives(schema).trim()).toBe(
      [
        'schema {\n  query: Query\n}',
        'scalar UUID',
        'type Query {\n  units(filter: UnitFilter): [Unit!]!\n}',
        'input UnitFilter {\n  uuids: [UUID!]\n}',
        'type Unit {\n  uuid: UUID!\n  code: String!\n  child_count: Int!\n  changed_at: String\n}',
      ].join('\n\n'),
    );
  });

  it('refuses a scalar it cannot map, and a graph without root fields of its own', () => {
    expect(() => orgGraphFromSdl('scalar Money\ntype Query { price: Money }')).toThrow(/scalar Money/);
    expect(() =>
      orgGraphFromSdl(
        'directive @httpOperation(path: String) on FIELD_DEFINITION\ntype Query { a: Int @httpOperation(path: "/a") }',
      ),
    ).toThrow(/no query root field of its own/);
  });
});
