import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forwardedRequestHeaders } from '../gateway/src/legacy/forward-headers.js';
import { createLogger } from '../gateway/src/observability/index.js';
import { startGateway, type RunningGateway } from '../gateway/src/server.js';
import { startTestStack, type TestStack } from './stack.js';

/**
 * What reaches the backend of a client's request headers, on the three roads that call it: the `/service`
 * read lane, the `/service` passthrough in the app, and GraphQL's legacy calls (issue 28, item 5). The
 * backend echoes nothing back; it records every header it receives.
 */

let stack: TestStack;
let gateway: RunningGateway;
let backend: Server;
let token: string;
const received: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];

/** Headers a client can send to steer a backend or proxy that believes them. */
const hostile: Record<string, string> = {
  forwarded: 'for=10.0.0.1;proto=https;host=admin.internal',
  'x-forwarded-for': '10.0.0.1',
  'x-forwarded-host': 'admin.internal',
  'x-forwarded-proto': 'http',
  'x-forwarded-ssl': 'on',
  'x-forwarded-uri': '/admin',
  'x-forwarded-server': 'admin.internal',
  'x-forwarded-scheme': 'https',
  'x-forwarded-path': '/admin',
  'x-forwarded-prefix': '/admin',
  'x-real-ip': '10.0.0.1',
  'x-original-url': '/service/admin',
  'x-rewrite-url': '/service/admin',
  'x-remote-user': 'admin',
  'true-client-ip': '10.0.0.1',
  baggage: 'user=admin',
  tracestate: `vendor=${'x'.repeat(4096)}`,
  traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
  'x-http-method-override': 'DELETE',
  cookie: 'session=abc',
  'x-custom': 'anything',
};
/** Headers of the allow-list a client may send, and what they carry. */
const allowed = { 'accept-language': 'da', 'user-agent': 'integration/1.0' };
/** The headers the gateway itself adds, and those every HTTP/1.1 request has. */
const ownHeaders = [
  'authorization',
  'x-request-id',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  'host',
  'connection',
  'content-length',
];

beforeAll(async () => {
  stack = await startTestStack({ rbacEnabled: false });
  token = await stack.token('alice');
  backend = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received.push({ method: request.method!, url: request.url!, headers: request.headers });
      response.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  const backendUrl = new URL(`http://127.0.0.1:${(backend.address() as AddressInfo).port}`);
  gateway = await startGateway({
    logger: createLogger({ level: 'silent' }),
    config: (port) => ({
      ...stack.gateway.config,
      port,
      legacy: { ...stack.gateway.config.legacy, url: backendUrl },
    }),
    serviceReadLane: true,
  });
});
afterAll(async () => {
  await gateway?.close();
  backend?.close();
  await stack?.close();
});

async function sent(
  path: string,
  init: { method?: string; body?: string; headers?: Record<string, string> },
) {
  received.length = 0;
  const response = await fetch(`${gateway.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${token}`, ...hostile, ...allowed, ...init.headers },
    body: init.body,
  });
  await response.arrayBuffer();
  expect(received.length).toBeGreaterThan(0);
  return { requestId: response.headers.get('x-request-id'), calls: received.slice() };
}

function expectOnlyAllowed(headers: IncomingHttpHeaders, requestId: string | null) {
  const permitted = new Set([...forwardedRequestHeaders, ...ownHeaders]);
  expect(Object.keys(headers).filter((name) => !permitted.has(name))).toEqual([]);
  // The gateway's own request id: the client sent none, and its traceparent is not ours (tracing is off).
  expect(headers['x-request-id']).toBe(requestId);
  expect(headers.traceparent).toBeUndefined();
}

describe('the headers that reach the backend', () => {
  it('on the /service read lane: the allow-list and the gateway’s own view, nothing else', async () => {
    const before = gateway.serviceReadsServed() ?? 0;
    const { requestId, calls } = await sent('/service/o/', {});
    expect(gateway.serviceReadsServed()).toBe(before + 1);
    const [call] = calls;
    expectOnlyAllowed(call!.headers, requestId);
    expect(call!.headers).toMatchObject({
      ...allowed,
      'x-forwarded-for': '127.0.0.1',
      'x-forwarded-proto': 'http',
    });
    expect(call!.headers['x-forwarded-host']).toBe(new URL(gateway.url).host);
  });

  it('on the /service passthrough in the app: the same', async () => {
    const before = gateway.serviceReadsServed() ?? 0;
    const { requestId, calls } = await sent('/service/details/create', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(gateway.serviceReadsServed()).toBe(before);
    const [call] = calls;
    expectOnlyAllowed(call!.headers, requestId);
    expect(call!.headers).toMatchObject({ ...allowed, 'content-type': 'application/json' });
    expect(call!.headers['x-forwarded-for']).toBe('127.0.0.1');
  });

  it('on GraphQL’s legacy calls: none of the client’s headers, only the gateway’s own', async () => {
    const { requestId, calls } = await sent('/graphql/v2', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ org { uuid } }' }),
    });
    for (const call of calls) {
      expectOnlyAllowed(call.headers, requestId);
      expect(call.headers['accept-language']).toBeUndefined();
      expect(call.headers['user-agent']).not.toBe(allowed['user-agent']);
    }
  });
});
