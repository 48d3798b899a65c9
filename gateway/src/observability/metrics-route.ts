import { createHash, timingSafeEqual } from 'node:crypto';
import type { Handler } from 'hono';
import type { Registry } from 'prom-client';
import { GatewayError, noSuchEndpoint } from '../errors/gateway-error.js';

export interface MetricsRouteOptions {
  registry: Registry;
  /** The bearer token scrapers send; without one, `/metrics` does not exist (404). */
  token: string | undefined;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * `GET /metrics` in Prometheus' text format, for a scraper that sends `Authorization: Bearer <METRICS_TOKEN>`.
 * Closed by default: the counts reveal traffic and the route map, so they need a token (or stay off).
 *
 * @example
 * app.get('/metrics', metricsRoute({ registry: metrics.registry, token: config.operations.metricsToken }));
 */
export function metricsRoute(options: MetricsRouteOptions): Handler {
  const expected = options.token === undefined ? undefined : digest(options.token);
  return async (c) => {
    if (expected === undefined) throw noSuchEndpoint();
    const sent = /^Bearer (\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
    // Digests have one length, so the comparison takes the same time whatever was sent.
    if (!timingSafeEqual(digest(sent), expected)) {
      throw new GatewayError(
        401,
        'UNAUTHENTICATED',
        'Send "Authorization: Bearer <METRICS_TOKEN>" to read the metrics.',
        { errorKey: 'E_UNAUTHORIZED', headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' } },
      );
    }
    return c.body(await options.registry.metrics(), 200, { 'content-type': options.registry.contentType });
  };
}
