import { readFileSync } from 'node:fs';
import {
  buildClientSchema,
  buildSchema,
  getIntrospectionQuery,
  isInputObjectType,
  printSchema,
  type IntrospectionQuery,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { versionTypeDefs } from '../gateway/src/graphql/versions.js';
import { startTestStack, type TestStack } from './stack.js';

/** What integrators with real GraphQL clients tripped on (issue 15), as they see it. */

describe('/graphql/vN/schema.graphql', () => {
  let stack: TestStack;
  let token: string;
  beforeAll(async () => {
    stack = await startTestStack({ rbacEnabled: false, legacyProxy: true });
    token = await stack.token('nora');
  });
  afterAll(async () => {
    await stack?.close();
  });

  const postToSchema = (version: string, body: unknown, authorization = `Bearer ${token}`) =>
    fetch(`${stack.gatewayUrl}/graphql/${version}/schema.graphql`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });

  it.each(['PUT', 'DELETE', 'PATCH'])(
    'answers %s with 405, Allow: GET, HEAD, POST and a clear body',
    async (method) => {
      const response = await fetch(`${stack.gatewayUrl}/graphql/v2/schema.graphql`, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD, POST');
      expect(await response.json()).toEqual({
        errors: [
          {
            message: `The schema is read with GET or HEAD, or introspected with POST, not ${method}.`,
            extensions: { code: 'METHOD_NOT_ALLOWED' },
          },
        ],
      });
    },
  );

  // Issue 20: URL-based tools (graphql-inspector) POST an introspection query to the schema's address.
  it.each(['v1', 'v2'])(
    'answers an introspection POST on %s with the schema GET serves, and no legacy call',
    async (version) => {
      const before = stack.legacyProxy!.count();
      const response = await postToSchema(version, {
        query: getIntrospectionQuery(),
        operationName: 'IntrospectionQuery',
      });
      expect(response.status).toBe(200);
      const { data } = (await response.json()) as { data: IntrospectionQuery };
      const served = await (await fetch(`${stack.gatewayUrl}/graphql/${version}/schema.graphql`)).text();
      expect(printSchema(buildClientSchema(data))).toBe(served);
      expect(stack.legacyProxy!.count()).toBe(before);
    },
  );

  it('answers only introspection there, with the version endpoint’s token check', async () => {
    const before = stack.legacyProxy!.count();
    for (const query of [
      '{ org_units(limit: 1) { objects { uuid } } }',
      '{ __typename org_units(limit: 1) { objects { uuid } } }',
      'query { ...units } fragment units on Query { org_units(limit: 1) { objects { uuid } } }',
      'mutation { employee_create(input: { givenname: "Ida", surname: "Inspector" }) { uuid } }',
    ]) {
      const response = await postToSchema('v2', { query });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        errors: [
          {
            message:
              'Only an introspection query (`__schema`, `__type`) is answered here. Send other operations to /graphql/v2.',
            extensions: { code: 'INTROSPECTION_ONLY' },
          },
        ],
      });
    }
    expect(stack.legacyProxy!.count()).toBe(before);
    const anonymous = await postToSchema('v2', { query: '{ __schema { queryType { name } } }' }, '');
    expect(anonymous.status).toBe(401);
  });

  it('still serves GET and HEAD, and says 404 for a version that never existed', async () => {
    const get = await fetch(`${stack.gatewayUrl}/graphql/v2/schema.graphql`);
    expect(get.status).toBe(200);
    expect(await get.text()).toContain('type Query');
    expect((await fetch(`${stack.gatewayUrl}/graphql/v2/schema.graphql`, { method: 'HEAD' })).status).toBe(
      200,
    );
    const unknown = await fetch(`${stack.gatewayUrl}/graphql/v9/schema.graphql`, { method: 'POST' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ errors: [{ extensions: { code: 'VERSION_NOT_FOUND' } }] });
  });
});

describe('the migration guide on dates', () => {
  const guide = readFileSync(new URL('../docs/migration-v1-to-v2.md', import.meta.url), 'utf8');
  const sentences = guide.replace(/\s+/g, ' ').split(/(?<=\.) /);
  const v2 = buildSchema(versionTypeDefs().v2);
  const filters = Object.values(v2.getTypeMap()).filter(
    (type) => isInputObjectType(type) && type.name.endsWith('Filter'),
  );
  const undated = filters.filter((type) => isInputObjectType(type) && !type.getFields().at);
  const dated = filters.filter((type) => isInputObjectType(type) && type.getFields().at);

  it('finds filters of both kinds in the v2 schema', () => {
    expect(undated.map((type) => type.name)).toEqual(
      expect.arrayContaining(['ClassFilter', 'FacetFilter', 'ITSystemFilter']),
    );
    expect(dated.length).toBeGreaterThan(0);
  });

  it('never advises `at` for a filter that has none', () => {
    const advising = sentences.filter((text) => /take `at`|use `at`|add `at`/.test(text));
    // What the check below reads: without advice, or without undated filters, it would check nothing.
    expect(advising.length).toBeGreaterThan(0);
    expect(undated.length).toBeGreaterThan(0);
    const mentions = advising.flatMap((sentence) =>
      undated.filter((type) => sentence.includes(`\`${type.name}\``)).map((type) => ({ sentence, type })),
    );
    expect(mentions.length).toBeGreaterThan(0);
    const wrongAdvice = mentions
      .filter(({ sentence }) => !/do not add `at`|no `at`/.test(sentence))
      .map(({ sentence, type }) => `${type.name}: ${sentence}`);
    expect(wrongAdvice).toEqual([]);
    const advice = sentences.find((text) => text.includes('take `at`'));
    expect(advice).toBeDefined();
    expect(advice).not.toMatch(/v2 filters take `at`/);
  });

  it.each(['ClassFilter', 'FacetFilter', 'ITSystemFilter'])('says %s has no date in v2', (name) => {
    expect(sentences.some((text) => text.includes(`\`${name}\``) && /have no date/.test(text))).toBe(true);
  });
});
