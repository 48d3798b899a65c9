import { readFileSync } from 'node:fs';
import { buildSchema, isInputObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { versionTypeDefs } from '../gateway/src/graphql/versions.js';
import { startTestStack, type TestStack } from './stack.js';

/** What integrators with real GraphQL clients tripped on (issue 15), as they see it. */

describe('/graphql/vN/schema.graphql', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ rbacEnabled: false });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it.each(['POST', 'PUT', 'DELETE'])(
    'answers %s with 405, Allow: GET, HEAD and a clear body',
    async (method) => {
      const response = await fetch(`${stack.gatewayUrl}/graphql/v2/schema.graphql`, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      expect(await response.json()).toEqual({
        errors: [
          {
            message: `The schema is read with GET or HEAD, not ${method}.`,
            extensions: { code: 'METHOD_NOT_ALLOWED' },
          },
        ],
      });
    },
  );

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
