/**
 * `npm run graph:generate`: builds the org graph with Mesh and writes the committed generated files.
 * Run it after changing `openapi/legacy-service.yaml`, `.meshrc.yaml` or `gateway/mesh/`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import {
  contractOperationsFile,
  contractOperationsModule,
  type ContractPaths,
} from './contract-operations-module.js';
import { contractPath, generate, generatedFiles } from './generate.js';
import { buildMesh, repositoryRoot } from './mesh-build.js';

await buildMesh();
const generated = await generate();
for (const [key, path] of Object.entries(generatedFiles)) {
  await writeFile(path, generated[key as keyof typeof generatedFiles]);
  console.log(`wrote ${relative(repositoryRoot, path)}`);
}
// The contract's operations need no Mesh build; their drift test is contract-operations-module.test.ts.
const contract = parseYaml(await readFile(contractPath, 'utf8')) as ContractPaths;
await writeFile(
  contractOperationsFile,
  await contractOperationsModule(contract, relative(repositoryRoot, contractPath)),
);
console.log(`wrote ${relative(repositoryRoot, contractOperationsFile)}`);
