import { browserAssetUrl } from './browser-assets.js';
import { renderBrowserPage } from './page-shell.js';
import { toolNavigation } from './tool-navigation.js';

/** The HTML page at `GET /voyager`: after the same sign-in, GraphQL Voyager draws the given version's graph. */
export function voyagerPage(version: string): string {
  return renderBrowserPage({
    title: `Voyager ${version} · Organisation gateway`,
    navigation: toolNavigation({ tool: 'voyager' }),
    script: 'client/voyager-page.js',
    config: {
      version,
      endpoint: `/graphql/${version}`,
      assets: {
        script: browserAssetUrl('graphql-voyager/voyager.standalone.js'),
        stylesheet: browserAssetUrl('graphql-voyager/voyager.css'),
      },
    },
  });
}
