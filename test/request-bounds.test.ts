import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoopbackProxy } from './loopback-proxy.js';
import { facetChains } from './facet-chains.js';
import { startTestStack, type TestStack } from './stack.js';

/**
 * What one request may take of the gateway (issue 35, items 5–7): variables bounded in size, depth and list
 * length, and well-formed; a list link weighed by what it can return, so a chain of a facet's classes and
 * their facet's classes is refused before it runs; and an answer bounded while it is built. Every refusal is
 * checked against what reached the legacy service. A no-role user (nora) sends them: none needs a role.
 */

let stack: TestStack;
let legacy: LoopbackProxy;
let token: string;
beforeAll(async () => {
  // A small answer budget, so a query the cost model lets through can pass it.
  stack = await startTestStack({ legacyProxy: true, gatewayEnv: { GRAPHQL_MAX_ANSWER_OBJECTS: '1000' } });
  legacy = stack.legacyProxy!;
  token = await stack.token('nora');
});
afterAll(() => stack?.close());

/** POSTs a raw JSON body (a test may need JSON that `JSON.stringify` cannot make, e.g. nested 60,000 deep). */
async function post(version: string, body: string, accept = 'application/graphql-response+json') {
  const response = await fetch(`${stack.gateway.url}/graphql/${version}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept },
    body,
  });
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) as any };
}

const unitsByUuids = 'query ($u: [UUID!]) { org_units(filter: { uuids: $u }) { objects { uuid } } }';

/**
 * Sends `body` and expects the one error `code` with `status`, and no legacy call. A document refused is a
 * 200 for `application/json` (GraphQL over HTTP), so `jsonStatus` says that status where it differs.
 */
async function expectRefused(
  version: string,
  body: string,
  code: string,
  status: number,
  jsonStatus = status,
) {
  const before = legacy.count();
  for (const [accept, expected] of [
    ['application/graphql-response+json', status],
    ['application/json', jsonStatus],
  ] as const) {
    const answer = await post(version, body, accept);
    expect(answer.status, `${accept} ${answer.text.slice(0, 300)}`).toBe(expected);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors).toHaveLength(1);
    expect(answer.body.errors[0].extensions).toEqual({ code });
    expect(answer.body.errors[0].message).not.toMatch(/Unexpected error/);
  }
  expect(legacy.count()).toBe(before);
}

describe("a request's variables (issue 35, items 6 and 7)", () => {
  it('refuses 1 MB of variables (26,000 UUIDs) as too long a list, and as too large when split in lists', async () => {
    const uuids = Array.from({ length: 26_000 }, () => crypto.randomUUID());
    await expectRefused(
      'v30',
      JSON.stringify({ query: unitsByUuids, variables: { u: uuids } }),
      'VARIABLE_LIST_TOO_LONG',
      400,
    );
    // The same UUIDs in lists each within the list limit: too large.
    const query =
      'query ($a: [UUID!], $b: [UUID!]) { org_units(filter: { uuids: $a }) { objects { uuid } } }';
    const lists = {
      a: uuids.slice(0, 1_000),
      b: Array.from({ length: 25 }, (_, i) => uuids.slice(i * 1_000, i * 1_000 + 1_000)),
    };
    await expectRefused('v30', JSON.stringify({ query, variables: lists }), 'VARIABLES_TOO_LARGE', 413);
  });

  it('lets a list within the limits through, answered as before', async () => {
    const answer = await post(
      'v30',
      JSON.stringify({ query: unitsByUuids, variables: { u: [crypto.randomUUID()] } }),
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: { org_units: { objects: [] } } });
  });

  it.each([2_000, 20_000, 60_000])('refuses a filter nested %i deep with 400, never 500', async (depth) => {
    const filter = `${'{"parent":'.repeat(depth)}{"uuids":[]}${'}'.repeat(depth)}`;
    const body = `{"query":"query ($f: OrganisationUnitFilter) { org_units(filter: $f) { objects { uuid } } }","variables":{"f":${filter}}}`;
    await expectRefused('v30', body, 'VARIABLES_TOO_DEEP', 400);
  });

  it('lets a filter nested a few levels through', async () => {
    const filter = { parent: { parent: { uuids: [crypto.randomUUID()] } } };
    const answer = await post(
      'v30',
      JSON.stringify({
        query: 'query ($f: OrganisationUnitFilter) { org_units(filter: $f) { objects { uuid } } }',
        variables: { f: filter },
      }),
    );
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ org_units: { objects: [] } });
  });

  it('refuses a lone surrogate in `facet_user_keys` (and in a key) with 400, never 500', async () => {
    const query = 'query ($k: [String!]) { classes(filter: { facet_user_keys: $k }) { objects { uuid } } }';
    // JSON.stringify writes a lone surrogate as the escape `\ud800`, as a client's JSON would carry it.
    await expectRefused(
      'v30',
      JSON.stringify({ query, variables: { k: ['\ud800'] } }),
      'VARIABLES_NOT_UNICODE',
      400,
    );
    await expectRefused(
      'v30',
      JSON.stringify({ query, variables: { k: ['a\udfffb'] } }),
      'VARIABLES_NOT_UNICODE',
      400,
    );
    await expectRefused(
      'v30',
      JSON.stringify({ query: unitsByUuids, variables: { u: [], ['\ud800']: 1 } }),
      'VARIABLES_NOT_UNICODE',
      400,
    );
  });

  it('refuses the same on GET', async () => {
    const before = legacy.count();
    const variables = encodeURIComponent(JSON.stringify({ u: Array.from({ length: 1_001 }, () => 'x') }));
    const response = await fetch(
      `${stack.gateway.url}/graphql/v30?query=${encodeURIComponent(unitsByUuids)}&variables=${variables}`,
      { headers: { authorization: `Bearer ${token}`, accept: 'application/graphql-response+json' } },
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).errors[0].extensions).toEqual({ code: 'VARIABLE_LIST_TOO_LONG' });
    expect(legacy.count()).toBe(before);
  });
});

describe('a list link weighed by what it can return (issue 35, item 5)', () => {
  it.each(['v30', 'v2'] as const)(
    "refuses 30 aliases of a facet's classes, their facet's classes and theirs on %s before any legacy call",
    async (version) => {
      await expectRefused(
        version,
        JSON.stringify({ query: facetChains(version, 30, 3) }),
        'QUERY_TOO_COMPLEX',
        400,
        200,
      );
      await expectRefused(
        version,
        JSON.stringify({ query: facetChains(version, 1, 3) }),
        'QUERY_TOO_COMPLEX',
        400,
        200,
      );
    },
  );

  it.each(['v30', 'v2'] as const)(
    "answers one turn, a facet's classes and their facet's, on %s",
    async (version) => {
      const answer = await post(version, JSON.stringify({ query: facetChains(version, 1, 1) }));
      expect(answer.status).toBe(200);
      expect(answer.body.errors).toBeUndefined();
      const [facet] = answer.body.data.a0.objects;
      const classes = version === 'v30' ? facet.current.classes : facet.classes;
      expect(classes.length).toBeGreaterThan(1);
      expect(classes[0].facet.classes).toHaveLength(classes.length);
    },
  );
});

describe('an answer bounded while it is built (issue 35, item 5)', () => {
  it.each(['v30', 'v2'] as const)(
    'answers ANSWER_TOO_LARGE and no data when the objects given pass the budget, on %s',
    async (version) => {
      // 30 aliases of one turn cost within the limit, and give about 30 × 195 objects: past 1,000.
      for (const [accept, status] of [
        ['application/graphql-response+json', 400],
        ['application/json', 200],
      ] as const) {
        const answer = await post(version, JSON.stringify({ query: facetChains(version, 30, 1) }), accept);
        expect(answer.status).toBe(status);
        expect(answer.body.data).toBeUndefined();
        expect(answer.body).toMatchObject({
          errors: [
            {
              message: expect.stringMatching(/answer would be too large/),
              extensions: { code: 'ANSWER_TOO_LARGE' },
            },
          ],
        });
      }
    },
  );

  it('answers the same document within the budget, and the next request gets a budget of its own', async () => {
    const within = await post('v30', JSON.stringify({ query: facetChains('v30', 3, 1) }));
    expect(within.status).toBe(200);
    expect(within.body.errors).toBeUndefined();
    expect(Object.keys(within.body.data)).toHaveLength(3);
    const again = await post('v30', JSON.stringify({ query: facetChains('v30', 3, 1) }));
    expect(again.body).toEqual(within.body);
  });
});
