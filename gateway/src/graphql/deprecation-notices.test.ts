import { makeExecutableSchema } from '@graphql-tools/schema';
import { createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { useDeprecationNotices } from './deprecation-notices.js';

const schema = makeExecutableSchema({
  typeDefs: /* GraphQL */ `
    enum Kind {
      UNIT
      DEPARTMENT @deprecated(reason: "Use UNIT.")
    }
    input Filter {
      uuids: [String!]
      uuid: String @deprecated(reason: "Use uuids.")
    }
    type Unit {
      name: String
      title: String @deprecated(reason: "Use name.")
    }
    type Query {
      units(filter: Filter, kind: Kind, limit: Int @deprecated(reason: "Pages have a fixed size.")): [Unit!]!
    }
  `,
  resolvers: { Query: { units: () => [{ name: 'Finance', title: 'Finance' }] } },
});

async function run(query: string, plugin = useDeprecationNotices({ schema })) {
  const yoga = createYoga({ schema, plugins: plugin ? [plugin] : [], logging: false });
  const response = await yoga.fetch('http://test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  return (await response.json()) as { data?: unknown; extensions?: { deprecations?: unknown } };
}

describe('useDeprecationNotices', () => {
  it('lists each @deprecated field, argument, input field and enum value a query uses, once', async () => {
    const answer = await run(
      '{ a: units(kind: DEPARTMENT, limit: 1, filter: { uuid: "x" }) { name title } b: units { title } }',
    );
    expect(answer.data).toEqual({ a: [{ name: 'Finance', title: 'Finance' }], b: [{ title: 'Finance' }] });
    expect(answer.extensions?.deprecations).toEqual([
      { kind: 'enum_value', coordinate: 'Kind.DEPARTMENT', reason: 'Use UNIT.' },
      { kind: 'argument', coordinate: 'Query.units(limit:)', reason: 'Pages have a fixed size.' },
      { kind: 'input_field', coordinate: 'Filter.uuid', reason: 'Use uuids.' },
      { kind: 'field', coordinate: 'Unit.title', reason: 'Use name.' },
    ]);
  });

  it('says nothing about a query that uses nothing deprecated', async () => {
    expect(await run('{ units(filter: { uuids: ["x"] }, kind: UNIT) { name } }')).toEqual({
      data: { units: [{ name: 'Finance' }] },
    });
  });

  it('is left out for a schema with nothing deprecated and a version that is not', () => {
    const plain = makeExecutableSchema({ typeDefs: 'type Query { a: Int }' });
    expect(useDeprecationNotices({ schema: plain })).toBeUndefined();
  });
});
