import { referenceUnitUuids } from '../../../legacy-service/src/fixture/organisation.js';
import { browserAssetUrl } from './browser-assets.js';
import { renderBrowserPage } from './page-shell.js';
import { referenceQueries } from './reference-queries.js';
import { toolNavigation } from './tool-navigation.js';

const versionNumber = (version: string) => Number(version.replace(/^v/, ''));

/**
 * The HTML page at `GET /migration`: after the same sign-in as GraphiQL, the migration workbench compares
 * the legacy requests for some org units (or employees) with the one GraphQL query that replaces them, via
 * `POST /migration/compare`, and shows the shadow comparison's last mismatches from `GET /migration/shadow`.
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
      // The specification's reference units: the page opens ready to compare them.
      defaultUnits: referenceUnitUuids,
      endpoints: { compare: '/migration/compare', shadow: '/migration/shadow' },
      assets: { stylesheet: browserAssetUrl('client/workbench.css') },
    },
  });
}
