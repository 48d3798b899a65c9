import type { MiddlewareHandler } from 'hono';
import type { GatewayVariables } from '../auth/bearer-auth.js';
import { routeLabel } from './request-observer.js';
import type { Tracing } from './tracing.js';

/**
 * A span per request, a child of the caller's `traceparent` when it sends one, named after the route that
 * answered; its context is `c.get('traceContext')`, which the legacy calls of the request take as their
 * parent. Mounted only when tracing is on.
 *
 * @example
 * if (tracing) app.use('*', traceRequests(tracing));
 */
export function traceRequests(tracing: Tracing): MiddlewareHandler<{ Variables: GatewayVariables }> {
  return async (c, next) => {
    const span = tracing.startRequest(c.req.method, c.req.raw.headers);
    c.set('traceContext', span.context);
    try {
      await next();
    } finally {
      span.end(routeLabel(c), c.res.status);
    }
  };
}
