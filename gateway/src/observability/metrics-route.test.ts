import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { legacyErrorHandler } from '../errors/legacy-error-body.js';
import { createGatewayMetrics } from './metrics.js';
import { metricsRoute } from './metrics-route.js';

function appWith(token: string | undefined) {
  const metrics = createGatewayMetrics({ processMetrics: false });
  metrics.shadowComparisons.inc({ result: 'match' });
  return new Hono()
    .get('/metrics', metricsRoute({ registry: metrics.registry, token }))
    .onError(legacyErrorHandler(() => undefined));
}

describe('metricsRoute', () => {
  it('does not exist without a token configured', async () => {
    const response = await appWith(undefined).request('/metrics');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error_key: 'E_NO_SUCH_ENDPOINT' });
  });

  it('answers the configured bearer token only', async () => {
    const app = appWith('a-long-scrape-token');
    for (const authorization of [
      undefined,
      'Bearer wrong',
      'a-long-scrape-token',
      'Basic a-long-scrape-token',
    ]) {
      const response = await app.request('/metrics', authorization ? { headers: { authorization } } : {});
      expect(response.status, authorization).toBe(401);
    }
    const response = await app.request('/metrics', {
      // The scheme is case-insensitive (RFC 9110).
      headers: { authorization: 'bearer a-long-scrape-token' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await response.text()).toContain('gateway_shadow_comparisons_total{result="match"} 1');
  });
});
