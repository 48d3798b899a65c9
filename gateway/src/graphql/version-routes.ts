import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { printSchema } from 'graphql';
import { bearerAuth, type GatewayVariables } from '../auth/bearer-auth.js';
import type { TokenVerifier } from '../auth/token-verifier.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { UnexpectedErrorLog } from '../errors/legacy-error-body.js';
import { payloadTooLarge } from '../errors/payload-too-large.js';
import { bodyAborted, bodyTooSlow } from '../errors/request-body.js';
import {
  BodyAborted,
  BodyTooLarge,
  BodyTooSlow,
  declaredLength,
  readBoundedBody,
} from '../http/body-limit.js';
import type { DeprecationNotice } from '../deprecation/deprecation-notice.js';
import { graphqlErrorHandler } from './errors.js';
import { introspectionOnly } from './introspection-only.js';
import { retiredVersionStep, versionDeprecationStep } from './version-deprecation.js';
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
  /** Longest time a client may take to send a whole body (`GATEWAY_BODY_TIMEOUT_MS`), as on `/service`. */
  bodyTimeoutMs: number;
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
  /** Per-client rate limits (`rateLimitStep`), right after the token; none when no limit is set. */
  rateLimit?: MiddlewareHandler<{ Variables: GatewayVariables }>;
}

/** A POST whose body type GraphQL over HTTP does not read, said with the type to use instead. */
function unsupportedMediaType(given: string | undefined): GatewayError {
  const type = given?.split(';')[0]?.trim();
  return new GatewayError(
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    `${type ? `A body of type ${type}` : 'A body without a Content-Type'} is not a GraphQL request: send {"query": …} as JSON with Content-Type: application/json.`,
  );
}

/** A browser asking for the page rather than a client sending a query. */
function wantsPage(c: Context): boolean {
  return (
    c.req.method === 'GET' && !c.req.query('query') && (c.req.header('accept') ?? '').includes('text/html')
  );
}

/**
 * `/graphql` (browser redirect to the newest version, never a query), `/graphql/vN` (GraphiQL for a browser,
 * otherwise authenticated GraphQL), `/graphql/vN/schema.graphql` (the SDL, or an introspection POST), 410 for removed versions and 404 for
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

  const knownVersion: MiddlewareHandler = async (c, next) => {
    const name = c.req.param('version') ?? '';
    if (!byName.has(name)) throw unknownVersion(name);
    await next();
  };
  const authenticate = bearerAuth({ verifier: options.verifier, realm: options.realm });
  const rateLimit = options.rateLimit ? [options.rateLimit] : [];
  const tooLarge = () =>
    payloadTooLarge(`The request body is larger than ${options.maxBodyBytes} bytes.`, options.maxBodyBytes);
  // A body declared too large is refused from its header, before the token is checked.
  const declaredTooLarge: MiddlewareHandler = async (c, next) => {
    const declared = c.req.method === 'POST' ? declaredLength(c) : undefined;
    if (declared !== undefined && declared > options.maxBodyBytes) throw tooLarge();
    await next();
  };
  // A POST's body is read whole once the token is good, bounded in size and in time, before Yoga sees it:
  // a client that trickles its body in holds its connection for the timeout at most.
  const bodies = new WeakMap<Request, Uint8Array>();
  const readBody: MiddlewareHandler = async (c, next) => {
    if (c.req.method !== 'POST') return next();
    try {
      bodies.set(
        c.req.raw,
        await readBoundedBody(c, { maxSize: options.maxBodyBytes, timeoutMs: options.bodyTimeoutMs }),
      );
    } catch (error) {
      if (error instanceof BodyTooLarge) throw tooLarge();
      if (error instanceof BodyTooSlow) throw bodyTooSlow();
      throw error instanceof BodyAborted ? bodyAborted() : error;
    }
    return next();
  };

  const deprecation =
    options.deprecations && options.deprecations.size > 0
      ? [versionDeprecationStep(options.deprecations, options.clock)]
      : [];
  if ([...(options.deprecations?.values() ?? [])].some((notice) => notice.rule.retired)) {
    const retired = retiredVersionStep(options.deprecations!, options.clock);
    app.use('/graphql/:version', retired);
    app.use('/graphql/:version/*', retired);
  }

  app.get('/graphql/:version/schema.graphql', (c) => {
    const entry = byName.get(c.req.param('version'));
    if (!entry) throw unknownVersion(c.req.param('version'));
    return c.text(printSchema(entry.version.schema), 200, { 'content-type': 'text/plain; charset=utf-8' });
  });
  // URL-based tools (graphql-inspector, say) POST an introspection query to the schema's address: it runs
  // on the version's own server, with the same token, limits and introspection switch as /graphql/vN.
  app.post(
    '/graphql/:version/schema.graphql',
    knownVersion,
    declaredTooLarge,
    authenticate,
    ...rateLimit,
    ...deprecation,
    readBody,
    async (c) => {
      const name = c.req.param('version');
      const entry = byName.get(name);
      if (!entry) throw unknownVersion(name);
      const body = bodies.get(c.req.raw);
      if (!introspectionOnly(body)) {
        throw new GatewayError(
          400,
          'INTROSPECTION_ONLY',
          `Only an introspection query (\`__schema\`, \`__type\`) is answered here. Send other operations to /graphql/${name}.`,
        );
      }
      return exchangeWithYoga(
        c,
        entry.server,
        { principal: c.get('principal'), requestId: c.get('requestId'), traceContext: c.get('traceContext') },
        { body, sameRequest: options.sameRequest, url: new URL(`/graphql/${name}`, c.req.url).href },
      );
    },
  );
  // The schema is a document to read (or to introspect): any other method is 405, not the legacy 404.
  app.all('/graphql/:version/schema.graphql', (c) => {
    const name = c.req.param('version');
    if (!byName.has(name)) throw unknownVersion(name);
    throw new GatewayError(
      405,
      'METHOD_NOT_ALLOWED',
      `The schema is read with GET or HEAD, or introspected with POST, not ${c.req.method}.`,
      {
        headers: { Allow: 'GET, HEAD, POST' },
      },
    );
  });

  app.on(
    ['GET', 'POST'],
    '/graphql/:version',
    knownVersion,
    async (c, next) => (wantsPage(c) ? c.html(options.graphiqlPage(c.req.param('version'))) : next()),
    declaredTooLarge,
    authenticate,
    ...rateLimit,
    // A brownout or a retired version answers before the body is read.
    ...deprecation,
    readBody,
    async (c) => {
      const entry = byName.get(c.req.param('version'));
      if (!entry) throw unknownVersion(c.req.param('version'));
      const response = await exchangeWithYoga(
        c,
        entry.server,
        { principal: c.get('principal'), requestId: c.get('requestId'), traceContext: c.get('traceContext') },
        { body: bodies.get(c.req.raw), sameRequest: options.sameRequest },
      );
      if (response.status !== 415) return response;
      // Yoga refuses a body type it does not read with an empty 415: the client learns nothing from it.
      await response.body?.cancel();
      throw unsupportedMediaType(c.req.header('content-type'));
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
