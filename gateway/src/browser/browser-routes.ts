import { Hono } from 'hono';
import { browserAssetRoutes } from './browser-assets.js';
import { voyagerPage } from './voyager-page.js';
import { workbenchPage } from './workbench-page.js';

export { graphiqlPage } from './graphiql-page.js';

export interface BrowserRouteOptions {
  /** The version Voyager shows: always the newest. */
  newestVersion: string;
}

/**
 * `GET /voyager` (GraphQL Voyager for the newest version, after signing in), `GET /migration` (the migration
 * workbench, after signing in) and `GET /browser-assets/*`
 * (everything the browser pages load, from node_modules and this folder). Neither needs a token: the pages
 * sign in themselves and send the bearer token with each GraphQL request.
 *
 * @example
 * app.route('/', browserRoutes({ newestVersion: 'v2' }));
 */
export function browserRoutes(options: BrowserRouteOptions): Hono {
  const app = new Hono();
  const page = voyagerPage(options.newestVersion);
  app.get('/voyager', (c) => c.html(page));
  app.get('/voyager/', (c) => c.redirect('/voyager', 301));
  const workbench = workbenchPage(options.newestVersion);
  app.get('/migration', (c) => c.html(workbench));
  app.get('/migration/', (c) => c.redirect('/migration', 301));
  app.route('/', browserAssetRoutes());
  return app;
}
