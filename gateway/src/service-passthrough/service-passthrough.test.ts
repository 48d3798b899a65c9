import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LegacyAuth } from '../legacy/backend-credentials.js';
import { legacyErrorHandler } from '../errors/legacy-error-body.js';
import { createLegacyClient } from '../legacy/legacy-client.js';
import { servicePassthrough } from './service-passthrough.js';

/** A stand-in legacy service that records what it receives and answers with awkward headers. */
let upstream: Server;
let upstreamUrl: string;
const received: { method?: string; url?: string; headers?: IncomingHttpHeaders; body?: string }[] = [];

beforeAll(async () => {
  upstream = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body });
      res.writeHead(req.url?.startsWith('/service/moved') ? 303 : 201, {
        'content-type': 'application/json',
        connection: 'keep-alive',
        'keep-alive': 'timeout=99',
        'proxy-authenticate': 'Basic',
        location: `${upstreamUrl}/service/ou/1/`,
        'x-legacy-version': '1.2.3',
      });
      res.end(JSON.stringify({ echoed: body.length }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

function gatewayApp(auth: LegacyAuth = { mode: 'relay' }) {
  const legacy = createLegacyClient({
    url: new URL(upstreamUrl),
    connectTimeoutMs: 1000,
    responseTimeoutMs: 1000,
    auth,
  });
  const app = new Hono();
  app.all('/service/*', servicePassthrough({ legacy, publicUrl: 'https://gateway.example' }));
  return app;
}

describe('servicePassthrough', () => {
  it('forwards method, path, query and body, but not the token, cookies or connection headers', async () => {
    received.length = 0;
    const response = await gatewayApp({ mode: 'none' }).request(
      'https://gateway.example/service/details/create?x=1&y=2',
      {
        method: 'POST',
        headers: {
          authorization: 'Bearer secret-token',
          cookie: 'session=abc',
          'content-type': 'application/json',
          'x-custom': 'kept',
          te: 'trailers',
        },
        body: JSON.stringify({ type: 'engagement' }),
      },
    );
    expect(response.status).toBe(201);
    const [request] = received;
    expect(request).toMatchObject({
      method: 'POST',
      url: '/service/details/create?x=1&y=2',
      body: '{"type":"engagement"}',
    });
    expect(request?.headers).toMatchObject({
      'x-custom': 'kept',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'gateway.example',
    });
    expect(request?.headers?.authorization).toBeUndefined();
    expect(request?.headers?.cookie).toBeUndefined();
    expect(request?.headers?.te).toBeUndefined();
  });

  it('returns status, body and headers, without hop-by-hop headers and without the legacy address', async () => {
    const response = await gatewayApp().request('https://gateway.example/service/moved');
    expect(response.status).toBe(303);
    expect(response.headers.get('x-legacy-version')).toBe('1.2.3');
    expect(response.headers.get('keep-alive')).toBeNull();
    expect(response.headers.get('proxy-authenticate')).toBeNull();
    expect(response.headers.get('location')).toBe('https://gateway.example/service/ou/1/');
    expect(await response.json()).toEqual({ echoed: 0 });
  });

  it('answers 502 E_UPSTREAM_UNAVAILABLE when nothing listens, without the address', async () => {
    const legacy = createLegacyClient({
      url: new URL('http://127.0.0.1:1'),
      connectTimeoutMs: 500,
      responseTimeoutMs: 500,
    });
    const app = new Hono();
    app.all('/service/*', servicePassthrough({ legacy, publicUrl: 'https://gateway.example' }));
    app.onError(legacyErrorHandler(() => undefined));
    const response = await app.request('/service/o/');
    const text = await response.text();
    expect(response.status).toBe(502);
    expect(JSON.parse(text)).toMatchObject({ error: true, status: 502, error_key: 'E_UPSTREAM_UNAVAILABLE' });
    expect(text).not.toContain('127.0.0.1:1');
  });
});
