import { randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createTokenCheck, requireBearerToken } from './auth.js';
import type { LegacyAuthConfig } from './config.js';
import { invalid, LegacyError, notFound } from './errors.js';
import { OrgData } from './org-data.js';
import type { NavLink } from './frontend-settings.js';
import { addressAutocompleteRoutes } from './routes/address-autocomplete.js';
import { configurationRoutes } from './routes/configuration.js';
import { exportRoutes } from './routes/exports.js';
import { integrationDataRoutes } from './routes/integration-data.js';
import { loginHelperRoutes } from './routes/login-helpers.js';
import { lookupRoutes } from './routes/lookups.js';
import { readingApiRoutes } from './routes/reading-api.js';
import { readRoutes } from './routes/reads.js';
import { validateRoutes } from './routes/validate.js';
import { writeRoutes } from './routes/writes.js';
import type { Store } from './store/index.js';

/** The OS2mo release whose Service API this service stands in for (`GET /version/`). */
export const serviceApiRelease = '2.4.0';

/** Names the state of the data a `/service` answer was read from (see `createLegacyApp`). */
export const dataVersionHeader = 'X-Data-Version';

export interface LegacyAppOptions {
  store: Store;
  /** Today's date for reads without `at`; tests pin it. */
  clock?: () => Date;
  /** Largest accepted request body in bytes. */
  maxBodyBytes?: number;
  /** Added before every response; benchmarks use it to stand in for a remote legacy backend. */
  latencyMs?: number;
  /**
   * Bearer-token authentication of every `/service` call (`readLegacyConfig().auth`). Absent means off:
   * in-process callers (tests, the gateway's test stacks) must ask for it, because the gateway does not
   * send tokens to the backend yet. `main.ts` always passes the configured value, which defaults to on.
   */
  auth?: LegacyAuthConfig;
  /**
   * The realm's client `POST /service/token` logs in with and `GET /service/keycloak.json` names (2.4.0's
   * `keycloak_mo_client`); default `org-frontend`. Both routes need `auth`: without it no realm is known.
   */
  keycloakClient?: string;
  /** The folder `GET /service/exports/` lists (OS2mo's `QUERY_EXPORT_DIR`); none means a missing folder. */
  exportDir?: string;
  /** `GET /service/navlinks` (OS2mo's `NAVLINKS`); none answers `[{}]`, as 2.4.0 does. */
  navlinks?: readonly NavLink[];
  /** Receives unexpected errors (the client only sees a generic 500). */
  onUnexpectedError?: (error: unknown) => void;
}

/**
 * The legacy `/service` REST API. Errors always use the legacy body
 * `{error, status, error_key, description, ...context}`.
 *
 * @example
 * const app = createLegacyApp({ store: await openStore({ dir, indexes: orgDataIndexes }) });
 * const response = await app.request('/service/o/');
 */
export function createLegacyApp(options: LegacyAppOptions): Hono {
  const { store, clock = () => new Date(), maxBodyBytes = 1024 * 1024, latencyMs = 0 } = options;
  const data = new OrgData(store);
  const app = new Hono({ strict: false });

  // Counted so benchmarks and tests can tell how many calls a client (the gateway) made.
  let served = 0;
  const countServed = async (_c: unknown, next: () => Promise<void>) => {
    served += 1;
    await next();
  };
  app.use('/service/*', countServed);
  app.use('/api/v1/*', countServed);

  if (latencyMs > 0) {
    app.use('*', async (_c, next) => {
      await new Promise((resolve) => setTimeout(resolve, latencyMs));
      await next();
    });
  }

  app.get('/health', (c) => c.json({ status: 'ok', sequence: store.sequence, requests_served: served }));

  // OS2mo 2.x answers its release here without a token; the stand-in has no LoRa store behind it.
  app.get('/version', (c) => c.json({ mo_version: serviceApiRelease, lora_version: null }));

  // The data version a `/service` answer was read at or after: this process's id and the store's journal
  // position, taken before the handler runs. A client that caches what it derives from the data (the
  // gateway's migration workbench) compares it; any write changes it. OS2mo has no such header.
  const instance = randomUUID().slice(0, 8);
  const stampDataVersion = async (c: Context, next: () => Promise<void>) => {
    const version = `${instance}.${store.sequence}`;
    await next();
    c.res.headers.set(dataVersionHeader, version);
  };
  app.use('/service/*', stampDataVersion);
  app.use('/api/v1/*', stampDataVersion);

  // 2.4.0 mounts its login helpers under `/service` without the token check (`mora/app.py:223-227`); without
  // a realm (authentication off) they have nothing to point to and answer as unknown paths.
  app.route(
    '/service',
    loginHelperRoutes({
      realm: options.auth?.enabled
        ? { issuer: options.auth.issuer, client: options.keycloakClient ?? 'org-frontend' }
        : undefined,
      maxBodyBytes,
    }),
  );
  if (options.auth?.enabled) {
    // 2.4.0 guards its reading API with the same `auth` dependency as `/service` (`mora/app.py`).
    const tokenCheck = requireBearerToken(createTokenCheck(options.auth), options.onUnexpectedError);
    app.use('/service/*', tokenCheck);
    app.use('/api/v1/*', tokenCheck);
  }

  app.use(
    '/service/*',
    bodyLimit({
      maxSize: maxBodyBytes,
      onError: () => {
        throw invalid.tooLarge(maxBodyBytes);
      },
    }),
  );
  // Before the reads: `/e/cpr_lookup` and `/ou/autocomplete` would otherwise be taken for UUIDs.
  app.route('/service', lookupRoutes({ data, clock }));
  app.route('/service', addressAutocompleteRoutes({ data }));
  app.route('/service', readRoutes({ data, clock }));
  app.route('/service', writeRoutes({ store }));
  app.route('/service', configurationRoutes({ navlinks: options.navlinks ?? [] }));
  app.route('/service', exportRoutes({ exportDir: options.exportDir }));
  app.route('/service', integrationDataRoutes({ data, clock }));
  app.route('/service', validateRoutes({ data }));
  app.route('/api/v1', readingApiRoutes({ data, clock }));

  app.notFound((c) => {
    // A detail type OS2mo does not have is its "unknown role type" (the other object kind's own type,
    // `org_unit` of a person or `employee` of a unit, its "invalid role type"), not a missing endpoint.
    const detail = /^\/service\/(ou|e)\/[^/]+\/details\/([^/]+)\/?$/.exec(c.req.path);
    if (detail && c.req.method === 'GET') {
      const error = ['org_unit', 'employee'].includes(detail[2]!)
        ? new LegacyError(400, 'E_INVALID_ROLE_TYPE', 'Invalid role type for target operation.', {
            type: detail[2],
          })
        : invalid.unknownRoleType(detail[2]);
      return c.json(error.toBody(), error.status);
    }
    const error = notFound.endpoint(c.req.path, c.req.method);
    return c.json(error.toBody(), 404);
  });

  app.onError((error, c) => {
    if (error instanceof LegacyError) return c.json(error.toBody(), error.status);
    options.onUnexpectedError?.(error);
    return c.json(
      { error: true, status: 500, error_key: 'E_UNKNOWN', description: 'An unexpected error occurred.' },
      500,
    );
  });

  return app;
}
