import { createSchema, createYoga } from 'graphql-yoga';
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { useOperationObservation } from './graphql-observer.js';
import { createLogger } from './logger.js';
import { createGatewayMetrics } from './metrics.js';
import { createObservability } from './observability.js';

/** A Yoga server with one field that works, one that fails as users may, and one with a defect. */
function observedServer() {
  const lines: Record<string, any>[] = [];
  const logger = createLogger({
    level: 'info',
    destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
  });
  const observability = createObservability({
    logger,
    metrics: createGatewayMetrics({ processMetrics: false }),
  });
  const yoga = createYoga({
    schema: createSchema({
      typeDefs: 'type Query { ok: String, refused: String, defect: String }',
      resolvers: {
        Query: {
          ok: () => 'fine',
          refused: () => {
            throw new GraphQLError('Not yours.', { extensions: { code: 'FORBIDDEN' } });
          },
          defect: () => {
            throw new Error('internal detail: db at 10.0.0.7');
          },
        },
      },
    }),
    maskedErrors: true,
    logging: false,
    plugins: [useOperationObservation({ version: 'v9', observability })],
  });
  const query = async (document: string) => {
    const response = await yoga.fetch('http://gateway/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: document }),
    });
    return response.json() as Promise<any>;
  };
  const count = async (outcome: string) =>
    (await observability.metrics.graphqlOperations.get()).values.find(
      (sample) => sample.labels.outcome === outcome && sample.labels.version === 'v9',
    )?.value ?? 0;
  return { lines, query, count };
}

describe('useOperationObservation', () => {
  it('counts operations by outcome', async () => {
    const server = observedServer();
    await server.query('{ ok }');
    await server.query('{ ok refused }');
    await server.query('{ refused }');
    await server.query('{ nope }');
    expect([
      await server.count('success'),
      await server.count('partial'),
      await server.count('error'),
      await server.count('rejected'),
    ]).toEqual([1, 1, 1, 1]);
  });

  it('logs a defect the client only sees masked, and not a refusal meant for the client', async () => {
    const server = observedServer();
    const refused = await server.query('{ refused }');
    expect(refused.errors[0].message).toBe('Not yours.');
    expect(server.lines).toEqual([]);

    const defect = await server.query('{ ok defect }');
    expect(defect.errors[0].message).toBe('Unexpected error.');
    expect(JSON.stringify(defect)).not.toContain('10.0.0.7');
    expect(server.lines).toEqual([
      expect.objectContaining({
        level: 'error',
        msg: 'graphql: unexpected error in a resolver',
        path: 'defect',
        version: 'v9',
        err: expect.objectContaining({
          message: 'internal detail: db at 10.0.0.7',
          stack: expect.any(String),
        }),
      }),
    ]);
  });
});
