import type { Principal } from '../auth/token-verifier.js';
import type { TraceContext } from '../observability/tracing.js';

/** What the Hono route hands to Yoga with each request. */
export interface ServerContext {
  principal: Principal;
  /** The request's id, sent on every legacy call as `X-Request-Id`. */
  requestId?: string;
  /** The request's span, when tracing: each legacy call's span is its child. */
  traceContext?: TraceContext;
}
