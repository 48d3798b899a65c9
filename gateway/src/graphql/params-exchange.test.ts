import { GraphQLError } from 'graphql';
import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../auth/token-verifier.js';
import { readGatewayConfig } from '../config.js';
import { useHardening } from './hardening/index.js';
import { assertExchangeCovers, coveredByExchange, ParamsExchange } from './params-exchange.js';
import type { ServerContext } from './server-context.js';

const principal: Principal = {
  subject: 'alice',
  username: 'alice',
  clientId: 'test',
  roles: ['admin'],
  employeeUuid: undefined,
};

/** A Yoga server with the exchange, and a plugin that records which of Yoga's hooks ran for which request. */
function serverWithExchange() {
  const hooks: string[] = [];
  const requests = new Set<Request>();
  const recorder: Plugin<{ request: Request; principal: Principal }, ServerContext> = {
    onRequestParse: () => void hooks.push('onRequestParse'),
    onParams: ({ request }) => void (hooks.push('onParams'), requests.add(request)),
    onExecute: ({ args }) =>
      void (
        hooks.push(`onExecute:${args.contextValue.principal.username}`),
        requests.add(args.contextValue.request)
      ),
    onExecutionResult: ({ request }) => void (hooks.push('onExecutionResult'), requests.add(request)),
    onResultProcess: ({ request }) => void (hooks.push('onResultProcess'), requests.add(request)),
  };
  const exchange = new ParamsExchange();
  createYoga<ServerContext>({
    schema: createSchema({
      typeDefs: 'type Query { hello(name: String!): String! }',
      resolvers: { Query: { hello: (_: unknown, { name }: { name: string }) => `hello ${name}` } },
    }),
    maskedErrors: true,
    logging: false,
    plugins: [exchange.plugin, recorder],
  });
  return { exchange, hooks, requests };
}

const request = (accept?: string) =>
  new Request('http://gateway.test/graphql/v2', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(accept ? { accept } : {}) },
    body: '{}',
  });

describe('ParamsExchange', () => {
  it("runs read parameters through every GraphQL hook but the request parsing, with the route's request", async () => {
    const { exchange, hooks, requests } = serverWithExchange();
    const sent = request();
    const response = await exchange.answer(
      sent,
      { query: 'query Q($n: String!) { hello(name: $n) }', variables: { n: 'alice' }, operationName: 'Q' },
      { principal },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({ data: { hello: 'hello alice' } });
    expect(hooks).toEqual(['onParams', 'onExecute:alice', 'onExecutionResult', 'onResultProcess']);
    expect([...requests]).toEqual([sent]);
  });

  it('answers in the media type the request accepts, as Yoga does, and 406 when it accepts none', async () => {
    const { exchange } = serverWithExchange();
    const query = { query: '{ hello(name: "bob") }' };
    const negotiated = await exchange.answer(request('application/graphql-response+json'), query, {
      principal,
    });
    expect(negotiated.headers.get('content-type')).toBe('application/graphql-response+json; charset=utf-8');
    const refused = await exchange.answer(request('text/html'), query, { principal });
    expect(refused.status).toBe(406);
  });

  it("answers a request error with Yoga's status for it", async () => {
    const { exchange } = serverWithExchange();
    const invalid = await exchange.answer(
      request('application/graphql-response+json'),
      { query: '{ nope }' },
      {
        principal,
      },
    );
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).errors[0].message).toMatch(/nope/);
  });

  it('answers a failure before execution as Yoga does: masked, 500, never thrown', async () => {
    const exchange = new ParamsExchange();
    createYoga<ServerContext>({
      schema: createSchema({ typeDefs: 'type Query { hello: String }' }),
      maskedErrors: true,
      logging: false,
      plugins: [
        exchange.plugin,
        {
          onParams() {
            throw new Error('internal detail');
          },
        },
      ],
    });
    const response = await exchange.answer(request(), { query: '{ hello }' }, { principal });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('internal detail');
    expect(JSON.parse(text).errors[0].message).toBe('Unexpected error.');
  });

  it("answers every failure of a hook as Yoga's own road does: aggregates split, aborts dropped, the rest masked", async () => {
    const failures: [string, () => unknown][] = [
      ['an Error', () => new Error('internal detail')],
      [
        'a GraphQLError of ours',
        () => new GraphQLError('refused', { extensions: { code: 'X', http: { status: 403 } } }),
      ],
      ['an aggregate', () => new AggregateError([new GraphQLError('first'), new Error('internal detail')])],
      ['an abort', () => new DOMException('gone', 'AbortError')],
      ['a string', () => 'internal detail'],
    ];
    // Each server's hook fails once, as a failure while writing the answer must not fail its replacement.
    const failingOnce = (hook: string, failure: () => unknown) => {
      let failed = false;
      const exchange = new ParamsExchange();
      const yoga = createYoga<ServerContext>({
        schema: createSchema({ typeDefs: 'type Query { hello: String }' }),
        maskedErrors: true,
        logging: false,
        plugins: [
          exchange.plugin,
          {
            [hook]: () => {
              if (failed) return;
              failed = true;
              throw failure();
            },
          },
        ],
      });
      return { exchange, yoga };
    };
    const accept = 'application/graphql-response+json';
    for (const hook of ['onParams', 'onExecutionResult', 'onResultProcess']) {
      for (const [name, failure] of failures) {
        const ours = await failingOnce(hook, failure).exchange.answer(
          request(accept),
          { query: '{ hello }' },
          { principal },
        );
        const theirs = await failingOnce(hook, failure).yoga.fetch(
          new Request('http://gateway.test/graphql', {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept },
            body: JSON.stringify({ query: '{ hello }' }),
          }),
          { principal },
        );
        const seen = { status: ours.status, type: ours.headers.get('content-type'), body: await ours.text() };
        const expected = {
          status: theirs.status,
          type: theirs.headers.get('content-type'),
          body: await theirs.text(),
        };
        expect(seen, `${name} in ${hook}`).toEqual(expected);
        expect(seen.body).not.toContain('internal detail');
      }
    }
  });

  it('refuses, at start, a plugin with a hook of the HTTP layer it skips', () => {
    expect(() => assertExchangeCovers([{ onParams: () => undefined }, {}, false])).not.toThrow();
    for (const hook of ['onRequest', 'onRequestParse', 'onResponse', 'instrumentation']) {
      expect(() => assertExchangeCovers([{}, { [hook]: () => undefined }])).toThrow(
        `Plugin 1 has ${hook}, which the GraphQL JSON exchange skips`,
      );
    }
  });

  it('refuses, at start, a skipped hook in a plugin another plugin adds, however deep', () => {
    const schema = createSchema({ typeDefs: 'type Query { hello: String }' });
    const adding = (added: Plugin): Plugin => ({ onPluginInit: ({ addPlugin }) => addPlugin(added) });
    const start = (plugins: Plugin[]) => () =>
      createYoga({ schema, logging: false, plugins: coveredByExchange(plugins) });
    expect(start([{}, adding({ onRequest: () => undefined })])).toThrow(
      'A plugin added by plugin 1 has onRequest, which the GraphQL JSON exchange skips',
    );
    expect(start([adding(adding({ onResponse: () => undefined }))])).toThrow(
      'A plugin added by a plugin added by plugin 0 has onResponse',
    );
    // An addition without such a hook is served, and runs.
    let added = 0;
    expect(start([adding({ onExecute: () => void (added += 1) })])).not.toThrow();
  });

  it('serves the plugins the gateway adds at start: the hardening adds its limits through addPlugin', async () => {
    const exchange = new ParamsExchange();
    const executed: string[] = [];
    createYoga<ServerContext>({
      schema: createSchema({
        typeDefs: 'type Query { hello: String, me: Person } type Person { friend: Person, name: String }',
        resolvers: { Query: { hello: () => 'hi' } },
      }),
      logging: false,
      plugins: coveredByExchange([
        exchange.plugin,
        useHardening({
          limits: { ...readGatewayConfig({}).graphqlLimits, maxDepth: 2 },
          fieldSuggestions: false,
        }),
        { onExecute: () => void executed.push('executed') },
      ]),
    });
    const deep = await exchange.answer(request(), { query: '{ me { friend { name } } }' }, { principal });
    expect(await deep.json()).toMatchObject({ errors: [{ extensions: { code: 'QUERY_TOO_DEEP' } }] });
    const shallow = await exchange.answer(request(), { query: '{ hello }' }, { principal });
    expect(await shallow.json()).toEqual({ data: { hello: 'hi' } });
    expect(executed).toEqual(['executed']);
  });

  it('leaves an exempt plugin unchecked, and its additions unwatched', () => {
    const exempt: Plugin = { onRequestParse: () => undefined };
    expect(() => coveredByExchange([{}, exempt], [exempt])).not.toThrow();
    expect(coveredByExchange([exempt], [exempt])[0]).toBe(exempt);
  });
});
