import type { MiddlewareHandler } from 'hono';
import type { GatewayVariables } from '../auth/bearer-auth.js';
import { countLegacyCalls } from './legacy-call-count.js';
import type { RateLimits } from './rate-limits.js';

export interface RateLimitStepOptions {
  limits: RateLimits;
  /** Told when a request's legacy calls could not be added to its client's count. */
  onChargeFailed?: (error: unknown) => void;
}

function canSetHeaders(response: Response): boolean {
  try {
    response.headers.set('RateLimit', response.headers.get('RateLimit') ?? '');
    response.headers.delete('RateLimit');
    return true;
  } catch {
    return false;
  }
}

/**
 * The per-client limits as a route step, after the bearer token (it reads the token's client): a client over
 * an allowance is answered 429 by the route family's own error body; every answer to a limited client carries
 * `RateLimit-Policy` and `RateLimit`; the legacy calls a request made are charged when it ends.
 *
 * @example
 * routeChain([authenticate, rateLimitStep({ limits }), …], onError);
 */
export function rateLimitStep(
  options: RateLimitStepOptions,
): MiddlewareHandler<{ Variables: GatewayVariables }> {
  const { limits } = options;
  return async (c, next) => {
    const client = c.get('principal').clientId;
    const headers = await limits.admit(client);
    const calls = await countLegacyCalls(async () => {
      await next();
    });
    if (Object.keys(headers).length > 0) {
      // A response whose headers cannot change (one made by fetch) is copied once to add them.
      if (!canSetHeaders(c.res)) c.res = new Response(c.res.body, c.res);
      for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
    }
    limits.charge(client, calls).catch((error: unknown) => options.onChargeFailed?.(error));
  };
}
