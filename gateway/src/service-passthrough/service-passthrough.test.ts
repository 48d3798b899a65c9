import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { bufferedBody } from '../http/body-limit.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LegacyAuth } from '../legacy/backend-credentials.js';
import { legacyErrorHandler } from '../errors/legacy-error-body.js';
import { createLegacyClient } from '../legacy/legacy-client.js';
import { startStubBackend } from '../legacy/stub-backend.test-helpers.js';
import { requestTarget, servicePassthrough } from './service-passthrough.js';

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
        connection: 'keep-alive, x-upstream-secret',
        'x-upstream-secret': 'for the next hop only',
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
    connectTimeoutMs: 30_000,
    responseTimeoutMs: 30_000,
    auth,
  });
  const app = new Hono();
  app.all('/service/*', servicePassthrough({ legacy, publicUrl: 'https://gateway.example' }));
  app.onError(legacyErrorHandler(() => undefined));
  return app;
}

describe('servicePassthrough', () => {
  it('forwards method, path, query, body and the allowed headers, but not the token, cookies or others', async () => {
    received.length = 0;
    const response = await gatewayApp({ mode: 'none' }).request(
      'https://gateway.example/service/details/create?x=1&y=2',
      {
        method: 'POST',
        headers: {
          authorization: 'Bearer secret-token',
          cookie: 'session=abc',
          'content-type': 'application/json',
          'accept-language': 'da',
          'x-custom': 'dropped',
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
      'accept-language': 'da',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'gateway.example',
    });
    expect(request?.headers?.authorization).toBeUndefined();
    expect(request?.headers?.['x-custom']).toBeUndefined();
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
    // Long timeouts: the refusal comes at once, and a timeout that came first would answer 504, not 502.
    const legacy = createLegacyClient({
      url: new URL('http://127.0.0.1:1'),
      connectTimeoutMs: 30_000,
      responseTimeoutMs: 30_000,
    });
    const app = new Hono();
    app.all('/service/*', servicePassthrough({ legacy, publicUrl: 'https://gateway.example' }));
    app.onError(legacyErrorHandler(() => undefined));
    const response = await app.request('/service/o/');
    const text = await response.text();
    expect(response.status).toBe(502);
    expect(JSON.parse(text)).toMatchObject({ error: true, status: 502, error_key: 'E_UPSTREAM_UNAVAILABLE' });
    expect(text).not.toContain('127.0.0.1:1');
    // A read says nothing about writes.
    expect(JSON.parse(text).description).toBe('The legacy service cannot be reached.');
  });

  it('says a write may have been made when the legacy connection dies before the answer', async () => {
    // The backend reads the whole write, then the connection dies: as if it crashed after its commit.
    const dying = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.socket?.destroy());
    });
    await new Promise<void>((resolve) => dying.listen(0, '127.0.0.1', resolve));
    try {
      // Long timeouts: the connection dies as soon as the backend has read the write; a timeout that came
      // first on a slow machine would answer 504 and say nothing of the write.
      const legacy = createLegacyClient({
        url: new URL(`http://127.0.0.1:${(dying.address() as AddressInfo).port}`),
        connectTimeoutMs: 30_000,
        responseTimeoutMs: 30_000,
      });
      const app = new Hono();
      app.all('/service/*', servicePassthrough({ legacy, publicUrl: 'https://gateway.example' }));
      app.onError(legacyErrorHandler(() => undefined));
      const response = await app.request('/service/ou/create', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Unit', parent: { uuid: '00000000-0000-4000-8000-000000000001' } }),
      });
      expect(response.status).toBe(502);
      const body = await response.json();
      expect(body).toMatchObject({ error: true, status: 502, error_key: 'E_UPSTREAM_UNAVAILABLE' });
      expect(body.description).toContain('The write may have been made all the same');
      expect(body.description).toContain('"uuid"');
    } finally {
      await new Promise<void>((resolve) => dying.close(() => resolve()));
    }
  });
});

/** The passthrough behind a real Node server on a loopback port, as in production. */
async function listening(app: Hono): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(getRequestListener(app.fetch));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('upstream failures', () => {
  it('answers 504 E_UPSTREAM_TIMEOUT when the legacy service does not answer in time, without its address', async () => {
    const silent = await startStubBackend();
    silent.answer(() => undefined);
    const legacy = createLegacyClient({
      url: new URL(silent.url),
      connectTimeoutMs: 30_000,
      responseTimeoutMs: 200,
    });
    const app = new Hono();
    app.all('/service/*', servicePassthrough({ legacy, publicUrl: 'https://gateway.example' }));
    app.onError(legacyErrorHandler(() => undefined));
    const response = await app.request('/service/o/');
    const text = await response.text();
    expect(response.status).toBe(504);
    expect(JSON.parse(text)).toEqual({
      error: true,
      status: 504,
      error_key: 'E_UPSTREAM_TIMEOUT',
      description: 'The legacy service did not answer in time.',
    });
    expect(text).not.toContain(silent.url);
    await legacy.destroy();
    await silent.close();
  });
});

describe('header hygiene', () => {
  it('drops the headers a Connection header names, both ways', async () => {
    received.length = 0;
    const response = await gatewayApp().request('https://gateway.example/service/o/', {
      headers: { connection: 'accept-language', 'accept-language': 'for the gateway only', accept: 'a/b' },
    });
    expect(received[0]?.headers?.['accept-language']).toBeUndefined();
    expect(received[0]?.headers?.accept).toBe('a/b');
    expect(response.headers.get('x-upstream-secret')).toBeNull();
    expect(response.headers.get('x-legacy-version')).toBe('1.2.3');
  });

  it('sets X-Forwarded-* from what the gateway saw, never the client’s Forwarded, X-Forwarded-* or X-Real-IP', async () => {
    received.length = 0;
    await gatewayApp().request('https://gateway.example/service/o/', {
      headers: {
        forwarded: 'for=10.0.0.1;proto=https',
        'x-forwarded-for': '10.0.0.1',
        'x-forwarded-host': 'admin.internal',
        'x-forwarded-proto': 'http',
        'x-real-ip': '10.0.0.1',
      },
    });
    const headers = received[0]?.headers;
    expect(headers?.forwarded).toBeUndefined();
    expect(headers?.['x-real-ip']).toBeUndefined();
    expect(headers?.['x-forwarded-for']).toBeUndefined();
    expect(headers?.['x-forwarded-host']).toBe('gateway.example');
    expect(headers?.['x-forwarded-proto']).toBe('https');

    const server = await listening(gatewayApp());
    received.length = 0;
    await fetch(`${server.url}/service/o/`, { headers: { 'x-forwarded-for': '10.0.0.1' } });
    expect(received[0]?.headers?.['x-forwarded-for']).toBe('127.0.0.1');
    await server.close();
  });

  it('drops method overrides: RBAC judges the real method, and so must the legacy service', async () => {
    received.length = 0;
    await gatewayApp().request('https://gateway.example/service/o/', {
      headers: {
        'x-http-method-override': 'DELETE',
        'x-http-method': 'DELETE',
        'x-method-override': 'DELETE',
      },
    });
    expect(received[0]?.method).toBe('GET');
    for (const name of ['x-http-method-override', 'x-http-method', 'x-method-override']) {
      expect(received[0]?.headers?.[name]).toBeUndefined();
    }
  });

  it('answers a body sent with Expect: 100-continue (not 502)', async () => {
    const server = await listening(gatewayApp());
    received.length = 0;
    const body = JSON.stringify({ type: 'engagement' });
    const status = await new Promise<number>((resolve, reject) => {
      const outgoing = request(`${server.url}/service/details/create`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          expect: '100-continue',
        },
      });
      outgoing.on('continue', () => outgoing.end(body));
      outgoing.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      outgoing.on('error', reject);
      outgoing.flushHeaders();
    });
    expect(status).toBe(201);
    expect(received[0]?.body).toBe(body);
    expect(received[0]?.headers?.expect).toBeUndefined();
    await server.close();
  });
});

describe('slow request bodies', () => {
  it('are cut off with 408 and never hold a legacy connection; another user’s read is answered meanwhile', async () => {
    const legacy = createLegacyClient({
      url: new URL(upstreamUrl),
      connectTimeoutMs: 30_000,
      responseTimeoutMs: 30_000,
      connections: 2,
    });
    const app = new Hono();
    let bodiesStarted = 0;
    let allStarted!: () => void;
    const started = new Promise<void>((resolve) => (allStarted = resolve));
    app.use('/service/*', async (_c, next) => {
      if (_c.req.method === 'POST' && ++bodiesStarted === 5) allStarted();
      await next();
    });
    app.use(
      '/service/*',
      bufferedBody({
        maxSize: 1024,
        timeoutMs: 300,
        onTooLarge: (c) => c.json({ error_key: 'E_PAYLOAD_TOO_LARGE' }, 413),
        onTimeout: (c) => c.json({ error: true, status: 408, error_key: 'E_REQUEST_TIMEOUT' }, 408),
      }),
    );
    app.all('/service/*', servicePassthrough({ legacy, publicUrl: 'https://gateway.example' }));
    app.onError(legacyErrorHandler(() => undefined));
    const server = await listening(app);
    received.length = 0;

    // Five uploads of 50 bytes at one byte per 100 ms: each would take 5 s.
    const uploads = Array.from(
      { length: 5 },
      () =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const outgoing = request(`${server.url}/service/details/create`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'content-length': 50 },
          });
          const timer = setInterval(() => outgoing.write('x'), 100);
          outgoing.write('x');
          outgoing.on('response', (response) => {
            clearInterval(timer);
            let text = '';
            response.on('data', (chunk: Buffer) => (text += chunk.toString()));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
          });
          outgoing.on('error', (error) => {
            clearInterval(timer);
            reject(error);
          });
        }),
    );
    await started;
    const read = await fetch(`${server.url}/service/o/`);
    expect(read.status).toBe(201);

    for (const upload of await Promise.all(uploads)) {
      expect(upload.status).toBe(408);
      expect(JSON.parse(upload.body)).toMatchObject({ error_key: 'E_REQUEST_TIMEOUT' });
    }
    // Not one byte of the slow bodies reached the legacy service.
    expect(received.map((entry) => entry.method)).toEqual(['GET']);
    await server.close();
    await legacy.close();
  });
});

describe('requestTarget', () => {
  it('reads protocol, host and path with query from a URL as URL would', () => {
    for (const href of [
      'http://gateway.example/service/o/?limit=1&start=0',
      'https://gateway.example:8443/service/ou/1/details/manager',
      'http://[::1]:8080/service/e/2?at=2024-01-01#part',
      'http://127.0.0.1:8080/',
      'http://127.0.0.1:8080?x=1',
    ]) {
      const url = new URL(href);
      expect(requestTarget(href)).toEqual({
        protocol: url.protocol.replace(':', ''),
        host: url.host,
        target: `${url.pathname}${url.search}`,
      });
    }
  });
});
