import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useLegacyErrors } from '../graphql/errors.js';
import { useUpstreamTrace } from '../graphql/upstream-trace.js';
import { createLegacyClient } from './legacy-client.js';
import { legacyPaths } from './legacy-paths.js';
import { json, startStubBackend, type StubBackend } from './stub-backend.test-helpers.js';
import { useLegacyLoaders, type LegacyContext } from './use-legacy-loaders.js';

/** A schema whose `units(count)` reads `count` distinct units, each one legacy call. */
const schema = createSchema<LegacyContext>({
  typeDefs: 'type Unit { uuid: String! } type Query { units(count: Int!): [Unit] }',
  resolvers: {
    Query: {
      units: (_root: unknown, { count }: { count: number }, context: LegacyContext) =>
        Array.from({ length: count }, (_, index) => context.legacy.orgUnit(`unit-${index}`, '2024-01-01')),
    },
  },
});

let backend: StubBackend;
let legacy: ReturnType<typeof createLegacyClient>;
let yoga: ReturnType<typeof createYoga>;
beforeAll(async () => {
  backend = await startStubBackend();
  backend.answer((request, response) => json(response, 200, { uuid: request.url.split('/')[3] }));
  legacy = createLegacyClient({
    url: new URL(backend.url),
    connectTimeoutMs: 30_000,
    responseTimeoutMs: 30_000,
  });
  yoga = createYoga({
    schema,
    maskedErrors: true,
    logging: false,
    plugins: [
      useLegacyErrors(),
      useLegacyLoaders({ legacy, budget: 10 }),
      useUpstreamTrace({ enabled: true }),
    ],
  });
});
afterAll(async () => {
  await legacy.destroy();
  await backend.close();
});

async function query(count: number, authorization = 'Bearer caller.token.value') {
  const response = await yoga.fetch('http://gateway.example/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization, 'x-upstream-trace': '1' },
    body: JSON.stringify({ query: `{ units(count: ${count}) { uuid } }` }),
  });
  return { text: await response.text() };
}

describe('useLegacyLoaders', () => {
  it('reads through per-request loaders carrying the caller’s credential, each GET once', async () => {
    backend.received.length = 0;
    const { text } = await query(3);
    const body = JSON.parse(text);
    expect(body.data.units).toEqual([{ uuid: 'unit-0' }, { uuid: 'unit-1' }, { uuid: 'unit-2' }]);
    expect(body.extensions.upstream.requests).toBe(3);
    expect(backend.received.map((request) => request.url)).toEqual(
      [0, 1, 2].map((index) => legacyPaths.orgUnit(`unit-${index}`, { at: '2024-01-01' })),
    );
    expect(
      backend.received.every((request) => request.headers.authorization === 'Bearer caller.token.value'),
    ).toBe(true);
    // The trace shows calls, never the credential they carried.
    expect(text).not.toContain('caller.token.value');
  });

  it('stops a request at its budget with one LEGACY_BUDGET_EXCEEDED error; the next request is unaffected', async () => {
    backend.received.length = 0;
    const over = JSON.parse((await query(50)).text);
    expect(backend.received).toHaveLength(10);
    expect(over.errors).toHaveLength(1);
    expect(over.errors[0].extensions).toEqual({ code: 'LEGACY_BUDGET_EXCEEDED' });
    expect(over.errors[0].message).toMatch(/more legacy calls than one request may make/);
    expect(over.data.units.filter((unit: unknown) => unit !== null)).toHaveLength(10);

    const next = JSON.parse((await query(5)).text);
    expect(next.errors).toBeUndefined();
    expect(next.data.units).toHaveLength(5);
  });

  it('keeps the calls of only the requests it is told to (the upstream trace reads them)', async () => {
    const kept: number[] = [];
    const countCalls: Plugin<LegacyContext> = {
      onExecute: ({ args }) => ({
        onExecuteDone: () => void kept.push(args.contextValue.calls.length),
      }),
    };
    const recording = createYoga({
      schema,
      logging: false,
      plugins: [
        useLegacyLoaders({
          legacy,
          budget: 10,
          recordCalls: (request) => request.headers.get('x-upstream-trace') === '1',
        }),
        countCalls,
      ],
    });
    const send = (headers: Record<string, string>) =>
      recording.fetch('http://gateway.example/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query: '{ units(count: 2) { uuid } }' }),
      });
    expect((await send({})).status).toBe(200);
    expect((await send({ 'x-upstream-trace': '1' })).status).toBe(200);
    expect(kept).toEqual([0, 2]);
  });
});

describe('the calls a request leaves behind', () => {
  it('stops the calls still queued once the request has its answer (issue 35: a hundred failed requests left 26,000)', async () => {
    const slow = await startStubBackend();
    const held: (() => void)[] = [];
    let holding = true;
    slow.answer((request, response) => {
      const answer = () => json(response, 200, { uuid: request.url.split('/')[3] });
      if (holding) held.push(answer);
      else answer();
    });
    // One connection: the request's first call is sent, the other nine wait in the pool's queue.
    const oneConnection = createLegacyClient({
      url: new URL(slow.url),
      connectTimeoutMs: 30_000,
      responseTimeoutMs: 5000,
      connections: 1,
    });
    const failingFast = createSchema<LegacyContext>({
      typeDefs: 'type Unit { uuid: String! } type Query { units(count: Int!): [Unit!] }',
      resolvers: {
        Query: {
          // One failure fails the whole list at once, as a filter's UUIDs read together do.
          units: (_root: unknown, { count }: { count: number }, context: LegacyContext) =>
            Promise.all(
              Array.from({ length: count }, (_, index) =>
                context.legacy.orgUnit(`unit-${index}`, '2024-01-01'),
              ),
            ),
        },
      },
    });
    const server = createYoga({
      schema: failingFast,
      maskedErrors: true,
      logging: false,
      plugins: [useLegacyErrors(), useLegacyLoaders({ legacy: oneConnection, budget: 10 })],
    });
    const send = async (count: number) => {
      const response = await server.fetch('http://gateway.example/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: `{ units(count: ${count}) { uuid } }` }),
      });
      return response.json();
    };
    // Past the loaders' batch of 256: the second batch fails at once, while the first waits on its ten calls.
    const over = await send(300);
    expect(over.errors[0].extensions).toEqual({ code: 'LEGACY_BUDGET_EXCEEDED' });
    holding = false;
    for (const answer of held.splice(0)) answer();
    // The next request's call waits behind whatever the first left queued on the one connection.
    expect((await send(1)).data.units).toEqual([{ uuid: 'unit-0' }]);
    // The first request's call in flight, and the next one's: not the nine the first no longer needed.
    expect(slow.received.length).toBeLessThanOrEqual(2);
    await oneConnection.destroy();
    await slow.close();
  });
});

describe('legacy failures in GraphQL', () => {
  it('a backend that does not answer in time fails the field with UPSTREAM_TIMEOUT', async () => {
    const silent = await startStubBackend();
    silent.answer(() => undefined);
    const slowLegacy = createLegacyClient({
      url: new URL(silent.url),
      connectTimeoutMs: 30_000,
      responseTimeoutMs: 200,
    });
    const server = createYoga({
      schema,
      maskedErrors: true,
      logging: false,
      plugins: [useLegacyErrors(), useLegacyLoaders({ legacy: slowLegacy, budget: 10 })],
    });
    const response = await server.fetch('http://gateway.example/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ units(count: 1) { uuid } }' }),
    });
    const body = await response.json();
    expect(body.data.units).toEqual([null]);
    expect(body.errors).toEqual([
      expect.objectContaining({
        message: 'The legacy service did not answer in time.',
        extensions: { code: 'UPSTREAM_TIMEOUT' },
      }),
    ]);
    expect(JSON.stringify(body)).not.toContain(silent.url);
    await slowLegacy.destroy();
    await silent.close();
  });
});
