import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { buildSchema, isObjectType, type GraphQLSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { versionTypeDefs } from '../graphql/versions.js';
import type { ContractSchema } from './contract-records.js';
import { contractPath, generate, generatedFiles, type Generated } from './generate.js';
import { buildMeshIsolated } from './mesh-build.js';

/**
 * The flow a contributor follows (docs/architecture.md, docs/development.md): change a schema in the OpenAPI
 * file, run `npm run graph:generate`, and the change is in both versions' SDL with no hand-written
 * type touched. Here the command's two steps (Mesh build, generation) run on a changed copy of the
 * contract in a temporary folder.
 */
const fieldType = (schema: GraphQLSchema, typeName: string, fieldName: string) => {
  const type = schema.getType(typeName);
  return isObjectType(type) ? type.getFields()[fieldName]?.type.toString() : undefined;
};

let buildDir: string;
let generated: Generated;
beforeAll(async () => {
  const contract = parseYaml(await readFile(contractPath, 'utf8')) as {
    components: { schemas: Record<string, ContractSchema> };
  };
  const schemas = contract.components.schemas;
  const orgUnit = schemas.OrgUnit!;
  // One new property, one new schema reached from it, one new schema nothing reaches, one removed property.
  schemas.PostBox = {
    type: 'object',
    description: 'A post box of a unit.',
    required: ['street', 'postcode'],
    properties: { street: { type: 'string' }, postcode: { type: 'string', nullable: true } },
  };
  schemas.AuditNote = { type: 'object', required: ['text'], properties: { text: { type: 'string' } } };
  orgUnit.properties = {
    ...orgUnit.properties,
    phone: { type: 'string', description: "The unit's switchboard number." },
    post_boxes: { type: 'array', items: { $ref: '#/components/schemas/PostBox' } },
  };
  orgUnit.required = [...(orgUnit.required ?? []), 'post_boxes'];
  // `full_name` rather than a property v30 views: removing one of those fails the generation by design.
  delete schemas.Class!.properties!.full_name;
  schemas.Class!.required = schemas.Class!.required!.filter((name) => name !== 'full_name');

  buildDir = await buildMeshIsolated({ contract: stringifyYaml(contract) });
  generated = await generate({
    contract: join(buildDir, 'openapi', 'legacy-service.yaml'),
    meshDir: join(buildDir, '.mesh'),
  });
}, 120_000);
afterAll(async () => {
  if (buildDir) await rm(buildDir, { recursive: true, force: true });
});

describe('a property added to the contract', () => {
  it('appears in both versions with its description and the nullability rule', () => {
    const typeDefs = versionTypeDefs(generated.orgGraph);
    for (const sdl of [typeDefs.v1, typeDefs.v2]) {
      const schema = buildSchema(sdl);
      expect(fieldType(schema, 'OrgUnit', 'phone')).toBe('String');
      expect(fieldType(schema, 'OrgUnit', 'post_boxes')).toBe('[PostBox!]!');
      expect(fieldType(schema, 'PostBox', 'street')).toBe('String!');
      expect(fieldType(schema, 'PostBox', 'postcode')).toBe('String');
      expect(schema.getType('PostBox')?.description).toBe('A post box of a unit.');
      const orgUnit = schema.getType('OrgUnit');
      expect(isObjectType(orgUnit) && orgUnit.getFields().phone?.description).toBe(
        "The unit's switchboard number.",
      );
    }
    expect(generated.servedV1).toContain('post_boxes: [PostBox!]!');
    expect(generated.servedV2).toContain('post_boxes: [PostBox!]!');
  });

  it('is typed in the legacy records, as is a schema the graph does not reach', () => {
    expect(generated.contractRecords).toContain("  /** The unit's switchboard number. */\n  phone?: string;");
    expect(generated.contractRecords).toContain('export type AuditNoteRecord = {');
    expect(generated.orgGraph).not.toContain('AuditNote');
  });
});

describe('a property removed from the contract', () => {
  it('leaves both versions, and the committed files no longer match: the drift test fails', async () => {
    const typeDefs = versionTypeDefs(generated.orgGraph);
    expect(fieldType(buildSchema(typeDefs.v1), 'Class', 'full_name')).toBeUndefined();
    expect(fieldType(buildSchema(typeDefs.v2), 'Class', 'full_name')).toBeUndefined();
    // OS2mo's versions show only the graph fields their views name (the ledger, gateway/src/graphql/os2mo/ledger/):
    // a property they do not view leaves their SDL as it was.
    const os2moVersion = /^servedV(2\d|30)$/;
    for (const [key, path] of Object.entries(generatedFiles).filter(([key]) => !os2moVersion.test(key))) {
      expect(await readFile(path, 'utf8'), key).not.toBe(generated[key as keyof Generated]);
    }
  });
});
