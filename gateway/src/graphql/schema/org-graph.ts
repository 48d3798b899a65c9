import { readFileSync } from 'node:fs';

/**
 * The org graph's entity types, as `npm run graph:generate` wrote them from the contract with Mesh
 * (`gateway/src/org-graph/`). Production runs no Mesh: the gateway reads this committed file. Read
 * when asked, not on import, so that the command can regenerate a file that is missing or broken.
 */
export function readOrgGraphTypeDefs(): string {
  return readFileSync(new URL('../../org-graph/org-graph.graphql', import.meta.url), 'utf8');
}
