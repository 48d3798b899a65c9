import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';

/** Node's request and response, as @hono/node-server puts them in `c.env`. */
export interface NodeBindings {
  incoming?: IncomingMessage;
  outgoing?: ServerResponse;
}

/**
 * Node's own request and response behind the Hono context, when the app runs under @hono/node-server;
 * empty when it is called through `app.fetch` (tests, the workbench's requests to the gateway itself).
 * Reading headers or watching the connection here avoids building a Web Request for it.
 */
export function nodeBindings(c: Context): NodeBindings {
  return (c.env as NodeBindings | undefined) ?? {};
}

/**
 * Aborts when the client goes away before its answer has been sent. Behind Node it watches the connection
 * itself: `c.req.raw.signal` would make @hono/node-server build a whole Web Request for it.
 */
export function clientGone(c: Context): AbortSignal {
  const { outgoing } = nodeBindings(c);
  if (!outgoing) return c.req.raw.signal;
  const controller = new AbortController();
  outgoing.once('close', () => {
    if (!outgoing.writableFinished) controller.abort();
  });
  return controller.signal;
}
