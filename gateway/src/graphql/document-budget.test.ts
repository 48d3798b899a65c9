import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGatewayConfig } from '../config.js';
import { createLegacyClient, type LegacyClient } from '../legacy/legacy-client.js';
import { startStubBackend, type StubBackend } from '../legacy/stub-backend.test-helpers.js';
import { createRbacPolicy } from '../rbac/rbac-policy.js';
import { createDocumentBudget } from './document-budget.js';
import { buildVersions } from './versions.js';
import { createVersionServer, type VersionServer } from './yoga.js';

const doc = (text: string) => parse(text);

describe('createDocumentBudget', () => {
  it('keys an entry by version, kind and the exact text', () => {
    const budget = createDocumentBudget({ maxEntries: 10, maxBytes: 10_000 });
    const v2 = budget.forVersion('v2');
    const v30 = budget.forVersion('v30');
    const parsed = doc('{ a: __typename }');
    v2.documentCache.set('{ a: __typename }', parsed);
    expect(v2.documentCache.get('{ a: __typename }')).toBe(parsed);
    expect(v30.documentCache.get('{ a: __typename }')).toBeUndefined();
    expect(v2.errorCache.get('{ a: __typename }')).toBeUndefined();
    expect(v2.documentCache.get('{ b: __typename }')).toBeUndefined();
    expect(v2.documentCache.get('{ a: __typename } ')).toBeUndefined();
  });

  it('lets the least recently used entry go first once the entries are spent', () => {
    const budget = createDocumentBudget({ maxEntries: 2, maxBytes: 10_000 });
    const { documentCache } = budget.forVersion('v2');
    documentCache.set('{ a }', doc('{ a }'));
    documentCache.set('{ b }', doc('{ b }'));
    documentCache.get('{ a }');
    documentCache.set('{ c }', doc('{ c }'));
    expect(documentCache.get('{ a }')).toBeDefined();
    expect(documentCache.get('{ b }')).toBeUndefined();
    expect(budget.usage()).toEqual({ entries: 2, bytes: 10 });
  });

  it('keeps the text within its bytes, and never keeps a document larger than all of them', () => {
    const budget = createDocumentBudget({ maxEntries: 100, maxBytes: 20 });
    const { documentCache } = budget.forVersion('v2');
    for (const name of ['aaaa', 'bbbb', 'cccc', 'dddd']) documentCache.set(`{ ${name} }`, doc(`{ ${name} }`));
    expect(budget.usage().bytes).toBeLessThanOrEqual(20);
    const large = `{ ${'x'.repeat(30)} }`;
    documentCache.set(large, doc(large));
    expect(documentCache.get(large)).toBeUndefined();
  });
});

describe('one budget for every version', () => {
  let backend: StubBackend;
  let legacy: LegacyClient;
  const budget = createDocumentBudget({ maxEntries: 40, maxBytes: 4_000 });
  let servers: { name: string; server: VersionServer }[];
  beforeAll(async () => {
    backend = await startStubBackend();
    legacy = createLegacyClient({
      url: new URL(backend.url),
      connectTimeoutMs: 30_000,
      responseTimeoutMs: 30_000,
      auth: { mode: 'none' },
    });
    const defaults = readGatewayConfig({});
    servers = buildVersions().map((version) => ({
      name: version.name,
      server: createVersionServer(version, {
        legacy,
        legacyCallBudget: 100,
        upstreamTrace: false,
        introspection: true,
        hardening: { limits: defaults.graphqlLimits, fieldSuggestions: false },
        rbac: createRbacPolicy({ enabled: false }),
        documents: budget,
      }),
    }));
  }, 60_000);
  afterAll(async () => {
    await legacy.close();
    await backend.close();
  });

  const ask = async (server: VersionServer, name: string, query: string, operationName?: string) => {
    const response = await server.fetch(`http://gateway.test/graphql/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query, operationName }),
    });
    return (await response.json()) as { data?: Record<string, unknown>; errors?: unknown[] };
  };

  it('stays within its entries and bytes however many distinct documents each version gets', async () => {
    expect(servers.length).toBeGreaterThanOrEqual(12);
    for (let i = 0; i < 30; i += 1) {
      for (const { name, server } of servers) {
        const answer = await ask(server, name, `query Q${i} { a${i}: __typename }`);
        expect(answer.data).toEqual({ [`a${i}`]: 'Query' });
        const { entries, bytes } = budget.usage();
        expect(entries).toBeLessThanOrEqual(40);
        expect(bytes).toBeLessThanOrEqual(4_000);
      }
    }
    expect(budget.usage().entries).toBe(40);
  });

  it('answers each version from its own schema for the same text', async () => {
    const query = '{ __schema { queryType { fields { name } } } }';
    const names = async (name: string) => {
      const { server } = servers.find((entry) => entry.name === name)!;
      const answer = await ask(server, name, query);
      return JSON.stringify(answer.data);
    };
    for (let run = 0; run < 3; run += 1) expect(await names('v2')).not.toBe(await names('v30'));
  });

  it('runs the operation each request names, compiled or not', async () => {
    const { name, server } = servers.find((entry) => entry.name === 'v30')!;
    const two = 'query A { a: __typename } query B { b: __typename }';
    for (let run = 0; run < 3; run += 1) {
      expect((await ask(server, name, two, 'A')).data).toEqual({ a: 'Query' });
      expect((await ask(server, name, two, 'B')).data).toEqual({ b: 'Query' });
    }
  });
});
