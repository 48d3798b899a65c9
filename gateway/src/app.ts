import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import { bearerAuth, type GatewayVariables } from './auth/bearer-auth.js';
import { createTokenVerifier, type TokenVerifier } from './auth/token-verifier.js';
import { browserRoutes, graphiqlPage } from './browser/browser-routes.js';
import { browserSecurityHeaders, securityHeaders } from './browser/content-security-policy.js';
import { idpConfigRoute } from './browser/idp-config-route.js';
import { createReferenceUnits } from './browser/reference-units.js';
import { migrationRoutes } from './comparison/migration-routes.js';
import {
  createShadowComparison,
  type ShadowComparison,
  type ShadowHooks,
} from './comparison/shadow/shadow.js';
import { contractOperations } from './contract/contract-operations.generated.js';
import { cprEndpoints } from './cpr/cpr-endpoints.js';
import { serviceCpr } from './cpr/service-cpr.js';
import type { GatewayConfig } from './config.js';
import type { DeprecationNotice } from './deprecation/deprecation-notice.js';
import { legacyErrorHandler, legacyNotFound, type UnexpectedErrorLog } from './errors/legacy-error-body.js';
import { migrationGuideRoute } from './graphql/migration-guide-route.js';
import { versionDeprecations } from './graphql/version-deprecation.js';
import { versionRoutes } from './graphql/version-routes.js';
import { createDatabase, reasonOf, type Database } from './database/database.js';
import { countingLegacyCalls } from './rate-limits/legacy-call-count.js';
import { rateLimitStep } from './rate-limits/rate-limit-step.js';
import { createRateLimits } from './rate-limits/rate-limits.js';
import { startBackendRecording, type BackendRecording } from './backend-record/backend-recording.js';
import { createDocumentBudget } from './graphql/document-budget.js';
import type { GraphQLEvents } from './graphql/context.js';
import { recordedRoutingKey } from './events/mo-events.js';
import { createEventMetrics } from './events/event-metrics.js';
import { createEventStore, moNamespace } from './events/event-store.js';
import { buildVersions, type GraphQLVersion } from './graphql/versions.js';
import { createVersionServer, type VersionServer } from './graphql/yoga.js';
import { healthRoutes } from './health/health-routes.js';
import { allowOrigins } from './http/cors.js';
import { createLegacyClient, type LegacyClient } from './legacy/legacy-client.js';
import {
  createGatewayMetrics,
  createLogger,
  createObservability,
  loggerFor,
  metricsRoute,
  observeRequests,
  createTracing,
  traceRequests,
  type GatewayMetrics,
  type Logger,
  type Observability,
  type Tracing,
} from './observability/index.js';
import { comparisonToolHeader } from './observability/request-observer.js';
import { createRbacPolicy, type RbacPolicy } from './rbac/rbac-policy.js';
import { serviceDeprecation } from './service-passthrough/service-deprecation.js';
import { alsoOnReadLane, readLaneCovers } from './service-passthrough/read-lane-steps.js';
import { serviceReadLane, type ServiceReadLane } from './service-passthrough/service-read-lane.js';
import { serviceRoutes } from './service-passthrough/service-routes.js';
import { createUsageRecorder } from './usage/usage-recorder.js';

export interface GatewayApp {
  app: Hono<{ Variables: GatewayVariables }>;
  legacy: LegacyClient;
  verifier: TokenVerifier;
  logger: Logger;
  metrics: GatewayMetrics;
  /** The shadow comparison of sampled `/service` reads (counters and last mismatches). */
  shadow: ShadowComparison;
  /**
   * Plain `/service` reads on Node's own request and response (`serviceReadLane`); none when the app runs a
   * step for a read that the lane does not (`readLaneCovers`): tracing, shadow sampling, deprecated endpoints.
   */
  serviceReads: ServiceReadLane | undefined;
  /** The gateway's own state (`DATABASE_URL`); undefined without one. */
  database: Database | undefined;
  /**
   * The record of the backend (`DATABASE_URL`), undefined without one: `backendRecord.record.onObjectChanged`
   * is told of each change a write, the sweep or a validity date brings.
   */
  backendRecord: BackendRecording | undefined;
  close(): Promise<void>;
}

export interface GatewayAppOptions {
  clock?: () => Date;
  logger?: Logger;
  shadow?: ShadowHooks;
  /** Whether plain JSON POSTs to GraphQL skip Yoga's HTTP layer (`ParamsExchange`); default true. */
  paramsExchange?: boolean;
}

/** The one legacy client every resolver, RBAC check and the passthrough use, with its calls counted. */
function meteredLegacyClient(
  config: GatewayConfig,
  metrics: GatewayMetrics,
  tracing?: Tracing,
): LegacyClient {
  return createLegacyClient({
    ...config.legacy,
    tracing,
    observeCall: (call) => {
      const labels = { method: call.method, status_class: call.statusClass };
      metrics.legacyCalls.inc(labels);
      metrics.legacyCallDuration.observe(labels, call.durationMs / 1000);
    },
  });
}

function tokenVerifier(config: GatewayConfig, metrics: GatewayMetrics): TokenVerifier {
  return createTokenVerifier({
    issuer: config.idp.issuer,
    jwksUrl: config.idp.jwksUrl,
    clockToleranceSeconds: config.idp.clockToleranceSeconds,
    cooldownMs: config.idp.jwksCooldownMs,
    maxAgeMs: config.idp.jwksMaxAgeMs,
    claims: config.idp.tokenClaims,
    onJwksFetch: ({ outcome }) => metrics.jwksFetches.inc({ source: 'verifier', outcome }),
  });
}

/**
 * One Yoga server per served version, oldest first, each told whether it is deprecated. Each is made, with
 * its schema, on the version's first request: a version nobody calls costs no memory.
 */
function versionServers(
  config: GatewayConfig,
  parts: {
    legacy: LegacyClient;
    rbac: RbacPolicy;
    observability: Observability;
    deprecations: Map<string, DeprecationNotice>;
    clock?: () => Date;
    paramsExchange?: boolean;
    events: GraphQLEvents;
    record?: BackendRecording;
  },
  versions: GraphQLVersion[] = buildVersions(),
): { version: GraphQLVersion; server: VersionServer }[] {
  // One budget for every version's parsed documents, so distinct documents cannot grow memory per version.
  const documents = createDocumentBudget(config.documentCache);
  return versions.map((version) => {
    let server: VersionServer | undefined;
    const create = () =>
      createVersionServer(version, {
        deprecation: parts.deprecations.get(version.name),
        legacy: parts.legacy,
        legacyCallBudget: config.graphqlLimits.maxLegacyCalls,
        upstreamTrace: config.upstreamTrace,
        introspection: config.introspection,
        hardening: { limits: config.graphqlLimits, fieldSuggestions: config.fieldSuggestions },
        rbac: parts.rbac,
        clock: parts.clock,
        observability: parts.observability,
        documents,
        cprReads: config.cprReads,
        paramsExchange: parts.paramsExchange,
        events: parts.events,
        record: parts.record && {
          onWrite: parts.record.writes.noteWrite,
          whereabouts: parts.record.record.whereabouts,
        },
      });
    return {
      version,
      get server() {
        return (server ??= create());
      },
    };
  });
}

/** The shadow comparison of sampled `/service` reads with the version the comparison speaks, counted in the metrics. */
function shadowComparison(
  config: GatewayConfig,
  options: GatewayAppOptions,
  parts: { legacy: LegacyClient; newest: GraphQLVersion; fallback: GraphQLVersion; metrics: GatewayMetrics },
): ShadowComparison {
  return createShadowComparison({
    ...config.shadow,
    ...options.shadow,
    legacy: parts.legacy,
    schema: parts.newest.schema,
    version: parts.newest.name,
    fallbackSchema: parts.fallback.schema,
    clock: options.clock,
    onResult: (result) => {
      // Every sampled read is counted once: match, mismatch, error, or dropped (queue full, body too large).
      parts.metrics.shadowComparisons.inc({ result: result.result });
      options.shadow?.onResult?.(result);
    },
    onSkip: (skip) => parts.metrics.shadowSkipped.inc(skip),
  });
}

/**
 * The gateway: versioned GraphQL, the `/service` passthrough for existing integrations, the migration
 * workbench, `/idp.json`, health, metrics and the browser tools. Each route family is mounted from the folder
 * named after it and writes its own error bodies; anything else answers in the legacy API's shape.
 *
 * @example
 * const gateway = createGatewayApp(readGatewayConfig());
 * serve({ fetch: gateway.app.fetch, port: 8080 });
 */
export function createGatewayApp(config: GatewayConfig, options: GatewayAppOptions = {}): GatewayApp {
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const metrics = createGatewayMetrics();
  const usage = createUsageRecorder({
    registry: metrics.registry,
    clients: config.usage.clients,
    toolClients: config.usage.toolClients,
    windowSeconds: config.usage.windowSeconds,
    clock: options.clock,
  });
  const observability = createObservability({ logger, metrics, usage });
  // Undefined without OTEL_EXPORTER_OTLP_ENDPOINT: then no span is made and no step is mounted.
  const tracing = createTracing(config.tracing);
  const metered = meteredLegacyClient(config, metrics, tracing);
  // With rate limits, each request's legacy calls are counted for its client (`RATE_LIMIT_LEGACY_CALLS`).
  const legacy = config.rateLimits ? countingLegacyCalls(metered) : metered;
  const verifier = tokenVerifier(config, metrics);
  const database = config.database && createDatabase({ ...config.database, logger });
  const rateLimit =
    config.rateLimits &&
    rateLimitStep({
      limits: createRateLimits({ config: config.rateLimits, store: database, registry: metrics.registry }),
      onChargeFailed: (error) =>
        logger.warn({ err: error }, 'rate limits: a request’s legacy calls could not be counted'),
    });
  const recording =
    database &&
    startBackendRecording({
      database,
      legacy,
      legacyOptions: config.legacy,
      settings: config.backendSweep,
      logger,
      registry: metrics.registry,
      clock: options.clock,
    });
  // Migrated at start, so the log says at once whether the database answers; the event API waits for it.
  void database?.check(0).then((result) => {
    if (!result.ok) logger.warn({ reason: result.reason }, 'database: not ready at start; retried on use');
  });
  const rbac = createRbacPolicy({ enabled: config.idp.rbacEnabled });
  const cpr = serviceCpr({
    policy: config.cprReads,
    endpoints: cprEndpoints(contractOperations),
    logger,
  });
  const guideUrl = config.deprecation.guideUrl ?? config.migrationGuideUrl;
  const built = buildVersions();
  const deprecatedVersions = versionDeprecations({
    settings: config.deprecation,
    served: built.map((version) => version.name),
    guideUrl,
  });
  const events =
    database &&
    createEventStore(database, {
      retryMinSeconds: config.events.retryMinSeconds,
      metrics: createEventMetrics(database, metrics.registry, (error) =>
        logger.warn(
          { reason: reasonOf(error) },
          'metrics: the event gauges could not be read from the database',
        ),
      ),
    });
  // Writes through the gateway send their events themselves, at once; what the sweep notices changing at the
  // backend (a write around the gateway) and what changes on a validity boundary become events here.
  if (events && recording) {
    recording.record.onObjectChanged(async (change) => {
      if (change.source === 'write') return;
      const routingKey = recordedRoutingKey(change.type);
      if (routingKey) await events.add(moNamespace, routingKey, [change.uuid]);
    });
  }
  const versions = versionServers(
    config,
    {
      legacy,
      rbac,
      observability,
      deprecations: deprecatedVersions,
      clock: options.clock,
      paramsExchange: options.paramsExchange,
      events: {
        store: events,
        rbacEnabled: config.idp.rbacEnabled,
      },
      record: recording,
    },
    built,
  );
  // The comparison tools speak OS2mo's v30; a read v30 cannot answer yet is compared on v2.
  const compared = versions.find(({ version }) => version.name === 'v30')!.version;
  const fallback = versions.find(({ version }) => version.name === 'v2')!.version;
  const shadow = shadowComparison(config, options, { legacy, newest: compared, fallback, metrics });
  const logUnexpected: UnexpectedErrorLog = (c, error) =>
    loggerFor(observability, c.req.raw).error({ err: error }, 'unexpected error');
  const realm = config.idp.realm;

  const app = new Hono<{ Variables: GatewayVariables }>();
  // Steps the read lane does itself are marked (`alsoOnReadLane`); any other step for `/service` turns it off.
  app.use('*', alsoOnReadLane(requestId()));
  if (tracing) app.use('*', traceRequests(tracing));
  app.use('*', alsoOnReadLane(observeRequests(observability)));
  app.use('*', alsoOnReadLane(browserSecurityHeaders({ authServerUrl: config.idp.authServerUrl })));
  app.use(
    '*',
    // The lane leaves every request with an Origin to the app, and adds this step's `Vary: Origin` itself.
    alsoOnReadLane(
      allowOrigins({
        origins: config.corsOrigins,
        allowHeaders: ['Authorization', 'Content-Type', 'X-Upstream-Trace'],
        maxAge: 600,
      }),
    ),
  );

  app.route(
    '/',
    healthRoutes({
      legacy,
      legacyProbe: config.operations.legacyProbe,
      jwksUrl: config.idp.jwksUrl,
      keysCached: verifier.hasKeys,
      onJwksFetch: (outcome) => metrics.jwksFetches.inc({ source: 'readiness', outcome }),
      readinessTimeoutMs: config.operations.readinessTimeoutMs,
      database,
      logger,
    }),
  );
  app.get('/metrics', metricsRoute({ registry: metrics.registry, token: config.operations.metricsToken }));
  app.get('/docs/migration', migrationGuideRoute());
  app.get('/idp.json', idpConfigRoute(config.idp));
  app.route(
    '/',
    versionRoutes({
      versions,
      rateLimit,
      removedVersions: config.removedVersions,
      migrationGuideUrl: config.migrationGuideUrl,
      deprecations: deprecatedVersions,
      clock: options.clock,
      verifier,
      realm,
      maxBodyBytes: config.maxBodyBytes,
      bodyTimeoutMs: config.bodyTimeoutMs,
      graphiqlPage,
      logUnexpected,
      sameRequest: (from, to) => {
        const record = observability.requests.get(from);
        if (record) observability.requests.set(to, record);
      },
    }),
  );
  app.route(
    '/',
    browserRoutes({
      newestVersion: compared.name,
      referenceUnits: createReferenceUnits({ legacy, configured: config.referenceUnits }),
      authenticate: bearerAuth({ verifier, realm }),
    }),
  );
  app.route(
    '/',
    migrationRoutes({
      verifier,
      realm,
      publicUrl: config.publicUrl,
      gatewayFetch: (request) => app.fetch(request),
      versions: versions.map(({ version }) => version.name),
      shadow,
      usage: {
        recorder: usage,
        config: config.usage,
        schemas: versions.map(({ version }) => ({
          version: version.name,
          get schema() {
            return version.schema;
          },
        })),
        clock: options.clock,
      },
      logUnexpected,
      rbacEnabled: config.idp.rbacEnabled,
      clock: options.clock,
    }),
  );
  app.route(
    '/',
    serviceRoutes({
      legacy,
      rateLimit,
      verifier,
      realm,
      publicUrl: config.publicUrl,
      maxBodyBytes: config.maxBodyBytes,
      bodyTimeoutMs: config.bodyTimeoutMs,
      rbac,
      // With nothing to sample, reads skip the step entirely.
      shadow: config.shadow.sampleRate > 0 ? shadow.middleware : undefined,
      // Only with deprecated endpoints: otherwise `/service` does no deprecation work at all.
      deprecation:
        config.deprecation.endpoints.length > 0
          ? serviceDeprecation({
              endpoints: config.deprecation.endpoints,
              operations: contractOperations,
              guideUrl,
              clock: options.clock,
              // The tools' road to /service: the workbench's in-process reads, and the CLI as a tool client.
              isToolRequest: (c) =>
                usage.isInternal(c.req.raw) ||
                (c.req.header(comparisonToolHeader) !== undefined &&
                  usage.believesToolHeader(c.get('principal')?.clientId)),
            })
          : undefined,
      logUnexpected,
      clock: options.clock,
      cpr,
      events: events && { store: events, logger },
      onWrite: recording?.writes.noteWrite,
    }),
  );
  app.notFound(legacyNotFound);
  app.onError(legacyErrorHandler(logUnexpected));

  return {
    app,
    legacy,
    verifier,
    logger,
    metrics,
    shadow,
    serviceReads: readLaneCovers(app)
      ? serviceReadLane({
          legacy,
          verifier,
          realm,
          publicUrl: config.publicUrl,
          observability,
          securityHeaders: securityHeaders({ authServerUrl: config.idp.authServerUrl }),
          cpr,
        })
      : undefined,
    database,
    backendRecord: recording,
    close: async () => {
      await recording?.close();
      await shadow.close();
      await legacy.close();
      await database?.close();
      await tracing?.shutdown();
    },
  };
}
