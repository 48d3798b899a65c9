import { browserAssetUrl } from './browser-assets.js';
import { renderBrowserPage } from './page-shell.js';
import { referenceQueries } from './reference-queries.js';
import { referenceUnitsPath } from './reference-units.js';
import { toolNavigation } from './tool-navigation.js';

const versionNumber = (version: string) => Number(version.replace(/^v/, ''));

/**
 * The HTML page at `GET /migration`: after the same sign-in as GraphiQL, the migration workbench compares
 * the legacy requests for some org units (or employees) with the one GraphQL query that replaces them, via
 * `POST /migration/compare`, shows the shadow comparison's last mismatches from `GET /migration/shadow`, and
 * on request the coverage report of every `/service` endpoint from `GET /migration/coverage` and the
 * retirement report (who still calls what, with a chart of calls per client per day) from `GET /migration/usage`.
 */
export function workbenchPage(newestVersion: string): string {
  const versions = [...new Set([...Object.keys(referenceQueries), newestVersion])].sort(
    (a, b) => versionNumber(a) - versionNumber(b),
  );
  return renderBrowserPage({
    title: 'Migration workbench · Organisation gateway',
    navigation: toolNavigation({ tool: 'workbench' }),
    script: 'client/workbench-page.js',
    config: {
      versions,
      version: newestVersion,
      // The page opens ready to compare the backend's reference units, which it asks for after sign-in.
      endpoints: {
        compare: '/migration/compare',
        shadow: '/migration/shadow',
        coverage: '/migration/coverage',
        usage: '/migration/usage',
        referenceUnits: referenceUnitsPath,
      },
      assets: { stylesheet: browserAssetUrl('client/workbench.css') },
    },
  });
}
