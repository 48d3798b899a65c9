import type { MiddlewareHandler } from 'hono';
import type { GatewayVariables } from '../auth/bearer-auth.js';
import type { EventStore } from '../events/event-store.js';
import { sendMoEvents, touchedByServiceWrite } from '../events/mo-events.js';
import type { Logger } from '../observability/logger.js';
import { judgedBody } from '../http/judged-body.js';
import { writeIntents } from '../rbac/write-intents.js';

export interface ServiceEventsOptions {
  store: EventStore;
  logger?: Logger;
}

/**
 * The "mo" events of a `/service` write, sent once the backend has answered it with success and before the
 * client gets that answer: what the write touched is read as RBAC reads it (`writeIntents`), a create's new
 * UUID from the answer. The body is the one RBAC judged (`judgedBody`); a write RBAC cannot read sends nothing.
 *
 * @example
 * routeChain([authenticate, bufferedBody(…), serviceRbac(…), serviceEvents({ store, logger }), passthrough]);
 */
export function serviceEvents(
  options: ServiceEventsOptions,
): MiddlewareHandler<{ Variables: GatewayVariables }> {
  return async (c, next) => {
    // The body as RBAC judged it and the passthrough forwards it: parsed once, strictly (`judgedBody`).
    const { value: body } = await judgedBody(c);
    if (body === undefined) return next();
    const intents = writeIntents({ method: c.req.method, path: c.req.path, body });
    if (intents.every((intent) => intent.kind === 'unreadable')) return next();
    await next();
    if (c.res.status < 200 || c.res.status > 299) return;
    let answer: unknown;
    try {
      answer = await c.res.clone().json();
    } catch {
      return;
    }
    await sendMoEvents(options.store, touchedByServiceWrite(intents, answer), options.logger);
  };
}
