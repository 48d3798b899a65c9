import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import type { LoopbackProxy } from './loopback-proxy.js';
import { startTestStack, type TestStack } from './stack.js';

/**
 * A document may hold several operations; `operationName` picks the one that runs, on every request, over
 * POST and GET alike, and GET never runs a mutation (issue 20, item 1: compiled code was cached per document,
 * so the first operation run was run again for every later name). Checked against what the legacy service
 * received, on every served version.
 */

let stack: TestStack;
let legacy: LoopbackProxy;
let token: string;
beforeAll(async () => {
  stack = await startTestStack({ legacyProxy: true });
  legacy = stack.legacyProxy!;
  token = await stack.token('alice');
});
afterAll(() => stack?.close());

const writes = () => legacy.requests.filter((request) => request.method !== 'GET').length;

async function send(version: string, method: 'GET' | 'POST', query: string, operationName: string) {
  const url = new URL(`${stack.gatewayUrl}/graphql/${version}`);
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
  let body: string | undefined;
  if (method === 'GET') {
    url.searchParams.set('query', query);
    url.searchParams.set('operationName', operationName);
  } else {
    headers['content-type'] = 'application/json';
    body = JSON.stringify({ query, operationName });
  }
  const response = await fetch(url, { method, headers, body });
  return { status: response.status, body: (await response.json()) as any };
}

const unit = referenceUnitUuids[0];

describe.each(['v1', 'v2'])('a document with several operations on %s', (version) => {
  it('runs the named query after the mutation of the same document, without writing again', async () => {
    const document = `
      mutation M { employee_create(input: { givenname: "Mona", surname: "Multi${version}" }) { uuid } }
      query Q { org_units(filter: { uuids: ["${unit}"] }) { __typename } }`;
    const created = await send(version, 'POST', document, 'M');
    expect(created.status).toBe(200);
    expect(created.body.data.employee_create.uuid).toEqual(expect.any(String));
    const written = writes();

    for (const method of ['POST', 'GET'] as const) {
      const read = await send(version, method, document, 'Q');
      expect(read.status).toBe(200);
      expect(Object.keys(read.body.data)).toEqual(['org_units']);
    }
    const overGet = await send(version, 'GET', document, 'M');
    expect(overGet.status).toBe(405);
    expect(overGet.body.data).toBeUndefined();
    expect(writes()).toBe(written);
  });

  it('answers each of two queries in one document with its own selection', async () => {
    const document = `
      query A { org_units(filter: { uuids: ["${unit}"] }) { __typename } }
      query B { employees(filter: { uuids: [] }) { __typename } }`;
    for (const method of ['POST', 'GET'] as const) {
      expect(Object.keys((await send(version, method, document, 'A')).body.data)).toEqual(['org_units']);
      expect(Object.keys((await send(version, method, document, 'B')).body.data)).toEqual(['employees']);
    }
  });
});
