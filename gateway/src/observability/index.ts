export { createLogger, redactedPaths, stdoutLogOutput, type Logger, type LogOutput } from './logger.js';
export {
  createGatewayMetrics,
  type GatewayMetrics,
  type JwksFetchSource,
  type LegacyStatusClass,
  type OperationOutcome,
  type ShadowResult,
} from './metrics.js';
export { metricsRoute } from './metrics-route.js';
export {
  createObservability,
  loggerFor,
  type Observability,
  type OperationRecord,
  type RequestRecord,
} from './observability.js';
export { observeRequests } from './request-observer.js';
export { useOperationObservation } from './graphql-observer.js';
export { traceRequests } from './trace-requests.js';
export { createTracing, type TraceContext, type Tracing } from './tracing.js';
