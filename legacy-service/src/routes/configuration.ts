import { Hono, type Context } from 'hono';
import { invalid } from '../errors.js';
import { requireUuid } from '../input.js';

/** A link OS2mo's frontend shows in its menu (2.4.0 `backend/mora/config.py`, `NavLink`). */
export interface NavLink {
  href: string;
  text: string;
}

/**
 * A unit's settings as OS2mo 2.4.0 answers them without its configuration database (`conf_db_use` false, the
 * default): every `confdb_*` setting of `backend/mora/config.py:110-137` with its default, named without the
 * prefix (`conf_db/__init__.py`, `get_settings_configuration`), in the order the settings declare them.
 */
export const unitConfiguration = {
  show_roles: true,
  show_kle: false,
  show_user_key: true,
  show_location: true,
  show_time_planning: false,
  show_level: true,
  show_primary_engagement: false,
  show_primary_association: false,
  show_org_unit_button: false,
  inherit_manager: true,
  association_dynamic_facets: '',
  substitute_roles: '',
  show_cpr_no: true,
  show_user_key_in_search: false,
  extension_field_ui_labels: '',
  show_engagement_hyperlink: false,
  show_seniority: false,
  show_owner: false,
  autocomplete_use_new_api: false,
  autocomplete_attrs_employee: null,
  autocomplete_attrs_orgunit: null,
} as const;

/**
 * The global settings: a unit's, and `confdb_autocomplete_use_new_api` under its full name, which 2.4.0's
 * `get_global_configuration` adds (`service/configuration.py:77-97`).
 */
export const globalConfiguration = { ...unitConfiguration, confdb_autocomplete_use_new_api: false } as const;

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
