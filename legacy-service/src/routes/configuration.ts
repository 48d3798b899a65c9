import { Hono, type Context } from 'hono';
import { invalid } from '../errors.js';
import { globalConfiguration, unitConfiguration, type NavLink } from '../frontend-settings.js';
import { requireUuid } from '../input.js';

export interface ConfigurationRouteOptions {
  /** `GET /service/navlinks`; OS2mo's `NAVLINKS` setting. */
  navlinks: readonly NavLink[];
}

/** A write of settings takes a JSON object (FastAPI's `Body(...)` of a `dict`) and is refused all the same. */
async function requireObjectBody(c: Context): Promise<void> {
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text()) as unknown;
  } catch {
    throw invalid.json();
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid.input([{ key: 'body', message: 'must be a JSON object' }]);
  }
}

/**
 * OS2mo 2.4.0's configuration router (`backend/mora/service/configuration.py`): the global and per-unit
 * settings (read-only: their writes answer 410 and `false`, as 2.4.0's removed endpoints do) and the nav links
 * (`[{}]` when none are configured).
 */
export function configurationRoutes({ navlinks }: ConfigurationRouteOptions): Hono {
  const app = new Hono({ strict: false });

  app.get('/configuration', (c) => c.json(globalConfiguration));
  app.post('/configuration', async (c) => {
    await requireObjectBody(c);
    return c.json(false, 410);
  });

  // 2.4.0 does not look the unit up: any UUID has the (global) settings.
  app.get('/ou/:uuid/configuration', (c) => {
    requireUuid('uuid', c.req.param('uuid'));
    return c.json(unitConfiguration);
  });
  app.post('/ou/:uuid/configuration', async (c) => {
    requireUuid('uuid', c.req.param('uuid'));
    await requireObjectBody(c);
    return c.json(false, 410);
  });

  app.get('/navlinks', (c) => c.json(navlinks.length > 0 ? navlinks : [{}]));

  return app;
}
