import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { GatewayVariables } from '../auth/bearer-auth.js';
import { serviceEndpoints } from '../usage/service-endpoints.generated.js';
import { serviceAttributor } from '../usage/service-endpoints.js';
import type { UsageRecorder } from '../usage/usage-recorder.js';
import type { Observability, OperationRecord, RequestRecord } from './observability.js';

const knownMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const attributeServiceCall = serviceAttributor(serviceEndpoints);

/** A request URL's query, without parsing the whole URL again (a request URL has no fragment). */
function queryOf(url: string): URLSearchParams {
  const start = url.indexOf('?');
  return new URLSearchParams(start === -1 ? '' : url.slice(start + 1));
}

/** The header the comparison CLI sends, so its reads are counted as the tools' and not as its user's. */
export const comparisonToolHeader = 'x-gateway-tool';

/**
 * Counts an authenticated request for its client: a `/service` call by contract template and flags, a GraphQL
 * request by version and operation type with the coordinates it selected. The comparison tools' own requests
 * are counted apart. Answers the `/service` endpoint for the access log.
 */
function recordUsage(
  c: Context<{ Variables: GatewayVariables }>,
  route: string,
  operation: OperationRecord | undefined,
  usage: UsageRecorder | undefined,
) {
  const principal = c.get('principal');
  if (usage === undefined || principal === undefined) return undefined;
  const isService = route === '/service/*';
  const endpoint = isService ? attributeServiceCall(c.req.method, c.req.path, queryOf(c.req.url)) : undefined;
  const client = usage.clientLabel(principal.clientId);
  if (usage.isInternal(c.req.raw) || c.req.header(comparisonToolHeader) !== undefined) {
    if (endpoint !== undefined || operation !== undefined) usage.recordToolRequest(client);
    return endpoint?.endpoint;
  }
  if (endpoint !== undefined) usage.recordCall({ client, surface: 'service', ...endpoint });
  else if (operation !== undefined) {
    usage.recordCall({
      client,
      surface: 'graphql',
      endpoint: operation.version,
      flags: operation.operationType,
    });
    if (operation.coordinates) {
      usage.recordFields({ client, version: operation.version }, operation.coordinates);
    }
  }
  return endpoint?.endpoint;
}

/** The route pattern that answered (`/graphql/:version`, `/service/*`), never the raw path: bounded labels. */
export function routeLabel(c: Context): string {
  const route = routePath(c);
  return route === '/*' || route === '*' ? 'unmatched' : route;
}

/**
 * Per request: a logger with the request id (from Hono's `requestId()`, which must run first), the HTTP
 * metrics, and one access-log line — method, path without its query string (which may carry credentials),
 * route, status, duration, the principal's subject, and for GraphQL the version and operation. Health
 * probes log at `debug`, so probes every few seconds do not drown the access log.
 *
 * @example
 * app.use('*', requestId());
 * app.use('*', observeRequests(observability));
 */
export function observeRequests(
  observability: Observability,
): MiddlewareHandler<{ Variables: GatewayVariables }> {
  const { metrics } = observability;
  return async (c, next) => {
    const started = performance.now();
    // The child logger is made on first use: most requests log nothing but the access line, which has a
    // logger of its own, so most never make one.
    let logger: RequestRecord['logger'] | undefined;
    const record: RequestRecord = {
      get logger() {
        return (logger ??= observability.logger.child({ requestId: c.get('requestId') }));
      },
    };
    observability.requests.set(c.req.raw, record);
    metrics.httpRequestsInFlight.inc();
    try {
      await next();
    } finally {
      metrics.httpRequestsInFlight.dec();
    }
    // Hono keeps headers set before `next()` only on responses it builds; Yoga's own Responses would go out
    // without the id the log lines carry. Set in place, as secureHeaders does: copying Yoga's Response
    // (which `c.header` would) loses the headers other middleware added to it.
    if (!c.res.headers.has('x-request-id')) c.res.headers.set('X-Request-Id', c.get('requestId'));

    const seconds = (performance.now() - started) / 1000;
    const method = knownMethods.has(c.req.method) ? c.req.method : 'OTHER';
    const route = routeLabel(c);
    const status = c.res.status;
    const labels = { method, route, status: String(status) };
    metrics.httpRequests.inc(labels);
    metrics.httpRequestDuration.observe(labels, seconds);
    const endpoint = recordUsage(c, route, record.operation, observability.usage);

    const level = route.startsWith('/health/') ? 'debug' : status >= 500 ? 'warn' : 'info';
    if (!observability.logger.isLevelEnabled(level)) return;
    const operation = record.operation;
    const version = route === '/graphql/:version' ? c.req.path.split('/')[2] : undefined;
    // Flat, with the request id first: the same JSON as the request's child logger would write, without
    // making one per request (see `accessLogger` for why this line has a logger of its own).
    const line = {
      requestId: c.get('requestId'),
      method: c.req.method,
      path: c.req.path,
      route,
      status,
      durationMs: Math.round(seconds * 10_000) / 10,
      subject: c.get('principal')?.subject,
      client: c.get('principal')?.clientId,
      endpoint,
      version: operation?.version ?? version,
      ...(operation === undefined
        ? {}
        : {
            operationName: operation.operationName,
            operationType: operation.operationType,
            outcome: operation.outcome,
          }),
    };
    observability.accessLogger[level](line, 'request');
  };
}
