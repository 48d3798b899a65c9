/**
 * `npm run graph:generate`: builds the org graph with Mesh and writes the committed generated files.
 * Run it after changing `openapi/legacy-service.yaml`, `.meshrc.yaml`, `gateway/src/graphql/graph-links.ts` or `gateway/mesh/`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import {
  contractOperationsFile,
  contractOperationsModule,
  contractOperationsOf,
  type ContractPaths,
} from './contract-operations-module.js';
import { contractPath, generate, generatedFiles, meshConfigPath } from './generate.js';
import { graphLinks } from '../graphql/graph-links.js';
import { graphLinksFile, graphLinksModule, type MeshConfig } from './graph-links-module.js';
import { buildMesh, repositoryRoot } from './mesh-build.js';

const contract = parseYaml(await readFile(contractPath, 'utf8')) as ContractPaths;
// The Mesh peer's links are an input of the Mesh build, so they are written first; their drift test is
// graph-links-module.test.ts.
const meshConfig = parseYaml(await readFile(meshConfigPath, 'utf8')) as MeshConfig;
await writeFile(
  graphLinksFile,
  await graphLinksModule(graphLinks, meshConfig, contractOperationsOf(contract)),
);
console.log(`wrote ${relative(repositoryRoot, graphLinksFile)}`);

await buildMesh();
const generated = await generate();
for (const [key, path] of Object.entries(generatedFiles)) {
  await writeFile(path, generated[key as keyof typeof generatedFiles]);
  console.log(`wrote ${relative(repositoryRoot, path)}`);
}
// The contract's operations need no Mesh build; their drift test is contract-operations-module.test.ts.
await writeFile(
  contractOperationsFile,
  await contractOperationsModule(contract, relative(repositoryRoot, contractPath)),
);
console.log(`wrote ${relative(repositoryRoot, contractOperationsFile)}`);
