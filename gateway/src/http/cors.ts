import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';

/**
 * Response headers a page on another origin may read: the deprecation signals (RFC 9745 `Deprecation`,
 * RFC 8594 `Sunset`, the `Link` to the successor) and the request id a support request quotes.
 */
export const exposedHeaders = ['Deprecation', 'Sunset', 'Link', 'X-Request-Id'];

export interface CorsOptions {
  /** Origins allowed to call the gateway from a browser; none by default. */
  origins: string[];
  allowHeaders: string[];
  maxAge: number;
}

/**
 * CORS for an explicit list of origins. Preflights are answered by Hono's `cors`. On every other request
 * the headers are added to the response in place: Hono's `cors` adds `Vary` with `c.header()`, which copies
 * a finished response through a stream, so each answer, JSON or not, would be sent as a stream of chunks.
 *
 * @example
 * app.use('*', allowOrigins({ origins: ['https://app.example'], allowHeaders: ['Authorization'], maxAge: 600 }));
 */
export function allowOrigins(options: CorsOptions): MiddlewareHandler {
  const preflight = cors({
    origin: options.origins,
    allowHeaders: options.allowHeaders,
    maxAge: options.maxAge,
    exposeHeaders: exposedHeaders,
  });
  const allowed = new Set(options.origins);
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    await next();
    const origin = c.req.header('origin');
    if (origin !== undefined && allowed.has(origin)) {
      c.res.headers.set('Access-Control-Allow-Origin', origin);
      c.res.headers.set('Access-Control-Expose-Headers', exposedHeaders.join(', '));
    }
    c.res.headers.append('Vary', 'Origin');
  };
}
