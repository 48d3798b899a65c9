import type { Context, MiddlewareHandler } from 'hono';
import type { Principal } from '../auth/token-verifier.js';
import { routePath } from 'hono/route';
import type { GatewayVariables } from '../auth/bearer-auth.js';
import { contractOperations } from '../contract/contract-operations.generated.js';
import { readingApiRoute } from '../contract/contract-operations.js';
import { serviceAttributor } from '../contract/service-endpoints.js';
import type { UsageRecorder } from '../usage/usage-recorder.js';
import type { Observability, OperationRecord, RequestRecord } from './observability.js';

const knownMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

// A path the contract lacks is forwarded all the same, and counted under its own label (at most 200 of them).
const attributeServiceCall = serviceAttributor(contractOperations, { unknownPaths: 200 });

/**
 * The header the comparison CLI sends, so its reads are counted as the tools' and not as its user's; believed
 * only from the clients `USAGE_TOOL_CLIENTS` names.
 */
export const comparisonToolHeader = 'x-gateway-tool';

/** What the end of a request is logged, counted and attributed by, whichever lane answered it. */
export interface FinishedRequest {
  /** `performance.now()` when the gateway took the request. */
  started: number;
  requestId: string;
  method: string;
  /** The path without its query string, as routed. */
  path: string;
  /** The query string after `?`, or `''`. */
  query: string;
  /** The route label (`routeLabel`). */
  route: string;
  status: number;
  principal: Principal | undefined;
  /** Sent with the comparison tool's header (`comparisonToolHeader`), believed only from a tool client. */
  toolRequest: boolean;
  /** Made by the gateway itself for its workbench and report (`usage.isInternal`): never anyone's usage. */
  internal: boolean;
  operation: OperationRecord | undefined;
}

/**
 * Counts an authenticated request for its client: a `/service` or `/api/v1` call by contract template and flags, a GraphQL
 * request by version and operation type with the coordinates it selected. The comparison CLI's requests (the
 * tool header from a tool client) are counted apart; the gateway's own (workbench, report) not at all. Answers
 * the `/service` endpoint for the access log.
 */
function recordUsage(request: FinishedRequest, usage: UsageRecorder | undefined) {
  const { principal, operation } = request;
  if (usage === undefined || principal === undefined) return undefined;
  const endpoint =
    request.route === '/service/*' || request.route === readingApiRoute
      ? attributeServiceCall(request.method, request.path, new URLSearchParams(request.query))
      : undefined;
  if (request.internal) return endpoint?.endpoint;
  const client = usage.clientLabel(principal.clientId);
  if (request.toolRequest && usage.believesToolHeader(principal.clientId)) {
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

/**
 * The end of one request: the HTTP metrics, usage attribution and the access-log line (see
 * `observeRequests`). Framework-free, so the Hono app and the `/service` read lane finish requests alike.
 */
export function finishRequest(observability: Observability, request: FinishedRequest): void {
  const { metrics } = observability;
  const seconds = (performance.now() - request.started) / 1000;
  const method = knownMethods.has(request.method) ? request.method : 'OTHER';
  const { route, status, operation } = request;
  const labels = { method, route, status: String(status) };
  metrics.httpRequests.inc(labels);
  metrics.httpRequestDuration.observe(labels, seconds);
  const endpoint = recordUsage(request, observability.usage);

  const level = route.startsWith('/health/') ? 'debug' : status >= 500 ? 'warn' : 'info';
  if (!observability.logger.isLevelEnabled(level)) return;
  const version = route === '/graphql/:version' ? request.path.split('/')[2] : undefined;
  // Flat, with the request id first: the same JSON as the request's child logger would write, without
  // making one per request (see `accessLogger` for why this line has a logger of its own).
  const line = {
    requestId: request.requestId,
    method: request.method,
    path: request.path,
    route,
    status,
    durationMs: Math.round(seconds * 10_000) / 10,
    subject: request.principal?.subject,
    client: request.principal?.clientId,
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

    const url = c.req.url;
    const queryStart = url.indexOf('?');
    finishRequest(observability, {
      started,
      requestId: c.get('requestId'),
      method: c.req.method,
      path: c.req.path,
      query: queryStart === -1 ? '' : url.slice(queryStart + 1),
      route: routeLabel(c),
      status: c.res.status,
      principal: c.get('principal'),
      toolRequest: c.req.header(comparisonToolHeader) !== undefined,
      internal: observability.usage?.isInternal(c.req.raw) ?? false,
      operation: record.operation,
    });
  };
}
