import { makeExecutableSchema } from '@graphql-tools/schema';
import { createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { useCompiledExecution } from './compiled-execution.js';

/** An input shaped like OS2mo's `EmployeeTerminateInput`: a non-null field with a default, and a nested list. */
const schema = makeExecutableSchema({
  typeDefs: /* GraphQL */ `
    input Part {
      name: String!
      count: Int! = 1
    }
    input Terminate {
      to: String!
      vacate: Boolean! = false
      note: String = null
      parts: [Part!]
    }
    type Query {
      ok: Boolean
    }
    type Mutation {
      terminate(input: Terminate!): String!
    }
  `,
  resolvers: {
    Mutation: { terminate: (_: unknown, { input }: { input: unknown }) => JSON.stringify(input) },
  },
});

async function run(variables: Record<string, unknown>) {
  const yoga = createYoga({ schema, plugins: [useCompiledExecution(schema)], logging: false });
  const response = await yoga.fetch('http://test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: 'mutation End($input: Terminate!) { terminate(input: $input) }',
      variables,
    }),
  });
  return (await response.json()) as { data?: { terminate: string }; errors?: { message: string }[] };
}

describe('useCompiledExecution', () => {
  it('fills the default of a non-null input field a variable leaves out, as GraphQL does', async () => {
    const answer = await run({
      input: { to: '2026-01-01', parts: [{ name: 'a' }, { name: 'b', count: 3 }] },
    });
    expect(answer.errors).toBeUndefined();
    expect(JSON.parse(answer.data!.terminate)).toEqual({
      to: '2026-01-01',
      vacate: false,
      note: null,
      parts: [
        { name: 'a', count: 1 },
        { name: 'b', count: 3 },
      ],
    });
  });

  it('still refuses a variable without a required field that has no default', async () => {
    const answer = await run({ input: { vacate: true } });
    expect(answer.data).toBeUndefined();
    expect(answer.errors?.[0]?.message).toMatch(/to/);
  });
});
