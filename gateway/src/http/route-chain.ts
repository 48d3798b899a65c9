import type { Context, Env, ErrorHandler, MiddlewareHandler } from 'hono';

/**
 * Middleware and a final handler run as one route handler with one error boundary. Mounted with
 * `app.route()`, a sub-app that has its own `onError` gets a separate error boundary (a compose of its own,
 * with its closures and promises) around each middleware and handler; for a chain that runs on every
 * request — the `/service` passthrough — one boundary is enough. The steps behave as under Hono's compose:
 * a step may answer without calling `next()`, or change `c.res` after it; a Response it returns becomes
 * `c.res` unless one is already final; a thrown `Error` is answered by `onError`.
 *
 * @example
 * app.all('/service/*', routeChain([bearerAuth(…), serviceRbac(…)], servicePassthrough(…), onError));
 */
export function routeChain<E extends Env>(
  steps: MiddlewareHandler<E>[],
  onError: ErrorHandler<E>,
): MiddlewareHandler<E> {
  const run = async (c: Context<E>, index: number): Promise<void> => {
    const step = steps[index];
    if (step === undefined) return;
    const answer = await step(c, () => run(c, index + 1));
    if (answer instanceof Response && !c.finalized) c.res = answer;
  };
  return async (c) => {
    try {
      await run(c, 0);
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      c.error = error;
      return onError(error, c);
    }
    return c.res;
  };
}
