/**
 * What `npm run graph:generate` writes, computed from a Mesh build and the contract it read: the org
 * graph as SDL (the gateway's versions are transforms of it) and the TypeScript types of every
 * contract schema. Pure functions of their inputs, so the drift test can compare them with the
 * committed files.
 */
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { contractRecordsModule, type Contract } from './contract-records.js';
import { repositoryRoot } from './mesh-build.js';

/** The contract `.meshrc.yaml` names, and the files the command writes (all committed). */
export const contractPath = join(repositoryRoot, 'openapi', 'legacy-service.yaml');
export const generatedFiles = {
  contractRecords: join(repositoryRoot, 'gateway', 'src', 'legacy', 'contract-records.generated.ts'),
} as const;

/** The command that regenerates every generated file; failures name it. */
export const generateCommand = 'npm run graph:generate';

export interface GenerateOptions {
  /** The OpenAPI file; default: the repository's contract. */
  contract?: string;
}

export interface Generated {
  contractRecords: string;
}

export async function generate(options: GenerateOptions = {}): Promise<Generated> {
  const contract = parseYaml(await readFile(options.contract ?? contractPath, 'utf8')) as Contract;
  return {
    contractRecords: await contractRecordsModule(
      contract,
      relative(repositoryRoot, contractPath),
      generatedFiles.contractRecords,
    ),
  };
}
