import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { contractRecordsModule } from './contract-records.js';
import { generate, generateCommand, generatedFiles } from './generate.js';
import { ensureMeshBuild } from './mesh-build.js';

// `generate()` reads Mesh's build: it passed only after another file had built `.mesh/` (a fresh clone, or the
// files in another order, had none).
beforeAll(() => ensureMeshBuild(), 180_000);

describe('the typed legacy records', () => {
  it(`are what the contract generates (else run \`${generateCommand}\`)`, async () => {
    const committed = await readFile(generatedFiles.contractRecords, 'utf8');
    const { contractRecords } = await generate();
    expect(
      committed === contractRecords,
      `${generatedFiles.contractRecords} differs from the contract: run \`${generateCommand}\` and commit the result.`,
    ).toBe(true);
  });

  it('follow the nullability rule: required and not nullable is present and non-null', async () => {
    const module = await contractRecordsModule(
      {
        components: {
          schemas: {
            Unit: {
              type: 'object',
              description: 'A unit.',
              required: ['uuid', 'parent'],
              properties: {
                uuid: { type: 'string', format: 'uuid' },
                parent: { type: 'object', nullable: true, allOf: [{ $ref: '#/components/schemas/Unit' }] },
                level: { type: 'string', enum: ['top', 'leaf'] },
                tags: { type: 'array', items: { type: 'string' } },
              },
            },
          },
        },
      },
      'contract.yaml',
      generatedFiles.contractRecords,
    );
    expect(module).toContain('/** A unit. */\nexport type UnitRecord = {');
    expect(module).toContain('  uuid: string;\n  parent: UnitRecord | null;\n');
    expect(module).toContain("  level?: 'top' | 'leaf';\n  tags?: string[];\n");
    expect(module).toContain('export interface ContractRecords {\n  Unit: UnitRecord;\n}');
  });
});
