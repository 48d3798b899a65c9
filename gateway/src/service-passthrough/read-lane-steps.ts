import type { Hono } from 'hono';

/** Steps the read lane does itself, the same way (`alsoOnReadLane`). */
const doneByLane = new WeakSet<object>();

/** Route handlers that run a chain of their own for a read, with that chain (`withReadSteps`). */
const readChains = new WeakMap<object, readonly object[]>();

/**
 * Marks a step of the app that the read lane does itself on a `/service` read (the request id, the access
 * log, the security headers, the token check, the passthrough): a step left unmarked turns the lane off.
 *
 * @example
 * app.use('*', alsoOnReadLane(requestId()));
 */
export function alsoOnReadLane<Step extends object>(step: Step): Step {
  doneByLane.add(step);
  return step;
}

/**
 * Records the steps a route handler runs for a `/service` read, for a handler that dispatches to chains of
 * its own (one route, one error boundary): `readLaneCovers` then judges those steps, not the dispatcher.
 */
export function withReadSteps<Handler extends object>(handler: Handler, steps: readonly object[]): Handler {
  readChains.set(handler, steps);
  return handler;
}

/** A read like any the lane takes: what the app runs for it is what it runs for every `/service` read. */
const probe = '/service/o/';

/**
 * Whether the read lane answers a `/service` read as the app does: every middleware and handler the app runs
 * for one (its router's own answer, so a middleware added anywhere counts) is a step the lane does itself.
 * Call it once every route is added: the router is built on its first match.
 *
 * @example
 * const serviceReads = readLaneCovers(app) ? serviceReadLane({ … }) : undefined;
 */
export function readLaneCovers(app: Pick<Hono, 'router'>): boolean {
  const [matched] = app.router.match('GET', probe);
  const handlers = matched.map(([[handler]]) => handler as object);
  return handlers.every((handler) =>
    (readChains.get(handler) ?? [handler]).every((step) => doneByLane.has(step)),
  );
}
