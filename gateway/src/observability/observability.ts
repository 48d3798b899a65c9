import { accessLogger, type Logger } from './logger.js';
import type { UsageRecorder } from '../usage/usage-recorder.js';
import type { GatewayMetrics, OperationOutcome } from './metrics.js';

/** The GraphQL operation a request carried, as the access log reports it. */
export interface OperationRecord {
  version: string;
  operationName: string | undefined;
  operationType: string;
  outcome: OperationOutcome;
  /** The schema coordinates (`OrgUnit.managers`) the operation selected, when it was executed. */
  coordinates?: readonly string[];
}

/** What the gateway learns about one HTTP request while handling it. */
export interface RequestRecord {
  /** Logs with the request id; every log line about this request goes through it. */
  logger: Logger;
  operation?: OperationRecord;
}

/**
 * One gateway's logger, metrics, and what it knows about the requests in flight. Requests are looked up by
 * their `Request` object, which Hono hands unchanged to Yoga, so GraphQL plugins reach the same record.
 */
export interface Observability {
  logger: Logger;
  /** Writes the access line of each request (see `accessLogger`). */
  accessLogger: Logger;
  metrics: GatewayMetrics;
  requests: WeakMap<Request, RequestRecord>;
  /** Who calls what: each authenticated request is counted for its client (see `observeRequests`). */
  usage?: UsageRecorder;
}

export function createObservability(options: {
  logger: Logger;
  metrics: GatewayMetrics;
  usage?: UsageRecorder;
}): Observability {
  return { ...options, accessLogger: accessLogger(options.logger), requests: new WeakMap() };
}

/** The logger for a request: with its request id when the request is known, the gateway's otherwise. */
export function loggerFor(observability: Observability, request: Request): Logger {
  return observability.requests.get(request)?.logger ?? observability.logger;
}
