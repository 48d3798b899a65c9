import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from './stack.js';

/**
 * GraphQL over HTTP (the draft) for `Accept: application/graphql-response+json`, on both roads of a version:
 * the JSON fast path (a well-formed JSON POST) and Yoga's own (a GET, or a body the fast path leaves to
 * Yoga). A request whose answer has no `data` is a 4xx; every error has an `extensions.code`; no parser
 * internals reach the client.
 */

const accept = 'application/graphql-response+json';
let stack: TestStack;
let token: string;

beforeAll(async () => {
  stack = await startTestStack({ rbacEnabled: false });
  token = await stack.token('alice');
}, 60_000);
afterAll(() => stack?.close());

interface Params {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

/** The fast path: a JSON POST of one well-formed request. */
function post(version: string, params: Params) {
  return fetch(`${stack.gateway.url}/graphql/${version}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept },
    body: JSON.stringify(params),
  });
}

/** Yoga's road: the same parameters in a GET. */
function get(version: string, params: Params) {
  const search = new URLSearchParams({ query: params.query });
  if (params.variables) search.set('variables', JSON.stringify(params.variables));
  if (params.operationName) search.set('operationName', params.operationName);
  return fetch(`${stack.gateway.url}/graphql/${version}?${search}`, {
    headers: { authorization: `Bearer ${token}`, accept },
  });
}

const requestErrors: [string, Params][] = [
  [
    'variables that fail coercion',
    { query: 'query ($b: Boolean!) { __typename @include(if: $b) }', variables: { b: 'one' } },
  ],
  [
    'a variable its scalar refuses',
    {
      query: 'query ($u: [UUID!]) { org_units(filter: { uuids: $u }) { objects { uuid } } }',
      variables: { u: ['not-a-uuid'] },
    },
  ],
  ['a required variable left out', { query: 'query ($b: Boolean!) { __typename @include(if: $b) }' }],
  ['an operation name the document lacks', { query: 'query A { __typename }', operationName: 'B' }],
  ['a syntax error', { query: '{ __typename' }],
  ['a field the schema lacks', { query: '{ nothing_here }' }],
];

describe.each(['v2', 'v30'])('GraphQL over HTTP on /graphql/%s', (version) => {
  describe.each([
    ['the JSON fast path', post],
    ["Yoga's road", get],
  ])('%s', (_road, send) => {
    it.each(requestErrors)(
      'answers %s with a 4xx, no data and a code on every error',
      async (_case, params) => {
        // The third time, too: a document seen before runs on its compiled code.
        await (await send(version, params)).arrayBuffer();
        await (await send(version, params)).arrayBuffer();
        const response = await send(version, params);
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        expect(response.headers.get('content-type')).toContain(accept);
        const body = (await response.json()) as {
          data?: unknown;
          errors: { extensions?: { code?: unknown } }[];
        };
        expect(body).not.toHaveProperty('data');
        expect(body.errors.length).toBeGreaterThan(0);
        for (const error of body.errors) expect(error.extensions?.code).toEqual(expect.any(String));
      },
    );

    it('still answers a request with data 200', async () => {
      const response = await send(version, {
        query: 'query ($b: Boolean!) { __typename @include(if: $b) }',
        variables: { b: true },
      });
      expect(response.status).toBe(200);
    });
  });

  it.each([
    ['a body that is not JSON', '{"query": '],
    ['a JSON array of nothing', '[]'],
    ['a JSON string', '"{ __typename }"'],
  ])("answers %s on Yoga's road with a 4xx, a code and no parser internals", async (_case, body) => {
    const response = await fetch(`${stack.gateway.url}/graphql/${version}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept },
      body,
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    const text = await response.text();
    expect(text).not.toContain('originalError');
    expect(text).not.toMatch(/Unexpected end of JSON|JSON\.parse|SyntaxError/);
    const answer = JSON.parse(text) as { errors: { extensions?: { code?: unknown } }[] };
    for (const error of answer.errors) expect(error.extensions?.code).toEqual(expect.any(String));
  });
});
