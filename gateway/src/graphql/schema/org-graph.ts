import { readFileSync } from 'node:fs';

/**
 * The org graph's entity types, as `npm run graph:generate` wrote them from the contract with Mesh
 * (`gateway/src/org-graph/`). Production runs no Mesh: the gateway reads this committed file.
 */
export const orgGraphTypeDefs = readFileSync(
  new URL('../../org-graph/org-graph.graphql', import.meta.url),
  'utf8',
);
