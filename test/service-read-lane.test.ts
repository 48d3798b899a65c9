import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DestinationStream } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { createLogger } from '../gateway/src/observability/index.js';
import { startGateway, type RunningGateway } from '../gateway/src/server.js';
import { startTestStack, type TestStack } from './stack.js';

/**
 * The `/service` read lane on Node's request answers exactly as the Hono app does: two gateways on the same
 * legacy service and identity provider, one with the lane and one without, get the same requests; status,
 * raw headers (names, order, values; `Date` and a generated `X-Request-Id` aside), body, access-log line and
 * counter increments must be equal, and the lane's counter says which gateway took which request.
 */
interface Gateway {
  running: RunningGateway;
  log: Record<string, unknown>[];
}

let stack: TestStack;
let withLane: Gateway;
let withoutLane: Gateway;
/** The same pair in front of a backend that answers with unusual headers and bodies. */
let oddWithLane: Gateway;
let oddWithoutLane: Gateway;
let oddBackend: Server;
let token: string;

async function startComparedGateway(lane: boolean, legacyUrl?: string): Promise<Gateway> {
  const log: Record<string, unknown>[] = [];
  const destination: DestinationStream = {
    write: (line: string) => void log.push(JSON.parse(line) as Record<string, unknown>),
  };
  const running = await startGateway({
    logger: createLogger({ level: 'info', destination }),
    // The stack's configuration on a port of its own; `publicUrl` stays the stack's, so `Location` matches.
    config: (port) => ({
      ...stack.gateway.config,
      port,
      // alice's client, so the tool header is believed and both lanes count it as the tool's.
      usage: { ...stack.gateway.config.usage, toolClients: ['org-frontend'] },
      ...(legacyUrl === undefined
        ? {}
        : { legacy: { ...stack.gateway.config.legacy, url: new URL(legacyUrl) } }),
    }),
    serviceReadLane: lane,
  });
  return { running, log };
}

beforeAll(async () => {
  stack = await startTestStack({ rbacEnabled: false });
  token = await stack.token('alice');
  withLane = await startComparedGateway(true);
  withoutLane = await startComparedGateway(false);
  oddBackend = await startOddBackend();
  const oddUrl = `http://127.0.0.1:${(oddBackend.address() as AddressInfo).port}`;
  oddWithLane = await startComparedGateway(true, oddUrl);
  oddWithoutLane = await startComparedGateway(false, oddUrl);
});
afterAll(async () => {
  await withLane?.running.close();
  await withoutLane?.running.close();
  await oddWithLane?.running.close();
  await oddWithoutLane?.running.close();
  oddBackend?.close();
  await stack?.close();
});

/**
 * A backend whose answers carry what the legacy service never sends: repeated headers and cookies, a `Vary`,
 * headers the gateway replaces or drops, a `Location` with its own address, no `content-type`, a body too
 * large to buffer, a body without a length, and no body at all.
 */
function startOddBackend(): Promise<Server> {
  const server = createServer((request, response) => {
    const own = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    response.setHeader('Set-Cookie', ['a=1', 'b=2']);
    response.setHeader('Vary', 'Accept');
    response.setHeader('X-Powered-By', 'legacy');
    response.setHeader('X-Frame-Options', 'ALLOWALL');
    response.setHeader('Location', `${own}/service/o/`);
    response.setHeader('Connection', 'keep-alive, X-Hop');
    response.setHeader('X-Hop', 'dropped');
    response.setHeader('X-Multi', ['1', '2']);
    if (request.url === '/service/empty/') return response.writeHead(204).end();
    if (request.url === '/service/large/') {
      const large = JSON.stringify('x'.repeat(100_000));
      return response.writeHead(200, { 'content-type': 'application/json' }).end(large);
    }
    if (request.url === '/service/unsized/') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('[1,');
      return response.end('2]');
    }
    response.writeHead(200).end('plain');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

interface Answer {
  status: number;
  rawHeaders: string[];
  body: string;
}

function send(port: number, method: string, path: string, headers: Record<string, string>) {
  return new Promise<Answer>((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode!,
          rawHeaders: response.rawHeaders,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** Every counter's value by name and labels: what one request adds is the difference of two of these. */
async function counters(gateway: Gateway): Promise<Map<string, number>> {
  const values = new Map<string, number>();
  for (const metric of await gateway.running.metrics.registry.getMetricsAsJSON()) {
    if (String(metric.type) !== 'counter' || !metric.name.startsWith('gateway_')) continue;
    for (const value of metric.values)
      values.set(`${metric.name}${JSON.stringify(value.labels)}`, value.value);
  }
  return values;
}

function increments(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const added: Record<string, number> = {};
  for (const [key, value] of after)
    if (value !== (before.get(key) ?? 0)) added[key] = value - (before.get(key) ?? 0);
  return added;
}

/** One request to a gateway: its answer, the access-log line it wrote, what it counted, and the lane's count. */
async function observe(gateway: Gateway, method: string, path: string, headers: Record<string, string>) {
  const port = gateway.running.port;
  const before = await counters(gateway);
  const laneBefore = gateway.running.serviceReadsServed() ?? 0;
  const logged = gateway.log.length;
  const answer = await send(port, method, path, { host: `localhost:${port}`, ...headers });
  const access = gateway.log.slice(logged).filter((line) => line.msg === 'request');
  expect(access).toHaveLength(1);
  const { time: _time, durationMs: _duration, pid: _pid, hostname: _host, ...line } = access[0]!;
  return {
    answer,
    line,
    counted: increments(before, await counters(gateway)),
    tookLane: (gateway.running.serviceReadsServed() ?? 0) - laneBefore === 1,
  };
}

/** Raw headers without `Date`, and with the request id replaced when it is one the gateway made. */
function comparableHeaders(rawHeaders: string[], sentId: string | undefined): string[] {
  const kept: string[] = [];
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const name = rawHeaders[index]!;
    let value = rawHeaders[index + 1]!;
    if (name.toLowerCase() === 'date') continue;
    if (name.toLowerCase() === 'x-request-id' && value !== sentId) {
      expect(value).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      value = '(generated)';
    }
    kept.push(name, value);
  }
  return kept;
}

async function compare(
  method: string,
  path: string,
  headers: (token: string) => Record<string, string>,
  expectedLane: boolean,
) {
  return comparePair([withLane, withoutLane], method, path, headers, expectedLane);
}

async function comparePair(
  [withLane, withoutLane]: [Gateway, Gateway],
  method: string,
  path: string,
  headers: (token: string) => Record<string, string>,
  expectedLane: boolean,
) {
  const sent = headers(token);
  const lane = await observe(withLane, method, path, sent);
  const app = await observe(withoutLane, method, path, sent);
  expect(lane.tookLane).toBe(expectedLane);
  expect(app.tookLane).toBe(false);
  expect(lane.answer.status).toBe(app.answer.status);
  const sentId = sent['x-request-id'];
  expect(comparableHeaders(lane.answer.rawHeaders, sentId)).toEqual(
    comparableHeaders(app.answer.rawHeaders, sentId),
  );
  expect(lane.answer.body).toBe(app.answer.body);
  // The id is each gateway's own when it made one; the rest of the line must be the same.
  const { requestId: laneId, ...laneLine } = lane.line;
  const { requestId: appId, ...appLine } = app.line;
  if (sentId !== undefined && /^[\w\-=]+$/.test(sentId)) expect([laneId, appId]).toEqual([sentId, sentId]);
  expect(laneLine).toEqual(appLine);
  expect(lane.counted).toEqual(app.counted);
  return lane;
}

const detail = `/service/ou/${referenceUnitUuids[0]}/details/manager`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('the /service read lane on Node', () => {
  it('answers a good read as the app does, and counts it as the app does', async () => {
    const { answer, line, counted } = await compare('GET', detail, bearer, true);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toBeInstanceOf(Array);
    // Attributed to its contract endpoint, which only usage attribution names.
    expect(line).toMatchObject({ route: '/service/*', endpoint: 'GET /service/ou/{uuid}/details/manager' });
    expect(Object.keys(counted)).toContain(
      'gateway_http_requests_total{"method":"GET","route":"/service/*","status":"200"}',
    );
  });

  it('answers a legacy 404 as the app does', async () => {
    const { answer } = await compare(
      'GET',
      '/service/ou/00000000-0000-4000-8000-000000000000/',
      bearer,
      true,
    );
    expect(answer.status).toBe(404);
  });

  it('refuses a missing token as the app does', async () => {
    const { answer } = await compare('GET', detail, () => ({}), true);
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ error: true, error_key: 'E_UNAUTHORIZED' });
  });

  it('refuses a bad token, and a malformed header, as the app does', async () => {
    expect(
      (await compare('GET', detail, () => ({ authorization: 'Bearer not-a-token' }), true)).answer.status,
    ).toBe(401);
    expect((await compare('GET', detail, () => ({ authorization: 'Basic abc' }), true)).answer.status).toBe(
      401,
    );
  });

  it('answers a HEAD, with and without a token, as the app does', async () => {
    expect((await compare('HEAD', detail, bearer, true)).answer.status).toBe(200);
    expect((await compare('HEAD', detail, () => ({}), true)).answer.status).toBe(401);
  });

  it('passes a query string on as the app does', async () => {
    const { answer } = await compare('GET', `/service/o/?limit=1&start=0`, bearer, true);
    expect(answer.status).toBe(200);
  });

  it('keeps a valid incoming X-Request-Id and replaces an invalid one, as hono/request-id does', async () => {
    const kept = await compare(
      'GET',
      detail,
      (token) => ({ ...bearer(token), 'x-request-id': 'trace-1=ok' }),
      true,
    );
    expect(kept.line.requestId).toBe('trace-1=ok');
    const replaced = await compare(
      'GET',
      detail,
      (token) => ({ ...bearer(token), 'x-request-id': 'not valid!' }),
      true,
    );
    expect(replaced.line.requestId).not.toBe('not valid!');
  });

  it('counts the comparison tool as a tool, as the app does', async () => {
    const tool = (token: string) => ({ ...bearer(token), 'x-gateway-tool': 'compare' });
    // A new usage series is exported as 0 twice (see `exportedCount`): the third request shows in the counter.
    await compare('GET', detail, tool, true);
    await compare('GET', detail, tool, true);
    const { counted } = await compare('GET', detail, tool, true);
    expect(Object.keys(counted).some((key) => key.startsWith('gateway_usage_tool_requests_total'))).toBe(
      true,
    );
  });

  it('leaves to the app a read with an Origin, a target URL parsing would change, and a write', async () => {
    await compare(
      'GET',
      detail,
      (token) => ({ ...bearer(token), origin: 'https://elsewhere.example' }),
      false,
    );
    await compare('GET', `/service/ou/../o/`, bearer, false);
    await compare('GET', `/service/o/%6F`, bearer, false);
    await compare('POST', `/service/details/create`, bearer, false);
  });
});

describe('the /service read lane on Node, with unusual backend answers', () => {
  const odd = (method: string, path: string) =>
    comparePair([oddWithLane, oddWithoutLane], method, path, bearer, true);

  it('writes repeated headers, cookies, Vary, replaced and dropped headers and Location as the app does', async () => {
    const { answer } = await odd('GET', '/service/plain/');
    expect(answer.body).toBe('plain');
    expect(answer.rawHeaders).toContain('set-cookie');
    expect(answer.rawHeaders).not.toContain('x-hop');
    expect(answer.rawHeaders).not.toContain('x-powered-by');
    expect(answer.rawHeaders).toContain(`${stack.gateway.config.publicUrl}/service/o/`);
  });

  it('streams a large body and a body without a length as the app does', async () => {
    expect((await odd('GET', '/service/large/')).answer.body).toHaveLength(100_002);
    expect((await odd('GET', '/service/unsized/')).answer.body).toBe('[1,2]');
  });

  it('answers a 204 and a HEAD as the app does', async () => {
    expect((await odd('GET', '/service/empty/')).answer.status).toBe(204);
    expect((await odd('HEAD', '/service/large/')).answer.body).toBe('');
  });
});
