import type { DestinationStream } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGatewayConfig } from '../gateway/src/config.js';
import { json, startStubBackend, type StubBackend } from '../gateway/src/legacy/stub-backend.test-helpers.js';
import { createLogger } from '../gateway/src/observability/index.js';
import { startGateway, type RunningGateway } from '../gateway/src/server.js';
import { developmentRealm } from '../idp/src/dev-realm.js';
import { startIdp, type RunningIdp } from '../idp/src/server.js';
import { accessToken } from './idp-tokens.js';

/**
 * `LEGACY_CREDENTIALS=relay` (the default) end to end, in front of a backend that records every credential it
 * gets: the caller's token reaches it from the passthrough, GraphQL, RBAC look-ups and the shadow
 * comparison, and it appears in no log line (all levels), trace or error body.
 */
const unit = 'f41291dc-2a78-5663-957a-efb8d5ed9a0e';
let backend: StubBackend;
let idp: RunningIdp;
let gateway: RunningGateway;
const logLines: string[] = [];
let shadowRead!: (authorization: string | undefined) => void;
const shadowReadSeen = new Promise<string | undefined>((resolve) => (shadowRead = resolve));

beforeAll(async () => {
  backend = await startStubBackend();
  backend.answer((request, response) => {
    if (request.url === '/service/o/')
      return json(response, 200, [{ uuid: 'org-1', name: 'Org', user_key: 'org' }]);
    if (request.url === '/service/o/org-1/f/') {
      return json(response, 200, [
        { uuid: 'facet-1', user_key: 'manager_type', path: '/service/o/org-1/f/manager_type/' },
      ]);
    }
    if (request.method === 'POST') return json(response, 201, 'b9e6b2a4-0f54-4f5e-9f0e-5a3c7f7f0a11');
    // The shadow comparison's GraphQL reads carry `at`; the client's own read does not.
    if (request.url.startsWith(`/service/ou/${unit}`) && request.url.includes('at=')) {
      shadowRead(request.headers.authorization);
    }
    if (request.url.startsWith(`/service/ou/${unit}/`) && !request.url.includes('/details/')) {
      return json(response, 200, { uuid: unit, name: 'Unit', user_key: 'unit', parent: null });
    }
    return json(response, 200, []);
  });
  const destination: DestinationStream = { write: (line: string) => void logLines.push(line) };
  gateway = await startGateway({
    logger: createLogger({ level: 'trace', destination }),
    config: async (port) => {
      idp = await startIdp({
        realm: developmentRealm({ rbacEnabled: true, gatewayPublicUrl: `http://localhost:${port}` }),
      });
      return readGatewayConfig({
        GATEWAY_PORT: String(port),
        LEGACY_URL: backend.url,
        IDP_PORT: String(idp.port),
        IDP_RBAC_ENABLED: 'true',
        SHADOW_SAMPLE_RATE: '1',
        LOG_LEVEL: 'trace',
      });
    },
  });
});
afterAll(async () => {
  await gateway?.close();
  await idp?.close();
  await backend?.close();
});

const tokenOf = (authorization: string | string[] | undefined) =>
  String(authorization).replace(/^Bearer /, '');

describe('LEGACY_CREDENTIALS=relay', () => {
  it('sends the caller’s token on passthrough calls, GraphQL reads, RBAC look-ups and the shadow comparison', async () => {
    const token = await accessToken(idp.issuer, 'oscar');
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    backend.received.length = 0;
    const read = await fetch(`${gateway.url}/service/ou/${unit}/`, { headers });
    expect(read.status).toBe(200);
    expect(await shadowReadSeen).toBe(`Bearer ${token}`);

    const graphql = await fetch(`${gateway.url}/graphql/v2`, {
      method: 'POST',
      headers: { ...headers, 'x-upstream-trace': '1' },
      body: JSON.stringify({ query: '{ facets(limit: 1) { objects { uuid user_key } } }' }),
    });
    const graphqlText = await graphql.text();
    expect(JSON.parse(graphqlText).data.facets.objects).toEqual([
      { uuid: 'facet-1', user_key: 'manager_type' },
    ]);

    // Oscar is an owner: RBAC reads the unit before it decides (and refuses: the backend knows no owners).
    const write = await fetch(`${gateway.url}/service/details/create`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        type: 'engagement',
        org_unit: { uuid: unit },
        validity: { from: '2024-01-01' },
      }),
    });
    const writeText = await write.text();
    expect(write.status).toBe(403);

    const credentials = backend.received.map((request) => tokenOf(request.headers.authorization));
    expect(backend.received.length).toBeGreaterThanOrEqual(4);
    expect(new Set(credentials)).toEqual(new Set([token]));
    expect(backend.received.some((request) => request.method === 'POST')).toBe(false);

    for (const text of [graphqlText, writeText, ...logLines]) expect(text).not.toContain(token);
    expect(logLines.length).toBeGreaterThan(0);
  });
});
