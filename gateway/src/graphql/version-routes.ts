import { Hono, type Context } from 'hono';
import { printSchema } from 'graphql';
import { bearerAuth, type GatewayVariables } from '../auth/bearer-auth.js';
import type { TokenVerifier } from '../auth/token-verifier.js';
import { declaredBodyLimit } from '../http/body-limit.js';
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
  /** Told when Yoga gets its own copy of a request, so what is known about the first applies to both. */
  sameRequest?: (from: Request, to: Request) => void;
}

const graphqlError = (
  c: Context,
  status: 404 | 410 | 413,
  message: string,
  extensions: Record<string, unknown>,
) => c.json({ errors: [{ message, extensions }] }, status);

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
  app.all('/graphql', (c) =>
    graphqlError(c, 404, `/graphql has no schema: send queries to a versioned path. ${available}`, {
      code: 'VERSION_REQUIRED',
      versions: names,
    }),
  );

  const unknownVersion = (c: Context, name: string) =>
    options.removedVersions.includes(name)
      ? graphqlError(
          c,
          410,
          `GraphQL ${name} has been removed. Move to /graphql/${newest} using the migration guide.`,
          {
            code: 'VERSION_REMOVED',
            migration_guide: options.migrationGuideUrl,
            versions: names,
          },
        )
      : graphqlError(c, 404, `There is no GraphQL ${name}. ${available}`, {
          code: 'VERSION_NOT_FOUND',
          versions: names,
        });

  app.get('/graphql/:version/schema.graphql', (c) => {
    const entry = byName.get(c.req.param('version'));
    if (!entry) return unknownVersion(c, c.req.param('version'));
    return c.text(printSchema(entry.version.schema), 200, { 'content-type': 'text/plain; charset=utf-8' });
  });
  // The schema is a document to read: any other method is 405, not the legacy 404.
  app.all('/graphql/:version/schema.graphql', (c) => {
    const name = c.req.param('version');
    if (!byName.has(name)) return unknownVersion(c, name);
    c.header('Allow', 'GET, HEAD');
    return c.json(
      {
        errors: [
          {
            message: `The schema is read with GET or HEAD, not ${c.req.method}.`,
            extensions: { code: 'METHOD_NOT_ALLOWED' },
          },
        ],
      },
      405,
    );
  });

  const authenticate = bearerAuth({ verifier: options.verifier, realm: options.realm, flavour: 'graphql' });
  const limitBody = declaredBodyLimit({
    maxSize: options.maxBodyBytes,
    onError: (c) => {
      // The rest of the body is never read, so the connection cannot be reused.
      c.header('Connection', 'close');
      return graphqlError(c, 413, `The request body is larger than ${options.maxBodyBytes} bytes.`, {
        code: 'PAYLOAD_TOO_LARGE',
      });
    },
  });

  app.on(
    ['GET', 'POST'],
    '/graphql/:version',
    async (c, next) =>
      byName.has(c.req.param('version')) ? next() : unknownVersion(c, c.req.param('version')),
    async (c, next) => (wantsPage(c) ? c.html(options.graphiqlPage(c.req.param('version'))) : next()),
    limitBody,
    authenticate,
    async (c) => {
      const entry = byName.get(c.req.param('version'));
      if (!entry) return unknownVersion(c, c.req.param('version'));
      return exchangeWithYoga(c, entry.server, { principal: c.get('principal') }, options.sameRequest);
    },
  );
  app.all('/graphql/:version', (c) => {
    const name = c.req.param('version');
    if (!byName.has(name)) return unknownVersion(c, name);
    c.header('Allow', 'GET, POST');
    return c.json(
      { errors: [{ message: 'Use POST (or GET for queries).', extensions: { code: 'METHOD_NOT_ALLOWED' } }] },
      405,
    );
  });

  return app;
}
