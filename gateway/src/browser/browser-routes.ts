import { Hono, type MiddlewareHandler } from 'hono';
import type { GatewayVariables } from '../auth/bearer-auth.js';
import { browserAssetRoutes } from './browser-assets.js';
import { referenceUnitsPath, type ReferenceUnits } from './reference-units.js';
import { voyagerPage } from './voyager-page.js';
import { workbenchPage } from './workbench-page.js';

export { graphiqlPage } from './graphiql-page.js';

export interface BrowserRouteOptions {
  /** The version Voyager shows: always the newest. */
  newestVersion: string;
  /** The units the tools open with, found at the backend with the caller's token. */
  referenceUnits: Pick<ReferenceUnits, 'find'>;
  /** The bearer-token check in front of `GET /browser/reference-units`. */
  authenticate: MiddlewareHandler<{ Variables: GatewayVariables }>;
}

/**
 * `GET /voyager` (GraphQL Voyager for the newest version, after signing in), `GET /migration` (the migration
 * workbench, after signing in), `GET /browser-assets/*` (everything the browser pages load, from
 * node_modules and this folder) and `GET /browser/reference-units` (the units the pages open with). Only
 * the last needs a token: the pages sign in themselves and send the bearer token with each request.
 *
 * @example
 * app.route('/', browserRoutes({ newestVersion: 'v2', referenceUnits, authenticate: bearerAuth(…) }));
 */
export function browserRoutes(options: BrowserRouteOptions): Hono<{ Variables: GatewayVariables }> {
  const app = new Hono<{ Variables: GatewayVariables }>();
  app.get(referenceUnitsPath, options.authenticate, async (c) =>
    c.json({ units: await options.referenceUnits.find(c.req.header('authorization')) }),
  );
  const page = voyagerPage(options.newestVersion);
  app.get('/voyager', (c) => c.html(page));
  app.get('/voyager/', (c) => c.redirect('/voyager', 301));
  const workbench = workbenchPage(options.newestVersion);
  app.get('/migration', (c) => c.html(workbench));
  app.get('/migration/', (c) => c.redirect('/migration', 301));
  app.route('/', browserAssetRoutes());
  return app;
}
