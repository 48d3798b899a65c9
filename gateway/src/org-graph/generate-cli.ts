/**
 * `npm run graph:generate`: builds the org graph with Mesh and writes the committed generated files.
 * Run it after changing `openapi/legacy-service.yaml`, `.meshrc.yaml` or `gateway/mesh/`.
 */
import { writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { generate, generatedFiles } from './generate.js';
import { buildMesh, repositoryRoot } from './mesh-build.js';

await buildMesh();
const generated = await generate();
for (const [key, path] of Object.entries(generatedFiles)) {
  await writeFile(path, generated[key as keyof typeof generatedFiles]);
  console.log(`wrote ${relative(repositoryRoot, path)}`);
}
