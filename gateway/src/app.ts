import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { requestId } from 'hono/request-id';
import { secureHeaders } from 'hono/secure-headers';
import { bearerAuth, type GatewayVariables } from './auth/bearer-auth.js';
import { createTokenVerifier, type TokenVerifier } from './auth/token-verifier.js';
import type { GatewayConfig } from './config.js';
import { versionRoutes } from './graphql/version-routes.js';
import { buildVersions } from './graphql/versions.js';
import { createVersionServer } from './graphql/yoga.js';
import { createLegacyClient, type LegacyClient } from './legacy/legacy-client.js';
import { servicePassthrough } from './service-passthrough/service-passthrough.js';
import { browserRoutes, graphiqlPage } from './browser/browser-routes.js';

/** Served at /docs/migration, where a removed version's 410 points. */
const migrationGuide = readFileSync(new URL('../../docs/migration-v1-to-v2.md', import.meta.url), 'utf8');

export interface GatewayApp {
  app: Hono<{ Variables: GatewayVariables }>;
  legacy: LegacyClient;
  verifier: TokenVerifier;
  close(): Promise<void>;
}

/**
 * The gateway: versioned GraphQL, the `/service` passthrough for existing integrations, `/idp.json` and the
 * browser tools. Every `/graphql/vN` query and every `/service` call needs a valid bearer token.
 *
 * @example
 * const gateway = createGatewayApp(readGatewayConfig());
 * serve({ fetch: gateway.app.fetch, port: 8080 });
 */
export function createGatewayApp(config: GatewayConfig, options: { clock?: () => Date } = {}): GatewayApp {
  const legacy = createLegacyClient(config.legacy);
  const verifier = createTokenVerifier({
    issuer: config.idp.issuer,
    jwksUrl: config.idp.jwksUrl,
    clockToleranceSeconds: config.idp.clockToleranceSeconds,
    cooldownMs: config.idp.jwksCooldownMs,
  });
  const versions = buildVersions().map((version) => ({
    version,
    server: createVersionServer(version, {
      legacy,
      upstreamTrace: config.upstreamTrace,
      introspection: config.introspection,
      clock: options.clock,
    }),
  }));
  const newest = versions[versions.length - 1]!.version.name;

  const app = new Hono<{ Variables: GatewayVariables }>();
  app.use('*', requestId());
  app.use(
    '*',
    secureHeaders({
      // GraphiQL and Voyager run inline scripts and styles from this origin only. GraphiQL's stylesheet inlines
      // its fonts; Voyager runs Graphviz (WebAssembly) in a worker it starts from a blob and caches the drawn
      // graph as data: URLs it reads back with fetch.
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", "'unsafe-inline'", "'wasm-unsafe-eval'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        workerSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'", 'data:', new URL(config.idp.authServerUrl).origin],
        frameSrc: ["'self'", new URL(config.idp.authServerUrl).origin],
      },
    }),
  );
  app.use(
    '*',
    cors({
      origin: config.corsOrigins,
      allowHeaders: ['Authorization', 'Content-Type', 'X-Upstream-Trace'],
      maxAge: 600,
    }),
  );

  app.get('/health/live', (c) => c.json({ status: 'ok' }));
  app.get('/docs/migration', (c) => c.body(migrationGuide, 200, { 'content-type': 'text/markdown; charset=utf-8' }));
  app.get('/idp.json', (c) =>
    c.json({
      realm: config.idp.realm,
      'auth-server-url': config.idp.authServerUrl,
      'ssl-required': config.idp.sslRequired,
      resource: config.idp.clientId,
      'public-client': true,
      'confidential-port': 0,
    }),
  );

  app.route(
    '/',
    versionRoutes({
      versions,
      removedVersions: config.removedVersions,
      migrationGuideUrl: config.migrationGuideUrl,
      verifier,
      realm: config.idp.realm,
      maxBodyBytes: config.maxBodyBytes,
      graphiqlPage,
    }),
  );
  app.route('/', browserRoutes({ newestVersion: newest }));

  app.use('/service/*', bearerAuth({ verifier, realm: config.idp.realm, flavour: 'service' }));
  app.use(
    '/service/*',
    bodyLimit({
      maxSize: config.maxBodyBytes,
      onError: (c) => {
        // The rest of the body is never read, so the connection cannot be reused.
        c.header('Connection', 'close');
        return c.json(
          {
            error: true,
            status: 413,
            error_key: 'E_PAYLOAD_TOO_LARGE',
            description: `The request body exceeds ${config.maxBodyBytes} bytes.`,
            limit: config.maxBodyBytes,
          },
          413,
        );
      },
    }),
  );
  app.all('/service/*', servicePassthrough({ legacy, publicUrl: config.publicUrl }));

  app.notFound((c) =>
    c.json(
      { error: true, status: 404, error_key: 'E_NO_SUCH_ENDPOINT', description: 'No such endpoint.' },
      404,
    ),
  );
  app.onError((error, c) => {
    console.error('gateway: unexpected error', error);
    return c.json(
      { error: true, status: 500, error_key: 'E_UNKNOWN', description: 'An unexpected error occurred.' },
      500,
    );
  });

  return { app, legacy, verifier, close: () => legacy.close() };
}
