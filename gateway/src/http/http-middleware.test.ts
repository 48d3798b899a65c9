import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { allowOrigins } from './cors.js';

function app() {
  const hono = new Hono();
  hono.use(
    '*',
    allowOrigins({ origins: ['https://app.example'], allowHeaders: ['Authorization'], maxAge: 600 }),
  );
  hono.all('/echo', async (c) => c.text(c.req.method === 'GET' ? 'read' : await c.req.text()));
  return hono;
}

describe('allowOrigins', () => {
  it('names an allowed origin and varies by origin on every answer', async () => {
    const allowed = await app().request('/echo', { headers: { origin: 'https://app.example' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(allowed.headers.get('vary')).toBe('Origin');
    // A page on the allowed origin can read the deprecation signals and the request id.
    expect(allowed.headers.get('access-control-expose-headers')).toBe(
      'Deprecation, Sunset, Link, X-Request-Id',
    );
    const foreign = await app().request('/echo', { headers: { origin: 'https://evil.example' } });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    expect(foreign.headers.get('access-control-expose-headers')).toBeNull();
    expect(foreign.headers.get('vary')).toBe('Origin');
    expect(await foreign.text()).toBe('read');
  });

  it('answers preflights for allowed origins only', async () => {
    const preflight = (origin: string) =>
      app().request('/echo', {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
    const allowed = await preflight('https://app.example');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(allowed.headers.get('access-control-max-age')).toBe('600');
    expect((await preflight('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
  });
});
