import { browserAssetUrl } from './browser-assets.js';
import { renderBrowserPage } from './page-shell.js';
import { graphiqlQueries, referenceUnitsMarker } from './reference-queries.js';
import { referenceUnitsPath } from './reference-units.js';
import { toolNavigation } from './tool-navigation.js';

/**
 * The HTML page a browser gets at `GET /graphql/{version}`: it signs in at the identity provider with
 * keycloak-js, then opens GraphiQL for that version, which sends the bearer token with every request.
 */
export function graphiqlPage(version: string): string {
  return renderBrowserPage({
    title: `GraphiQL ${version} · Organisation gateway`,
    navigation: toolNavigation({ tool: 'graphiql', version }),
    script: 'client/graphiql-page.js',
    config: {
      version,
      endpoint: `/graphql/${version}`,
      defaultQuery: graphiqlQueries[version] ?? null,
      referenceUnits: { endpoint: referenceUnitsPath, marker: referenceUnitsMarker },
      assets: {
        script: browserAssetUrl('graphiql/graphiql.js'),
        stylesheet: browserAssetUrl('graphiql/graphiql.css'),
        // Monaco asks for its workers by these labels.
        workers: {
          editorWorkerService: browserAssetUrl('graphiql/editor.worker.js'),
          json: browserAssetUrl('graphiql/json.worker.js'),
          graphql: browserAssetUrl('graphiql/graphql.worker.js'),
        },
      },
    },
  });
}
