import { request } from 'node:http';
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceQueries, referenceUnitsMarker } from '../gateway/src/browser/reference-queries.js';
import { referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import type { LoopbackProxy } from './loopback-proxy.js';
import { startTestStack, type TestStack } from './stack.js';

/**
 * Documents that would exhaust the gateway or the legacy service behind it are refused while they are
 * read, parsed or validated: every refusal here is checked against what reached the legacy service.
 * Default limits: depth 20, aliases 30, tokens 2000, cost 20000 (weighing `limit`), directives 20, body 1 MiB,
 * 1000 legacy calls per request.
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

async function post(
  target: TestStack,
  version: string,
  body: unknown,
  headers: Record<string, string> = {},
  bearer = token,
) {
  const response = await fetch(`${target.gateway.url}/graphql/${version}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

/**
 * Sends `query` and expects it refused with `code`, and nothing sent to the legacy service. As for any
 * invalid document (GraphQL over HTTP): 400 for `application/graphql-response+json`, 200 with `errors` and
 * no `data` for `application/json`.
 */
async function expectRefused(query: string, code: string, version = 'v2') {
  const before = legacy.count();
  const messages = [];
  for (const [accept, status] of [
    ['application/graphql-response+json', 400],
    ['application/json', 200],
  ] as const) {
    const answer = await post(stack, version, { query }, { accept });
    expect(answer.status).toBe(status);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors).toHaveLength(1);
    expect(answer.body.errors[0].extensions).toEqual({ code });
    // Says what to change, not where the limit is.
    expect(answer.body.errors[0].message).not.toMatch(/\d/);
    messages.push(answer.body.errors[0].message as string);
  }
  expect(legacy.count()).toBe(before);
  return messages[0]!;
}

async function expectAccepted(query: string, version = 'v2') {
  const before = legacy.count();
  const answer = await post(stack, version, { query });
  expect(answer.status).toBe(200);
  expect(answer.body.errors).toBeUndefined();
  expect(legacy.count()).toBeGreaterThan(before);
  return answer.body;
}

/** `org_units { objects { parent { … { uuid } } } }` with `depth` levels in all. */
const nested = (depth: number) =>
  `{ org_units(limit: 1) { objects { ${'parent { '.repeat(depth - 3)}uuid${' }'.repeat(depth - 3)} } } }`;

/** `count` aliases of one root field. */
const aliased = (count: number) =>
  `{ ${Array.from({ length: count }, (_, index) => `a${index}: facets(limit: 1) { objects { uuid } }`).join(' ')} }`;

const unitFields = 'uuid name user_key validity { from to } org_unit_type { uuid name user_key }';
const unitFragment = `fragment Unit on OrgUnit { ${unitFields} managers { uuid employee { uuid name engagements { uuid job_function { user_key } org_unit { uuid name } } } } }`;

describe('queries people write', () => {
  it('accepts the reference query on both versions', async () => {
    // As GraphiQL shows it, with the units the page finds in place of the marker line.
    const withUnits = (query: string) =>
      query.replace(referenceUnitsMarker, referenceUnitUuids.map((uuid) => `"${uuid}"`).join(' '));
    await expectAccepted(withUnits(referenceQueries.v1!), 'v1');
    await expectAccepted(withUnits(referenceQueries.v2!), 'v2');
  });

  it('accepts a wide query across units, managers, engagements, owners and IT accounts', async () => {
    await expectAccepted(`{ org_units(limit: 5) { page_info { next_cursor } objects {
      ${unitFields} parent { ${unitFields} } children { uuid name }
      managers { uuid validity { from to } manager_type { user_key } responsibility { user_key }
        employee { uuid name givenname surname engagements { uuid job_function { user_key } org_unit { uuid } } } }
      owners { uuid owner { uuid name } } engagements { uuid employee { uuid name } } itusers { uuid itsystem { name } } } } }`);
  });

  it('accepts GraphiQL’s introspection query while introspection is on', async () => {
    const answer = await post(stack, 'v2', { query: getIntrospectionQuery({ descriptions: true }) });
    expect(answer.status).toBe(200);
    expect(answer.body.data.__schema.queryType.name).toBe('Query');
  });

  it('accepts exactly the configured depth and alias counts', async () => {
    await expectAccepted(nested(20));
    await expectRefused(nested(21), 'QUERY_TOO_DEEP');
    await expectAccepted(aliased(30));
    await expectRefused(aliased(31), 'TOO_MANY_ALIASES');
  });
});

describe('abusive documents, refused before any legacy call', () => {
  it('refuses a query 50 levels deep', async () => {
    const message = await expectRefused(nested(50), 'QUERY_TOO_DEEP');
    expect(message).toMatch(/nested too deeply/);
  });

  it('refuses the same depth hidden in fragments', async () => {
    const fragments = Array.from(
      { length: 50 },
      (_, index) =>
        `fragment F${index} on OrgUnit { parent { ${index < 49 ? `...F${index + 1}` : 'uuid'} } }`,
    ).join(' ');
    await expectRefused(`{ org_units(limit: 1) { objects { ...F0 } } } ${fragments}`, 'QUERY_TOO_DEEP');
  });

  it('refuses a query with 1,000 aliases (three tokens each: over the token limit before aliases are counted)', async () => {
    const message = await expectRefused(aliased(1_000), 'QUERY_TOO_LONG');
    expect(message).toMatch(/too long/);
  });

  it('refuses 1,000 aliased __typename fields too', async () => {
    await expectRefused(
      `{ ${Array.from({ length: 1_000 }, (_, index) => `t${index}: __typename`).join(' ')} }`,
      'QUERY_TOO_LONG',
    );
  });

  it('refuses a document over the token limit built from cheap repetition', async () => {
    await expectRefused(`{ facets(limit: 1) { objects { ${'uuid '.repeat(2_500)} } } }`, 'QUERY_TOO_LONG');
  });

  it('refuses a query whose cost is too high although depth, aliases and length are within limits', async () => {
    const subtree = 'objects { ...Unit children { ...Unit children { ...Unit children { ...Unit } } } }';
    await expectRefused(
      `{ a: org_units { ${subtree} } b: org_units { ${subtree} } } ${unitFragment}`,
      'QUERY_TOO_COMPLEX',
    );
  });

  it("guards OS2mo's v30 with the same limits: depth, length and cost", async () => {
    const deep = `{ org_units(limit: 1) { objects { current { ${'parent { '.repeat(47)}uuid${' }'.repeat(47)} } } } }`;
    await expectRefused(deep, 'QUERY_TOO_DEEP', 'v30');
    await expectRefused(
      `{ facets(limit: 1) { objects { ${'uuid '.repeat(2_500)} } } }`,
      'QUERY_TOO_LONG',
      'v30',
    );
    const unit =
      'uuid name managers { uuid person { uuid name engagements { uuid job_function { user_key } } } }';
    const subtree = `objects { current { ${unit} children { ${unit} children { ${unit} children { ${unit} } } } } }`;
    await expectRefused(
      `{ a: org_units { ${subtree} } b: org_units { ${subtree} } }`,
      'QUERY_TOO_COMPLEX',
      'v30',
    );
  });

  it('refuses too many directives', async () => {
    await expectRefused(
      `{ facets(limit: 1) { objects { uuid ${'@include(if: true) '.repeat(21)} } } }`,
      'TOO_MANY_DIRECTIVES',
    );
  });

  it('refuses the same limits on GET', async () => {
    const before = legacy.count();
    const response = await fetch(`${stack.gateway.url}/graphql/v2?query=${encodeURIComponent(nested(50))}`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/graphql-response+json' },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).errors[0].extensions.code).toBe('QUERY_TOO_DEEP');
    expect(legacy.count()).toBe(before);
  });

  it('refuses batches (a JSON array of operations)', async () => {
    const before = legacy.count();
    const query = '{ facets(limit: 1) { objects { uuid } } }';
    const answer = await post(stack, 'v2', [{ query }, { query }]);
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].message).toBeTruthy();
    expect(legacy.count()).toBe(before);
  });
});

describe('what a query costs the legacy service (issue 15, items 2 and 5)', () => {
  /** The attack: 30 aliases of a 1000-object page of engagements, each with nested reads. */
  const flood = `{ ${Array.from(
    { length: 30 },
    (_, index) =>
      `a${index}: engagements(limit: 1000, filter: {at: "2024-01-01"}) { objects { uuid employee { uuid name engagements { uuid org_unit { uuid name managers { uuid } } } } } }`,
  ).join(' ')} }`;

  it('refuses 30 aliases of engagements(limit: 1000) with nested reads before any legacy call', async () => {
    const message = await expectRefused(flood, 'QUERY_TOO_COMPLEX');
    expect(message).toMatch(/asks for too much/);
  });

  it('weighs limit given by a variable as much as a literal one', async () => {
    const before = legacy.count();
    const answer = await post(stack, 'v2', {
      query: `query ($n: Int) { ${Array.from(
        { length: 30 },
        (_, index) =>
          `a${index}: engagements(limit: $n) { objects { uuid employee { uuid name engagements { uuid } } } }`,
      ).join(' ')} }`,
      variables: { n: 1000 },
    });
    expect(answer.body.errors[0].extensions).toEqual({ code: 'QUERY_TOO_COMPLEX' });
    expect(legacy.count()).toBe(before);
  });

  /** 30 aliases of `engagements(limit: $n)`; `prefix` makes a document of its own for each test. */
  const pagedByVariable = (prefix: string) =>
    `query ($n: Int) { ${Array.from(
      { length: 30 },
      (_, index) =>
        `${prefix}${index}: engagements(limit: $n) { objects { uuid employee { uuid name engagements { uuid } } } }`,
    ).join(' ')} }`;

  /** Sends `query` with `n` and expects it refused as too complex (400), with no legacy call. */
  async function expectTooComplex(query: string, n: number) {
    const before = legacy.count();
    const answer = await post(
      stack,
      'v2',
      { query, variables: { n } },
      { accept: 'application/graphql-response+json' },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors.map((error: { extensions: unknown }) => error.extensions)).toEqual([
      { code: 'QUERY_TOO_COMPLEX' },
    ]);
    expect(legacy.count()).toBe(before);
  }

  async function expectCheapAnswered(query: string) {
    const before = legacy.count();
    const answer = await post(stack, 'v2', { query, variables: { n: 1 } });
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.c0.objects.length).toBeGreaterThan(0);
    expect(legacy.count()).toBeGreaterThan(before);
  }

  // Issue 20, item 2: Yoga caches validation per document, and the cost depends on each request's variables.
  it('weighs each request’s own variables: the same document cheap, then dear', async () => {
    const query = pagedByVariable('c');
    await expectCheapAnswered(query);
    await expectTooComplex(query, 1000);
    await expectCheapAnswered(query);
  });

  it('weighs each request’s own variables: the same document dear, then cheap, then dear', async () => {
    const query = pagedByVariable('c').replace('query (', 'query Reverse(');
    await expectTooComplex(query, 1000);
    await expectCheapAnswered(query);
    await expectTooComplex(query, 1000);
  });

  it('still accepts a v2 page of 100 units with their managers, their people and those people’s engagements', async () => {
    const before = legacy.count();
    const body = await expectAccepted(`{ org_units(limit: 100) { objects { uuid name managers {
      manager_type { user_key } employee { name engagements { job_function { user_key } } } } } } }`);
    expect(body.data.org_units.objects.length).toBeGreaterThan(50);
    // Well within the default budget of 1000 legacy calls.
    expect(legacy.count() - before).toBeLessThan(500);
  });

  it('keeps every value of a filter inside its legacy path segment', async () => {
    const before = legacy.requests.length;
    const answer = await post(stack, 'v2', {
      query:
        '{ classes(filter: {facets: ["../../../../health", "org_unit_type?limit=1&x=", ".."]}) { objects { uuid } } }',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.classes.objects).toEqual([]);
    const paths = legacy.requests.slice(before).map((request) => request.path);
    // ".." cannot be kept inside a segment by any encoding, so it is never sent.
    expect(paths.some((path) => /\/f\/(\.|%2e){2}\/$/i.test(path))).toBe(false);
    expect(paths.some((path) => path === '/health' || path.startsWith('/health?'))).toBe(false);
    expect(paths.filter((path) => path.includes('/f/'))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/\/f\/\.\.%2F\.\.%2F\.\.%2F\.\.%2Fhealth\/$/),
        expect.stringMatching(/\/f\/org_unit_type%3Flimit%3D1%26x%3D\/$/),
      ]),
    );
  });
});

describe('request bodies over the limit (1 MiB)', () => {
  const fiveMegabytes = JSON.stringify({
    query: '{ facets(limit: 1) { objects { uuid } } }',
    variables: { padding: 'x'.repeat(5 * 1024 * 1024) },
  });

  it('refuses a 5 MB body with a Content-Length: 413, before any legacy call', async () => {
    const before = legacy.count();
    const answer = await post(stack, 'v2', fiveMegabytes);
    expect(answer.status).toBe(413);
    expect(answer.body.errors[0].extensions).toEqual({ code: 'PAYLOAD_TOO_LARGE', limit: 1_048_576 });
    expect(legacy.count()).toBe(before);
  });

  it('refuses a 5 MB body sent in chunks without a length: 413, before any legacy call', async () => {
    const before = legacy.count();
    const answer = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const outgoing = request(
        `${stack.gateway.url}/graphql/v2`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        },
        (incoming) => {
          let text = '';
          incoming.setEncoding('utf8');
          incoming.on('data', (chunk: string) => (text += chunk));
          incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: JSON.parse(text) }));
        },
      );
      outgoing.on('error', reject);
      // The gateway answers and closes once the limit is passed; later chunks may meet a closed socket.
      outgoing.on('error', () => undefined);
      const chunk = fiveMegabytes.slice(0, 64 * 1024);
      let sent = 0;
      const pump = () => {
        while (sent < fiveMegabytes.length) {
          sent += chunk.length;
          if (!outgoing.write(chunk)) return void outgoing.once('drain', pump);
        }
        outgoing.end();
      };
      pump();
    });
    expect(answer.status).toBe(413);
    expect(answer.body.errors[0].extensions).toEqual({ code: 'PAYLOAD_TOO_LARGE', limit: 1_048_576 });
    expect(legacy.count()).toBe(before);
  });
});

describe('responses', () => {
  it('carry the secure headers, on answers and on refusals alike', async () => {
    const answers = [
      await fetch(`${stack.gateway.url}/graphql/v2`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      }),
      await fetch(`${stack.gateway.url}/graphql/v2`, { method: 'POST' }),
      await fetch(`${stack.gateway.url}/service/o/`),
    ];
    expect(answers.map((response) => response.status)).toEqual([200, 401, 401]);
    for (const response of answers) {
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
      expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(response.headers.get('x-powered-by')).toBeNull();
    }
  });

  it('allow cross-origin calls from the configured origins only', async () => {
    const preflight = (origin: string) =>
      fetch(`${stack.gateway.url}/graphql/v2`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
    const before = legacy.count();
    const allowed = await preflight(stack.gatewayUrl);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(stack.gatewayUrl);
    expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    const foreign = await preflight('https://attacker.example');
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();

    const simple = await post(
      stack,
      'v2',
      { query: '{ __typename }' },
      { origin: 'https://attacker.example' },
    );
    expect(simple.headers.get('access-control-allow-origin')).toBeNull();
    expect(legacy.count()).toBe(before);
  });
});

describe('field suggestions and introspection', () => {
  const typo = '{ org_unitz { objects { uuid } } }';
  const variableTypo = {
    query: 'query ($filter: OrgUnitFilter) { org_units(filter: $filter) { objects { uuid } } }',
    variables: { filter: { uuidz: [] } },
  };

  it('suggest field names while introspection is on (development)', async () => {
    const answer = await post(stack, 'v2', { query: typo });
    expect(answer.body.errors[0].message).toMatch(/Did you mean "org_units"\?/);
  });

  describe('with introspection off (production)', () => {
    let production: TestStack;
    let productionToken: string;
    beforeAll(async () => {
      production = await startTestStack({
        legacyProxy: true,
        gatewayEnv: { GRAPHQL_INTROSPECTION: 'false' },
      });
      productionToken = await production.token('alice');
    });
    afterAll(() => production?.close());

    it('refuses introspection and hides suggestions in validation and variable errors', async () => {
      // Counted from here: another case may have read through this stack first.
      const callsBefore = production.legacyProxy!.count();
      for (const query of [getIntrospectionQuery(), '{ __type(name: "OrgUnit") { fields { name } } }']) {
        const answer = await post(production, 'v2', { query }, {}, productionToken);
        expect(answer.body.data).toBeUndefined();
        expect(answer.body.errors[0].message).toMatch(/introspection/i);
      }
      const wrongField = await post(production, 'v2', { query: typo }, {}, productionToken);
      expect(wrongField.body.errors[0].message).toBe('Cannot query field "org_unitz" on type "Query".');
      const wrongVariable = await post(production, 'v2', variableTypo, {}, productionToken);
      expect(wrongVariable.body.errors[0].message).toMatch(/uuidz/);
      expect(wrongVariable.body.errors[0].message).not.toMatch(/Did you mean|uuids/);
      expect(production.legacyProxy!.count() - callsBefore).toBe(0);
    });

    it('still answers ordinary queries', async () => {
      const answer = await post(
        production,
        'v2',
        { query: '{ facets(limit: 1) { objects { uuid } } }' },
        {},
        productionToken,
      );
      expect(answer.status).toBe(200);
      expect(answer.body.errors).toBeUndefined();
    });
  });
});
