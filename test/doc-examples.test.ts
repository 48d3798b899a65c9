import { readdirSync, readFileSync } from 'node:fs';
import { parse, specifiedRules, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deprecatedIn } from '../gateway/src/comparison/deprecation-free.js';
import { buildVersions } from '../gateway/src/graphql/versions.js';
import { postGraphQL, startTestStack, type TestStack } from './stack.js';

/**
 * The GraphQL examples of the README and the docs, as a reader copies them: every one validates on its version,
 * none on v30 uses what v30 deprecates (OS2mo marks those with `@deprecated`), and the migration guide's run as
 * printed on a stack with the stand-in's data (the guide's UUIDs are the stand-in's).
 */

const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
const schemas = new Map(buildVersions().map((version) => [version.name, version.schema]));

interface Example {
  where: string;
  version: string;
  query: string;
}

/** The guide's blocks, each after its "Before (v2):" or "After (v30):". */
const guide = 'docs/migration-v2-to-v30.md';
const guideExamples: Example[] = [
  ...read(guide).matchAll(/(?:Before|After) \((v\d+)\):\n\n```graphql\n([\s\S]*?)```/g),
].map(([, version, query], index) => ({
  where: `${guide} #${index + 1} (${version})`,
  version: version!,
  query: query!,
}));

/** The queries the README's and the docs' curl commands send to a version: `… /graphql/vN … -d '{"query": …}'`. */
function curlExamples(file: string): Example[] {
  const examples: Example[] = [];
  for (const [, version, body] of read(file).matchAll(/\/graphql\/(v\d+) [^\n]*\\\n\s*-d '(\{[^\n]*\})'/g)) {
    examples.push({
      where: `${file}: ${body!.slice(0, 60)}…`,
      version: version!,
      query: JSON.parse(body!).query,
    });
  }
  return examples;
}

/** The GraphQL page's blocks, which say their version on their first line (`# v30`). */
const pageExamples: Example[] = [
  ...read('docs/graphql.md').matchAll(/```graphql\n(# (v\d+)\n[\s\S]*?)```/g),
].map(([, query, version], index) => ({
  where: `docs/graphql.md #${index + 1}`,
  version: version!,
  query: query!,
}));

const everyExample = [
  ...guideExamples,
  ...pageExamples,
  ...['README.md', ...readdirSync(new URL('../docs/', import.meta.url)).map((name) => `docs/${name}`)]
    .filter((file) => file.endsWith('.md'))
    .flatMap(curlExamples),
];

describe('the GraphQL examples of the README and the docs', () => {
  it('are found: the guide pairs every before with an after, and the README runs v30', () => {
    expect(guideExamples.length).toBeGreaterThanOrEqual(10);
    expect(guideExamples.filter((example) => example.version === 'v30')).toHaveLength(
      guideExamples.length / 2,
    );
    expect(
      curlExamples('README.md').filter((example) => example.version === 'v30').length,
    ).toBeGreaterThanOrEqual(2);
  });

  it.each(everyExample.map((example) => [example.where, example] as const))(
    '%s validates on its version',
    (_, { version, query }) => {
      expect(validate(schemas.get(version)!, parse(query), specifiedRules)).toEqual([]);
    },
  );

  it.each(
    everyExample
      .filter((example) => example.version === 'v30')
      .map((example) => [example.where, example] as const),
  )('%s uses nothing v30 deprecates', (_, { query }) => {
    // What v30 deprecates (OS2mo's `@deprecated` marks, which the served v30 keeps); the 410's replacement
    // queries are held to the same (`gateway/src/comparison/os2mo-road.test.ts`).
    expect(deprecatedIn(schemas.get('v30')!, query)).toEqual([]);
  });
});

describe('the migration guide, run as printed', () => {
  let stack: TestStack;
  let reader: string;
  let writer: string;
  beforeAll(async () => {
    stack = await startTestStack();
    reader = await stack.token('nora');
    writer = await stack.token('alice');
  });
  afterAll(() => stack?.close());

  it.each(guideExamples.map((example) => [example.where, example] as const))(
    '%s answers without errors',
    async (_, { version, query }) => {
      const mutation = /^\s*mutation\b/.test(query);
      const { status, body } = await postGraphQL(
        stack,
        version,
        { query },
        {
          authorization: `Bearer ${mutation ? writer : reader}`,
        },
      );
      expect(body.errors).toBeUndefined();
      expect(status).toBe(200);
      expect(JSON.stringify(body.data)).not.toBe('{}');
    },
  );
});
