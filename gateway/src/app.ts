import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import { secureHeaders } from 'hono/secure-headers';
import { bearerAuth, type GatewayVariables } from './auth/bearer-auth.js';
import { createTokenVerifier, type TokenVerifier } from './auth/token-verifier.js';
import type { GatewayConfig } from './config.js';
import { versionRoutes } from './graphql/version-routes.js';
import { buildVersions } from './graphql/versions.js';
import { createVersionServer } from './graphql/yoga.js';
import { createLegacyClient, type LegacyClient } from './legacy/legacy-client.js';
import { bufferedBody } from './http/body-limit.js';
import { allowOrigins } from './http/cors.js';
import { servicePassthrough } from './service-passthrough/service-passthrough.js';
import { createRbacPolicy } from './rbac/rbac-policy.js';
import { serviceRbac } from './rbac/service-rbac.js';
import { browserRoutes, graphiqlPage } from './browser/browser-routes.js';
import { migrationRoutes } from './comparison/migration-routes.js';
import { createShadowComparison, type ShadowComparison, type ShadowHooks } from './comparison/shadow.js';
import { createReadiness, readinessRoute } from './health/readiness.js';
import { signingKeysCheck } from './health/signing-keys.js';
import {
  createGatewayMetrics,
  createLogger,
  createObservability,
  loggerFor,
  metricsRoute,
  observeRequests,
  type GatewayMetrics,
  type Logger,
} from './observability/index.js';

/** Served at /docs/migration, where a removed version's 410 points. */
const migrationGuide = readFileSync(new URL('../../docs/migration-v1-to-v2.md', import.meta.url), 'utf8');

export interface GatewayApp {
  app: Hono<{ Variables: GatewayVariables }>;
  legacy: LegacyClient;
  verifier: TokenVerifier;
  logger: Logger;
  metrics: GatewayMetrics;
  /** The shadow comparison of sampled `/service` reads (counters and last mismatches). */
  shadow: ShadowComparison;
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
export function createGatewayApp(
  config: GatewayConfig,
  options: { clock?: () => Date; logger?: Logger; shadow?: ShadowHooks } = {},
): GatewayApp {
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const metrics = createGatewayMetrics();
  const observability = createObservability({ logger, metrics });
  const legacy = createLegacyClient({
    ...config.legacy,
    observeCall: (call) => {
      const labels = { method: call.method, status_class: call.statusClass };
      metrics.legacyCalls.inc(labels);
      metrics.legacyCallDuration.observe(labels, call.durationMs / 1000);
    },
  });
  const rbac = createRbacPolicy({ enabled: config.idp.rbacEnabled });
  const verifier = createTokenVerifier({
    issuer: config.idp.issuer,
    jwksUrl: config.idp.jwksUrl,
    clockToleranceSeconds: config.idp.clockToleranceSeconds,
    cooldownMs: config.idp.jwksCooldownMs,
    maxAgeMs: config.idp.jwksMaxAgeMs,
    claims: config.idp.tokenClaims,
    onJwksFetch: ({ outcome }) => metrics.jwksFetches.inc({ source: 'verifier', outcome }),
  });
  const versions = buildVersions().map((version) => ({
    version,
    server: createVersionServer(version, {
      legacy,
      legacyCallBudget: config.graphqlLimits.maxLegacyCalls,
      upstreamTrace: config.upstreamTrace,
      introspection: config.introspection,
      hardening: { limits: config.graphqlLimits, fieldSuggestions: config.fieldSuggestions },
      rbac,
      clock: options.clock,
      observability,
    }),
  }));
  const newest = versions[versions.length - 1]!.version.name;
  const shadow = createShadowComparison({
    ...config.shadow,
    ...options.shadow,
    legacy,
    schema: versions[versions.length - 1]!.version.schema,
    version: newest,
    clock: options.clock,
    onResult: (result) => {
      // Every sampled read is counted once: match, mismatch, error, or dropped (queue full, body too large).
      metrics.shadowComparisons.inc({ result: result.result });
      options.shadow?.onResult?.(result);
    },
  });

  const app = new Hono<{ Variables: GatewayVariables }>();
  app.use('*', requestId());
  app.use('*', observeRequests(observability));
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
    allowOrigins({
      origins: config.corsOrigins,
      allowHeaders: ['Authorization', 'Content-Type', 'X-Upstream-Trace'],
      maxAge: 600,
    }),
  );

  app.get('/health/live', (c) => c.json({ status: 'ok' }));
  const signingKeys = signingKeysCheck({
    jwksUrl: config.idp.jwksUrl,
    keysCached: verifier.hasKeys,
    onFetch: (outcome) => metrics.jwksFetches.inc({ source: 'readiness', outcome }),
  });
  const readiness = createReadiness({
    checks: { legacy: (timeoutMs) => legacy.checkHealth(timeoutMs), signing_keys: signingKeys.check },
    timeoutMs: config.operations.readinessTimeoutMs,
    logger,
  });
  app.get('/health/ready', readinessRoute(readiness));
  app.get('/metrics', metricsRoute({ registry: metrics.registry, token: config.operations.metricsToken }));
  app.get('/docs/migration', (c) =>
    c.body(migrationGuide, 200, { 'content-type': 'text/markdown; charset=utf-8' }),
  );
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
      sameRequest: (from, to) => {
        const record = observability.requests.get(from);
        if (record) observability.requests.set(to, record);
      },
    }),
  );
  app.route('/', browserRoutes({ newestVersion: newest }));
  app.route(
    '/',
    migrationRoutes({
      verifier,
      realm: config.idp.realm,
      publicUrl: config.publicUrl,
      gatewayFetch: (request) => app.fetch(request),
      versions: versions.map(({ version }) => version.name),
      shadow,
    }),
  );

  app.use('/service/*', bearerAuth({ verifier, realm: config.idp.realm, flavour: 'service' }));
  // The whole body is read here, bounded in size and time, before RBAC or a legacy connection sees it.
  app.use(
    '/service/*',
    bufferedBody({
      maxSize: config.maxBodyBytes,
      timeoutMs: config.bodyTimeoutMs,
      onTooLarge: (c) =>
        c.json(
          {
            error: true,
            status: 413,
            error_key: 'E_PAYLOAD_TOO_LARGE',
            description: `The request body exceeds ${config.maxBodyBytes} bytes.`,
            limit: config.maxBodyBytes,
          },
          413,
        ),
      onTimeout: (c) =>
        c.json(
          {
            error: true,
            status: 408,
            error_key: 'E_REQUEST_TIMEOUT',
            description:
              'The request body was not sent in time. Send the whole body at once, then wait for the answer.',
          },
          408,
        ),
    }),
  );
  // After the body limit, so RBAC never buffers more than the limit allows.
  app.use('/service/*', serviceRbac({ policy: rbac, legacy, clock: options.clock }));
  // Sees the passthrough's response after it is made; compares a sample of reads once they have been sent.
  app.use('/service/*', shadow.middleware);
  app.all('/service/*', servicePassthrough({ legacy, publicUrl: config.publicUrl }));

  app.notFound((c) =>
    c.json(
      { error: true, status: 404, error_key: 'E_NO_SUCH_ENDPOINT', description: 'No such endpoint.' },
      404,
    ),
  );
  app.onError((error, c) => {
    loggerFor(observability, c.req.raw).error({ err: error }, 'unexpected error');
    return c.json(
      { error: true, status: 500, error_key: 'E_UNKNOWN', description: 'An unexpected error occurred.' },
      500,
    );
  });

  return {
    app,
    legacy,
    verifier,
    logger,
    metrics,
    shadow,
    close: async () => {
      await shadow.close();
      await legacy.close();
    },
  };
}
