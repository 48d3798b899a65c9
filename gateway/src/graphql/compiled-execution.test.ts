import { makeExecutableSchema } from '@graphql-tools/schema';
import { parse, type ExecutionArgs, type ExecutionResult, type OperationDefinitionNode } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import { beforeEach, describe, expect, it } from 'vitest';
import { runsInterpreted, useCompiledExecution } from './compiled-execution.js';

/** A counter that only the mutation moves, so a test sees exactly which operation ran and how often. */
function counterServer() {
  const state = { writes: 0 };
  const schema = makeExecutableSchema({
    typeDefs: /* GraphQL */ `
      type Query {
        writes: Int!
        greeting: String!
      }
      type Mutation {
        increment: Int!
      }
    `,
    resolvers: {
      Query: { writes: () => state.writes, greeting: () => 'hello' },
      Mutation: { increment: () => (state.writes += 1) },
    },
  });
  const yoga = createYoga({ schema, plugins: [useCompiledExecution(schema)], logging: false });
  const post = async (query: string, operationName: string) => {
    const response = await yoga.fetch('http://gateway.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query, operationName }),
    });
    return { status: response.status, body: (await response.json()) as ExecutionResult };
  };
  const get = async (query: string, operationName: string) => {
    const url = new URL('http://gateway.test/graphql');
    url.searchParams.set('query', query);
    url.searchParams.set('operationName', operationName);
    const response = await yoga.fetch(url, { headers: { accept: 'application/json' } });
    return { status: response.status, body: (await response.json()) as ExecutionResult };
  };
  return { schema, state, post, get };
}

const mixed = 'mutation M { increment } query Q { writes }';

describe('compiled execution', () => {
  let server: ReturnType<typeof counterServer>;
  beforeEach(() => {
    server = counterServer();
  });

  it('runs the operation each request names, not the first one compiled for the document', async () => {
    expect((await server.post(mixed, 'M')).body).toEqual({ data: { increment: 1 } });
    expect((await server.post(mixed, 'Q')).body).toEqual({ data: { writes: 1 } });
    expect((await server.get(mixed, 'Q')).body).toEqual({ data: { writes: 1 } });
    expect(server.state.writes).toBe(1);
    // And back: the query compiled second does not replace the mutation compiled first.
    expect((await server.post(mixed, 'M')).body).toEqual({ data: { increment: 2 } });
  });

  it('never runs a mutation over GET, whichever operation of the document ran before', async () => {
    await server.post(mixed, 'M');
    const answer = await server.get(mixed, 'M');
    expect(answer.status).toBe(405);
    expect(answer.body.data).toBeUndefined();
    expect(server.state.writes).toBe(1);
  });

  it('gives two queries of one document their own selections', async () => {
    const document = 'query A { greeting } query B { writes }';
    expect((await server.get(document, 'A')).body).toEqual({ data: { greeting: 'hello' } });
    expect((await server.get(document, 'B')).body).toEqual({ data: { writes: 0 } });
    expect((await server.post(document, 'A')).body).toEqual({ data: { greeting: 'hello' } });
  });

  it('gives another document its own code', async () => {
    expect((await server.post('query Q { greeting }', 'Q')).body).toEqual({ data: { greeting: 'hello' } });
    expect((await server.post('query Q { writes }', 'Q')).body).toEqual({ data: { writes: 0 } });
  });

  it('refuses a mutation at execution when the request is a GET, even without Yoga’s parse-time check', async () => {
    // The plugin's own execute function, driven directly: nothing but it stands between a GET and the mutation.
    type OnExecute = (payload: { args: ExecutionArgs; setExecuteFn(fn: typeof run): void }) => void;
    let run: (args: ExecutionArgs) => ExecutionResult | Promise<ExecutionResult> = () => ({});
    const plugin: Plugin = useCompiledExecution(server.schema);
    const document = parse(mixed);
    const runAs = async (method: string) => {
      const args: ExecutionArgs = {
        schema: server.schema,
        document,
        operationName: 'M',
        contextValue: { request: new Request('http://gateway.test/', { method }) },
      };
      (plugin.onExecute as OnExecute)({ args, setExecuteFn: (fn) => (run = fn) });
      return run(args);
    };
    const overGet = await runAs('GET');
    expect(overGet.data).toBeUndefined();
    expect(overGet.errors?.[0]?.extensions).toMatchObject({
      code: 'METHOD_NOT_ALLOWED',
      http: { status: 405 },
    });
    expect(server.state.writes).toBe(0);
    expect((await runAs('POST')).data).toEqual({ increment: 1 });
  });
});

/** An input shaped like OS2mo's `EmployeeTerminateInput`: a non-null field with a default, and a nested list. */
const terminateSchema = makeExecutableSchema({
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

async function runTerminate(variables: Record<string, unknown>) {
  const yoga = createYoga({
    schema: terminateSchema,
    plugins: [useCompiledExecution(terminateSchema)],
    logging: false,
  });
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

describe('useCompiledExecution with input defaults', () => {
  it('fills the default of a non-null input field a variable leaves out, as GraphQL does', async () => {
    const answer = await runTerminate({
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
    const answer = await runTerminate({ input: { vacate: true } });
    expect(answer.data).toBeUndefined();
    expect(answer.errors?.[0]?.message).toMatch(/to/);
  });
});

/** A tree filter like OS2mo's `OrganisationUnitFilter`, whose `parent` is the same filter again. */
const treeSchema = makeExecutableSchema({
  typeDefs: /* GraphQL */ `
    input Filter {
      name: String
      parent: Filter
    }
    type Query {
      depth(filter: Filter): Int!
      hello: String!
    }
  `,
  resolvers: {
    Query: {
      depth: (_root: unknown, args: { filter?: { parent?: unknown } | null }) => {
        let depth = 0;
        for (let at = args.filter; at; at = at.parent as typeof at) depth += 1;
        return depth;
      },
      hello: () => 'hello',
    },
  },
});

async function runTree(query: string, variables: Record<string, unknown>) {
  const plugin: Plugin = useCompiledExecution(treeSchema);
  const yoga = createYoga({ schema: treeSchema, plugins: [plugin], logging: false });
  const response = await yoga.fetch('http://test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: Record<string, unknown>; errors?: { message: string }[] };
}

describe('useCompiledExecution with an input type that contains itself', () => {
  it('answers a variable of such a type (graphql-jit would inline its parser without end)', async () => {
    const variables = { filter: { name: 'a', parent: { parent: { parent: { name: 'd' } } } } };
    const answer = await runTree('query Q($filter: Filter) { depth(filter: $filter) }', variables);
    expect(answer).toEqual({ data: { depth: 4 } });
  });

  it('coerces such a variable as GraphQL does: a wrong member is refused by name', async () => {
    const answer = await runTree('query Q($filter: Filter) { depth(filter: $filter) }', {
      filter: { parent: { name: 3 } },
    });
    expect(answer.data).toBeUndefined();
    expect(answer.errors?.[0]?.message).toMatch(/filter.*parent.*name/);
  });

  it('keeps compiled code for the operations without such a variable, literals of the type included', async () => {
    const operation = parse('query Q($name: String) { depth(filter: { parent: { name: $name } }) hello }')
      .definitions[0] as OperationDefinitionNode;
    expect(runsInterpreted(treeSchema, operation)).toBe(false);
    const answer = await runTree('query Q($name: String) { depth(filter: { parent: { name: $name } }) }', {
      name: 'x',
    });
    expect(answer).toEqual({ data: { depth: 2 } });
  });
});
