import { Hono, type Context } from 'hono';
import { printSchema } from 'graphql';
import { bearerAuth, type GatewayVariables } from '../auth/bearer-auth.js';
import type { TokenVerifier } from '../auth/token-verifier.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { UnexpectedErrorLog } from '../errors/legacy-error-body.js';
import { payloadTooLarge } from '../errors/payload-too-large.js';
import { declaredBodyLimit } from '../http/body-limit.js';
import type { DeprecationNotice } from '../deprecation/deprecation-notice.js';
import { graphqlErrorHandler } from './errors.js';
import { versionDeprecationStep } from './version-deprecation.js';
import type { VersionServer } from './yoga.js';
import { exchangeWithYoga } from './yoga-exchange.js';
import type { GraphQLVersion } from './versions.js';

export interface VersionRouteOptions {
  versions: { version: GraphQLVersion; server: VersionServer }[];
  removedVersions: string[];
  migrationGuideUrl: string;
  verifier: TokenVerifier;
  realm: string;
  maxBodyBytes: number;
  /** The GraphiQL page a browser gets for a version; it logs in at the identity provider first. */
  graphiqlPage: (version: string) => string;
  /** Told about failures that are not a `GatewayError`; the client sees only that something went wrong. */
  logUnexpected: UnexpectedErrorLog;
  /** Deprecated versions by name (`versionDeprecations`); an empty map adds no step. */
  deprecations?: Map<string, DeprecationNotice>;
  /** The time brownout windows are judged by. */
  clock?: () => Date;
  /** Told when Yoga gets its own copy of a request, so what is known about the first applies to both. */
  sameRequest?: (from: Request, to: Request) => void;
}

/** A browser asking for the page rather than a client sending a query. */
function wantsPage(c: Context): boolean {
  return (
    c.req.method === 'GET' && !c.req.query('query') && (c.req.header('accept') ?? '').includes('text/html')
  );
}

/**
 * `/graphql` (browser redirect to the newest version, never a query), `/graphql/vN` (GraphiQL for a browser,
 * otherwise authenticated GraphQL), `/graphql/vN/schema.graphql`, 410 for removed versions and 404 for
 * versions that never existed.
 */
export function versionRoutes(options: VersionRouteOptions): Hono<{ Variables: GatewayVariables }> {
  const app = new Hono<{ Variables: GatewayVariables }>();
  const names = options.versions.map(({ version }) => version.name);
  const newest = names[names.length - 1];
  const byName = new Map(options.versions.map((entry) => [entry.version.name, entry]));
  const available = `Available versions: ${names.map((name) => `/graphql/${name}`).join(', ')}.`;

  app.get('/graphql', (c) => c.redirect(`/graphql/${newest}`, 302));
  app.get('/graphql/', (c) => c.redirect(`/graphql/${newest}`, 302));
  app.all('/graphql', () => {
    throw new GatewayError(
      404,
      'VERSION_REQUIRED',
      `/graphql has no schema: send queries to a versioned path. ${available}`,
      {
        context: { versions: names },
      },
    );
  });

  const unknownVersion = (name: string) =>
    options.removedVersions.includes(name)
      ? new GatewayError(
          410,
          'VERSION_REMOVED',
          `GraphQL ${name} has been removed. Move to /graphql/${newest} using the migration guide.`,
          { context: { migration_guide: options.migrationGuideUrl, versions: names } },
        )
      : new GatewayError(404, 'VERSION_NOT_FOUND', `There is no GraphQL ${name}. ${available}`, {
          context: { versions: names },
        });

  app.get('/graphql/:version/schema.graphql', (c) => {
    const entry = byName.get(c.req.param('version'));
    if (!entry) throw unknownVersion(c.req.param('version'));
    return c.text(printSchema(entry.version.schema), 200, { 'content-type': 'text/plain; charset=utf-8' });
  });
  // The schema is a document to read: any other method is 405, not the legacy 404.
  app.all('/graphql/:version/schema.graphql', (c) => {
    const name = c.req.param('version');
    if (!byName.has(name)) throw unknownVersion(name);
    throw new GatewayError(
      405,
      'METHOD_NOT_ALLOWED',
      `The schema is read with GET or HEAD, not ${c.req.method}.`,
      {
        headers: { Allow: 'GET, HEAD' },
      },
    );
  });

  const authenticate = bearerAuth({ verifier: options.verifier, realm: options.realm });
  const limitBody = declaredBodyLimit({
    maxSize: options.maxBodyBytes,
    onError: () => {
      throw payloadTooLarge(
        `The request body is larger than ${options.maxBodyBytes} bytes.`,
        options.maxBodyBytes,
      );
    },
  });

  const deprecation =
    options.deprecations && options.deprecations.size > 0
      ? [versionDeprecationStep(options.deprecations, options.clock)]
      : [];
  app.on(
    ['GET', 'POST'],
    '/graphql/:version',
    async (c, next) => {
      if (!byName.has(c.req.param('version'))) throw unknownVersion(c.req.param('version'));
      await next();
    },
    async (c, next) => (wantsPage(c) ? c.html(options.graphiqlPage(c.req.param('version'))) : next()),
    limitBody,
    authenticate,
    ...deprecation,
    async (c) => {
      const entry = byName.get(c.req.param('version'));
      if (!entry) throw unknownVersion(c.req.param('version'));
      return exchangeWithYoga(
        c,
        entry.server,
        { principal: c.get('principal'), requestId: c.get('requestId'), traceContext: c.get('traceContext') },
        options.sameRequest,
      );
    },
  );
  app.all('/graphql/:version', (c) => {
    const name = c.req.param('version');
    if (!byName.has(name)) throw unknownVersion(name);
    throw new GatewayError(405, 'METHOD_NOT_ALLOWED', 'Use POST (or GET for queries).', {
      headers: { Allow: 'GET, POST' },
    });
  });
  app.onError(graphqlErrorHandler(options.logUnexpected));

  return app;
}
