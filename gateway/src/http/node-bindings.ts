import { EventEmitter } from 'node:events';
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

/**
 * An abort signal in the shape undici also accepts: an emitter with `aborted`, `reason` and an `abort`
 * event. Much cheaper per request than an `AbortController`, whose `EventTarget` undici must listen on.
 */
export class ConnectionGone extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;

  abort(reason: unknown = new DOMException('The client closed the connection.', 'AbortError')): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

/**
 * For a call made with undici on a client's behalf: fires when the client goes away before its answer has
 * been sent, like `clientGone`, without building an `AbortController` for every request.
 */
export function connectionGone(c: Context): AbortSignal | ConnectionGone {
  const { outgoing } = nodeBindings(c);
  if (!outgoing) return c.req.raw.signal;
  const gone = new ConnectionGone();
  outgoing.once('close', () => {
    if (!outgoing.writableFinished) gone.abort();
  });
  return gone;
}
