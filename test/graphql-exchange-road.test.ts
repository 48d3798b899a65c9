import { request as httpRequest } from 'node:http';
import type { DestinationStream } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ParamsExchange } from '../gateway/src/graphql/params-exchange.js';
import { createLogger } from '../gateway/src/observability/index.js';
import { startGateway, type RunningGateway } from '../gateway/src/server.js';
import { sharedReadOnlyStack, type TestStack } from './stack.js';

/**
 * The GraphQL JSON exchange answers exactly as Yoga's own road: two gateways on the same legacy service and
 * identity provider, one with the exchange and one built without it (`paramsExchange: false`), get the same
 * requests (the body and content-type variants the red team of issue 28 tried); status, headers (`Date` and a
 * generated `X-Request-Id` aside), body and access-log line must be equal, and a spy on the exchange says
 * which requests took it.
 */
interface Gateway {
  running: RunningGateway;
  log: Record<string, unknown>[];
}

let stack: TestStack;
let exchange: Gateway;
let yoga: Gateway;
let token: string;
const answered = vi.spyOn(ParamsExchange.prototype, 'answer');

async function startComparedGateway(paramsExchange: boolean): Promise<Gateway> {
  const log: Record<string, unknown>[] = [];
  const destination: DestinationStream = {
    write: (line: string) => void log.push(JSON.parse(line) as Record<string, unknown>),
  };
  const running = await startGateway({
    logger: createLogger({ level: 'info', destination }),
    // The stack's configuration on a port of its own, with a small body limit to reach it cheaply.
    config: (port) => ({ ...stack.gateway.config, port, maxBodyBytes: 4096 }),
    serviceReadLane: false,
    paramsExchange,
  });
  return { running, log };
}

beforeAll(async () => {
  stack = await sharedReadOnlyStack();
  token = await stack.token('alice');
  exchange = await startComparedGateway(true);
  yoga = await startComparedGateway(false);
});
afterAll(async () => {
  answered.mockRestore();
  await exchange?.running.close();
  await yoga?.running.close();
});

interface Sent {
  method?: 'GET' | 'POST' | 'PUT';
  /** Path and query; `/graphql/v30` when not given. */
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Leave the token out. */
  anonymous?: boolean;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(port: number, sent: Sent): Promise<Answer> {
  const headers: Record<string, string> = {
    host: `localhost:${port}`,
    ...(sent.anonymous ? {} : { authorization: `Bearer ${token}` }),
    ...sent.headers,
  };
  return new Promise<Answer>((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port, method: sent.method ?? 'POST', path: sent.path ?? '/graphql/v30', headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode!,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(sent.body);
  });
}

/** One request to a gateway: its answer, without `Date` and the generated request id, and its access-log line. */
async function observe(gateway: Gateway, sent: Sent) {
  const logged = gateway.log.length;
  const answer = await send(gateway.running.port, sent);
  const { date: _date, 'x-request-id': requestId, ...headers } = answer.headers;
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  const access = gateway.log.slice(logged).filter((line) => line.msg === 'request');
  expect(access).toHaveLength(1);
  const { time: _t, durationMs: _d, pid: _p, hostname: _h, requestId: _r, ...line } = access[0]!;
  return { status: answer.status, headers, body: answer.body, line };
}

/** Sends the request to both gateways and expects the same answer; says whether the exchange answered it. */
async function compare(sent: Sent) {
  const before = answered.mock.calls.length;
  const fast = await observe(exchange, sent);
  const tookExchange = answered.mock.calls.length - before;
  const slow = await observe(yoga, sent);
  expect(answered.mock.calls.length - before).toBe(tookExchange);
  expect(fast.status).toBe(slow.status);
  expect(fast.headers).toEqual(slow.headers);
  expect(fast.body).toBe(slow.body);
  expect(fast.line).toEqual(slow.line);
  return { ...fast, tookExchange: tookExchange > 0, json: () => JSON.parse(fast.body) as Json };
}

type Json = Record<string, unknown> & { errors?: { message: string; extensions?: { code?: string } }[] };

const json = { 'content-type': 'application/json' };
const graphqlResponse = { ...json, accept: 'application/graphql-response+json' };
const body = (params: unknown) => JSON.stringify(params);
const typename = { query: '{ __typename }' };

/** A query deeper than `GRAPHQL_MAX_DEPTH` (20): each `parent` is one level. */
const deep = `{ org_units { objects { current { ${'parent { '.repeat(20)}uuid${' }'.repeat(20)} } } } }`;

describe('the GraphQL JSON exchange beside Yoga’s own road', () => {
  it('answers a plain JSON POST, in each accepted media type and charset, as Yoga does', async () => {
    const plain = await compare({ headers: json, body: body(typename) });
    expect(plain.tookExchange).toBe(true);
    expect(plain.status).toBe(200);
    expect(plain.json()).toEqual({ data: { __typename: 'Query' } });
    const negotiated = await compare({ headers: graphqlResponse, body: body(typename) });
    expect(negotiated.tookExchange).toBe(true);
    expect(negotiated.headers['content-type']).toMatch(/^application\/graphql-response\+json/);
    for (const type of [
      'application/json; charset=utf-8',
      'application/json;charset=UTF-8',
      'application/graphql+json',
      // Yoga reads the first of a list of types, and so does the exchange.
      'application/json, text/plain',
    ]) {
      expect((await compare({ headers: { 'content-type': type }, body: body(typename) })).tookExchange).toBe(
        true,
      );
    }
    // Left to Yoga on both gateways: a type the exchange does not recognise as JSON.
    for (const type of ['Application/JSON', 'application/json ; charset=utf-8']) {
      expect((await compare({ headers: { 'content-type': type }, body: body(typename) })).tookExchange).toBe(
        false,
      );
    }
  });

  it('refuses an Accept it cannot answer in as Yoga does', async () => {
    const refused = await compare({ headers: { ...json, accept: 'text/html' }, body: body(typename) });
    expect(refused.tookExchange).toBe(true);
    expect(refused.status).toBe(406);
  });

  it('answers a missing, empty, non-JSON or non-object body as Yoga does', async () => {
    for (const sent of ['', ' ', '{', 'null', '"query"', '42', 'true']) {
      const answer = await compare({ headers: json, body: sent });
      expect(answer.tookExchange).toBe(false);
      expect(answer.status).toBeGreaterThanOrEqual(400);
    }
    expect((await compare({ headers: json })).status).toBe(400);
    expect((await compare({ headers: graphqlResponse, body: '{' })).status).toBe(400);
  });

  it('answers a batch, and parameters of the wrong type or name, as Yoga does', async () => {
    for (const params of [
      [typename],
      { query: 1 },
      { query: null },
      { variables: {} },
      { ...typename, variables: 'x' },
      { ...typename, variables: [] },
      { ...typename, extensions: 'x' },
      { ...typename, operationName: 1 },
      { ...typename, other: 1 },
    ]) {
      const answer = await compare({ headers: graphqlResponse, body: body(params) });
      expect(answer.tookExchange).toBe(false);
      expect(answer.status).toBe(400);
    }
  });

  it('takes null parameters, extensions and persisted-query-like extensions as Yoga does', async () => {
    for (const params of [
      { ...typename, variables: null, operationName: null, extensions: null },
      { ...typename, extensions: { anything: [1, 2] } },
      { ...typename, extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } } },
    ]) {
      const answer = await compare({ headers: json, body: body(params) });
      expect(answer.tookExchange).toBe(true);
      expect(answer.json()).toEqual({ data: { __typename: 'Query' } });
    }
    // Without a query, a persisted query is not something the gateway keeps: Yoga's road refuses it.
    const hashOnly = await compare({
      headers: graphqlResponse,
      body: body({ extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } } }),
    });
    expect(hashOnly.tookExchange).toBe(false);
    expect(hashOnly.status).toBe(400);
  });

  it('answers an operation name the document lacks, and a document of several unnamed, as Yoga does', async () => {
    for (const headers of [json, graphqlResponse]) {
      const mismatch = await compare({
        headers,
        body: body({ query: 'query A { __typename }', operationName: 'B' }),
      });
      expect(mismatch.tookExchange).toBe(true);
      expect(mismatch.json().data).toBeUndefined();
      expect(mismatch.json().errors?.[0]?.extensions?.code).toBeTruthy();
      const ambiguous = await compare({
        headers,
        body: body({ query: 'query A { __typename } query C { __typename }' }),
      });
      expect(ambiguous.tookExchange).toBe(true);
      expect(ambiguous.json().data).toBeUndefined();
    }
  });

  it('answers a validation error, a syntax error and variables that fail coercion as Yoga does', async () => {
    for (const headers of [json, graphqlResponse]) {
      for (const params of [
        { query: '{ no_such_field }' },
        { query: '{ __typename' },
        { query: 'query ($b: Boolean!) { __typename @include(if: $b) }', variables: { b: 'one' } },
      ]) {
        const answer = await compare({ headers, body: body(params) });
        expect(answer.tookExchange).toBe(true);
        expect(answer.json().errors?.[0]?.extensions?.code).toBeTruthy();
      }
    }
  });

  it('refuses a query past the depth limit as Yoga does', async () => {
    const refused = await compare({ headers: graphqlResponse, body: body({ query: deep }) });
    expect(refused.tookExchange).toBe(true);
    expect(refused.status).toBe(400);
  });

  it('answers GET queries, a GET mutation and other methods as Yoga does', async () => {
    const query = encodeURIComponent('{ __typename }');
    const get = await compare({ method: 'GET', path: `/graphql/v30?query=${query}` });
    expect(get.tookExchange).toBe(false);
    expect(get.status).toBe(200);
    const mutation = encodeURIComponent('mutation { __typename }');
    expect((await compare({ method: 'GET', path: `/graphql/v30?query=${mutation}` })).status).toBe(405);
    expect((await compare({ method: 'PUT', headers: json, body: body(typename) })).status).toBe(405);
  });

  it('answers a content type it does not take, and an oversized body, as Yoga does', async () => {
    const text = await compare({ headers: { 'content-type': 'text/plain' }, body: body(typename) });
    expect(text.tookExchange).toBe(false);
    expect(text.status).toBeGreaterThanOrEqual(400);
    const large = await compare({
      headers: json,
      body: body({ query: `{ __typename } #${'x'.repeat(5000)}` }),
    });
    expect(large.status).toBe(413);
  });

  it('carries a deprecated version’s headers, and refuses a missing token, as Yoga does', async () => {
    // The gateway's own v2 is deprecated by default once OS2mo's versions are served.
    const deprecated = await compare({ path: '/graphql/v2', headers: json, body: body(typename) });
    expect(deprecated.tookExchange).toBe(true);
    expect(deprecated.headers.deprecation).toBeTruthy();
    const anonymous = await compare({ anonymous: true, headers: json, body: body(typename) });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Bearer/);
  });
});
