import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  buildSchema,
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
import { entityTypeDefs, v1Shape, v2Shape } from '../graphql/schema/entity-types.js';
import { mutationTypeDefs } from '../graphql/schema/mutation-types.js';
import { v1RootTypeDefs } from '../graphql/schema/v1-root.js';
import { v2RootTypeDefs } from '../graphql/schema/v2-root.js';
import { checkVersionAgainstOrgGraph, loadOrgGraph, orgGraphFromSdl } from './index.js';
import { ensureMeshBuild, repositoryRoot } from './mesh-build.js';

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

let orgGraph: GraphQLSchema;
beforeAll(async () => {
  await ensureMeshBuild();
  orgGraph = (await loadOrgGraph()).schema;
}, 120_000);

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
    expect(fieldType(orgGraph, 'OrgUnit.child_count')).toBe('Int!');
  });

  it('keeps only its own root fields, none generated from a legacy operation', async () => {
    const rootFields = Object.keys(orgGraph.getQueryType()?.getFields() ?? {});
    expect(rootFields.sort()).toEqual(['itsystems', 'org_units']);
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

  it('keeps the nullability the contract declares, so vacant positions and top units can be served', () => {
    expect(fieldType(orgGraph, 'Manager.person')).toBe('PersonRef');
    expect(fieldType(orgGraph, 'OrgUnit.org_unit_level')).toBe('Class');
    expect(fieldType(orgGraph, 'Owner.owner_ref')).toBe('PersonRef');
    expect(fieldType(orgGraph, 'ITUser.person')).toBe('PersonRef');
    expect(fieldType(orgGraph, 'OrgUnit.org_unit_type')).toBe('Class!');
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
        'type Unit {\n  uuid: UUID!\n  code: String!\n  child_count: Int!\n}',
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

describe('the public versions against the org graph', () => {
  const versions = {
    v1: entityTypeDefs(v1Shape) + mutationTypeDefs + v1RootTypeDefs,
    v2: entityTypeDefs(v2Shape) + mutationTypeDefs + v2RootTypeDefs,
  };

  it.each(Object.entries(versions))('%s shows only what the org graph has', (_name, typeDefs) => {
    expect(checkVersionAgainstOrgGraph(buildSchema(typeDefs), orgGraph)).toEqual([]);
  });

  it('reports missing types and fields, other types and arguments, and allowances that are no longer needed', () => {
    const version = buildSchema(/* GraphQL */ `
      type Query {
        units: [OrgUnit]
        people: [Employee]
        facets: [Facet]
        roles: [Manager]
      }
      type OrgUnit {
        name: String!
        nickname: String
        headcount: Int
        managers(inherit: Boolean, at: String): [Manager!]!
      }
      type Employee {
        name: [String!]!
        engagements: Engagement
        shoe_size: Int
      }
      type Manager {
        employee: [Employee!]!
        org_unit: Employee
      }
      type Engagement {
        uuid: UUID!
      }
      scalar UUID
      enum Facet {
        A
      }
    `);
    const problems = checkVersionAgainstOrgGraph(version, orgGraph, {
      allowedExtraFields: {
        'OrgUnit.nickname': 'shown to users while the legacy service learns it',
        'Employee.name': 'once missing from the org graph',
      },
    });
    expect(problems).toEqual([
      'OrgUnit.headcount: the org graph has no such field; link it in .meshrc.yaml, or allow it with a reason.',
      "OrgUnit.managers(at:): the org graph's field takes no such argument.",
      'Employee.name: allowed as an extra field ("once missing from the org graph"), but the org graph has it now.',
      'Employee.shoe_size: the org graph has no such field; link it in .meshrc.yaml, or allow it with a reason.',
      "Manager.org_unit: the version's type is Employee, the org graph's is OrgUnit.",
    ]);
    expect(checkVersionAgainstOrgGraph(version, buildSchema('type Query { a: Int }'))).toContain(
      'OrgUnit: the org graph has no object type OrgUnit.',
    );
  });
});
