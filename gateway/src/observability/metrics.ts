import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** How a legacy call ended: the status class of its response, or why there was none. */
export type LegacyStatusClass = '1xx' | '2xx' | '3xx' | '4xx' | '5xx' | 'timeout' | 'error';

/** How a GraphQL operation ended: `rejected` never executed (unparsable, invalid, over a limit). */
export type OperationOutcome = 'success' | 'partial' | 'error' | 'rejected';

/** What the shadow comparison of one sampled `/service` read found. */
export type ShadowResult = 'match' | 'mismatch' | 'error';

/** Who fetched the identity provider's JWKS: the token verifier, or the readiness check. */
export type JwksFetchSource = 'verifier' | 'readiness';

export interface GatewayMetricsOptions {
  /** Process metrics (CPU, memory, event loop lag, GC); on by default. */
  processMetrics?: boolean;
}

/** Seconds; from a cached answer to the legacy service's 10 s timeout. */
const durationBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The gateway's Prometheus metrics in a registry of their own (never prom-client's global one), so every
 * gateway in a process — tests start many — counts for itself.
 *
 * @example
 * const metrics = createGatewayMetrics();
 * metrics.shadowComparisons.inc({ result: 'match' });
 * const text = await metrics.registry.metrics();
 */
export function createGatewayMetrics(options: GatewayMetricsOptions = {}) {
  const registry = new Registry();
  const registers = [registry];
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });

  const shadowComparisons = new Counter({
    name: 'gateway_shadow_comparisons_total',
    help: 'Sampled /service reads compared with the equivalent GraphQL query, by result (match, mismatch, error, dropped).',
    labelNames: ['result'] as const,
    registers,
  });
  // Every result is exported from the start, so a rate over it is defined before the first mismatch.
  for (const result of ['match', 'mismatch', 'error'] satisfies ShadowResult[]) {
    shadowComparisons.inc({ result }, 0);
  }

  return {
    registry,
    httpRequests: new Counter({
      name: 'gateway_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
    }),
    httpRequestDuration: new Histogram({
      name: 'gateway_http_request_duration_seconds',
      help: 'Time from receiving an HTTP request to its response headers, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: durationBuckets,
      registers,
    }),
    httpRequestsInFlight: new Gauge({
      name: 'gateway_http_requests_in_flight',
      help: 'HTTP requests being handled now.',
      registers,
    }),
    graphqlOperations: new Counter({
      name: 'gateway_graphql_operations_total',
      help: 'GraphQL operations, by version, operation type (query, mutation, unknown) and outcome.',
      labelNames: ['version', 'operation_type', 'outcome'] as const,
      registers,
    }),
    graphqlOperationDuration: new Histogram({
      name: 'gateway_graphql_operation_duration_seconds',
      help: 'Time to parse, validate and execute a GraphQL operation, by version and operation type.',
      labelNames: ['version', 'operation_type'] as const,
      buckets: durationBuckets,
      registers,
    }),
    legacyCalls: new Counter({
      name: 'gateway_legacy_calls_total',
      help: 'Calls to the legacy service (GraphQL resolvers, RBAC lookups and the /service passthrough), by method and status class.',
      labelNames: ['method', 'status_class'] as const,
      registers,
    }),
    legacyCallDuration: new Histogram({
      name: 'gateway_legacy_call_duration_seconds',
      help: 'Time from sending a legacy call to the end of its response body, by method and status class.',
      labelNames: ['method', 'status_class'] as const,
      buckets: durationBuckets,
      registers,
    }),
    jwksFetches: new Counter({
      name: 'gateway_jwks_fetches_total',
      help: "Fetches of the identity provider's signing keys (JWKS), by source and outcome (ok, error).",
      labelNames: ['source', 'outcome'] as const,
      registers,
    }),
    /** The shadow comparison module counts each sampled read here. */
    shadowComparisons,
    shadowSkipped: new Counter({
      name: 'gateway_shadow_skipped_total',
      help: 'Live /service reads the shadow comparison skipped, by contract endpoint and reason (unsupported_endpoint, unsupported_flags, not_comparable).',
      labelNames: ['endpoint', 'reason'] as const,
      registers,
    }),
  };
}

export type GatewayMetrics = ReturnType<typeof createGatewayMetrics>;
