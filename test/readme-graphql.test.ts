import { readFileSync } from 'node:fs';
import { parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVersions } from '../gateway/src/graphql/versions.js';
import { postGraphQL, startTestStack, type TestStack } from './stack.js';

/** The GraphQL page's examples (docs/graphql.md) marked `# v30` validate against the served v30 and run as printed. */
const page = readFileSync(new URL('../docs/graphql.md', import.meta.url), 'utf8');
const examples = [...page.matchAll(/```graphql\n(# (v\d+)\n[\s\S]*?)```/g)].map(([, query, version]) => ({
  version: version!,
  query: query!,
  name: /(?:query|mutation) (\w+)/.exec(query!)?.[1] ?? 'anonymous',
  mutation: /^mutation /m.test(query!),
}));
const schemas = new Map(buildVersions().map((version) => [version.name, version.schema]));

let stack: TestStack;
let token: string;
/** A mutation example runs as alice, who may write (nora only reads). */
let writerToken: string;
beforeAll(async () => {
  stack = await startTestStack();
  token = await stack.token('nora');
  writerToken = await stack.token('alice');
});
afterAll(() => stack.close());

describe("the GraphQL page's examples", () => {
  it('lead with v30', () => {
    const graphqlSection = page.slice(page.indexOf('# GraphQL'));
    expect(examples.length).toBeGreaterThanOrEqual(5);
    expect(examples.every((example) => example.version === 'v30')).toBe(true);
    expect(graphqlSection.indexOf('```graphql\n# v30')).toBeLessThan(
      graphqlSection.indexOf('`POST /graphql/v1` and `POST /graphql/v2`'),
    );
  });

  it.each(examples)('$name validates against the served $version', ({ version, query }) => {
    expect(validate(schemas.get(version)!, parse(query))).toEqual([]);
  });

  it('show a write', () => {
    expect(examples.filter((example) => example.mutation).length).toBeGreaterThan(0);
  });

  it.each(examples)('$name runs as printed on the development data', async ({ version, query, mutation }) => {
    const { status, body } = await postGraphQL(
      stack,
      version,
      { query },
      { authorization: `Bearer ${mutation ? writerToken : token}` },
    );
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    if (mutation) {
      // A mutation answers the written object's response: its UUID, and `current` read back.
      const written = Object.values(body.data as Record<string, { uuid: string; current: unknown }>)[0]!;
      expect(written.uuid).toMatch(/^[0-9a-f-]{36}$/);
      expect(written.current).not.toBeNull();
      return;
    }
    const firstCollection = Object.values(body.data as Record<string, { objects: unknown[] }>)[0]!;
    expect(firstCollection.objects.length).toBeGreaterThan(0);
  });
});
