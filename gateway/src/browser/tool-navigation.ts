import type { NavigationLink } from './page-shell.js';
import { graphiqlQueries } from './reference-queries.js';

/** The page a navigation bar is drawn on. */
export type CurrentTool = { tool: 'graphiql'; version: string } | { tool: 'voyager' } | { tool: 'workbench' };

const versionNumber = (version: string) => Number(version.replace(/^v/, ''));

/**
 * Links to GraphiQL for every version that opens with a reference query (plus the one being shown), to Voyager,
 * which always shows the newest version, and to the migration workbench.
 */
export function toolNavigation(current: CurrentTool): NavigationLink[] {
  const versions = new Set(Object.keys(graphiqlQueries));
  if (current.tool === 'graphiql') versions.add(current.version);
  const graphiqlLinks = [...versions]
    .sort((a, b) => versionNumber(a) - versionNumber(b))
    .map((version) => ({
      label: `GraphiQL ${version}`,
      href: `/graphql/${version}`,
      current: current.tool === 'graphiql' && current.version === version,
    }));
  return [
    ...graphiqlLinks,
    { label: 'Voyager', href: '/voyager', current: current.tool === 'voyager' },
    { label: 'Workbench', href: '/migration', current: current.tool === 'workbench' },
  ];
}
