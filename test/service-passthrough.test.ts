import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractCases, type ContractCase } from '../openapi/contract-cases.js';
import { loadDocument, operationsOf } from '../openapi/openapi-document.js';
import { startLegacyService, type LegacyServer } from '../legacy-service/src/server.js';
import { startTestStack, type TestStack } from './stack.js';

/**
 * Every documented legacy operation, sent once through the gateway (with a token) and once straight to a
 * second legacy service holding the same data: both answer the same status and body. Both services get
 * the same requests in the same order, so writes keep them equal.
 */
let stack: TestStack;
let direct: LegacyServer;
let directDir: string;
let token: string;
beforeAll(async () => {
  stack = await startTestStack({ rbacEnabled: false });
  directDir = await mkdtemp(join(tmpdir(), 'direct-legacy-'));
  direct = await startLegacyService({ dataDir: directDir });
  token = await stack.token('alice');
});
afterAll(async () => {
  await stack.close();
  await direct.close();
  await rm(directDir, { recursive: true, force: true });
});

/**
 * The login helpers answer from the stand-in's realm, and the stand-in here beside the gateway runs without one
 * (404, as `docs/stand-in.md` says); `test/clients/` and the stand-in's own tests cover them with a realm.
 */
const needsRealm = new Set(['readKeycloakSettings', 'logIn']);
const operations = operationsOf(loadDocument()).filter(
  (operation) => operation.path.startsWith('/service') && !needsRealm.has(operation.operationId),
);

function requestOf(path: string, method: string, testCase: ContractCase) {
  let url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(testCase.params?.[name] ?? ''),
  );
  if (testCase.query) url += `?${new URLSearchParams(testCase.query).toString()}`;
  const body = testCase.rawBody ?? (testCase.body === undefined ? undefined : JSON.stringify(testCase.body));
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  return { url, init: { method, body, headers } };
}

/** Creates without a requested UUID get a fresh one on each side; everything else must match exactly. */
function comparable(status: number, body: unknown): unknown {
  const isUuid = (value: unknown) => typeof value === 'string' && /^[0-9a-f-]{36}$/.test(value);
  if (status === 201 && (isUuid(body) || (Array.isArray(body) && body.every(isUuid)))) return 'created';
  return body;
}

describe('the /service passthrough', () => {
  it('answers every documented operation like the legacy service itself', async () => {
    let compared = 0;
    for (const operation of operations) {
      for (const testCase of contractCases[operation.operationId] ?? []) {
        // Oversized bodies are refused before they are read; see the 413 test below.
        if (testCase.setup || testCase.status === 500 || testCase.status === 413) continue;
        const { url, init } = requestOf(operation.path, operation.method, testCase);
        const viaGateway = await fetch(`${stack.gatewayUrl}${url}`, {
          ...init,
          headers: { ...init.headers, authorization: `Bearer ${token}` },
        });
        const straight = await fetch(`${direct.url}${url}`, init);
        const label = `${operation.operationId}: ${testCase.name}`;
        expect(viaGateway.status, label).toBe(straight.status);
        expect(viaGateway.headers.get('content-type'), label).toBe(straight.headers.get('content-type'));
        const gatewayText = await viaGateway.text();
        expect(gatewayText, label).not.toContain(stack.legacyUrl);
        const straightBody = await straight.json();
        if (testCase.rawBody !== undefined && straight.status === 400) {
          // The gateway parses every body itself, strictly (issue 35), and refuses one that is not JSON in
          // its own words with the legacy service's key.
          expect(JSON.parse(gatewayText), label).toMatchObject({
            status: 400,
            error_key: (straightBody as { error_key: string }).error_key,
          });
        } else {
          expect(comparable(viaGateway.status, JSON.parse(gatewayText)), label).toEqual(
            comparable(straight.status, straightBody),
          );
        }
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(100);
  }, 120_000);

  it('tags each response with a request id', async () => {
    const response = await fetch(`${stack.gatewayUrl}/service/o/`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toMatch(/.+/);
  });

  it('answers 502 with the legacy error body when the legacy service is down, without its address', async () => {
    const lonely = await startTestStack({ rbacEnabled: false });
    const lonelyToken = await lonely.token('alice');
    await lonely.legacy.close();
    const response = await fetch(`${lonely.gatewayUrl}/service/o/`, {
      headers: { authorization: `Bearer ${lonelyToken}` },
    });
    const text = await response.text();
    expect(response.status).toBe(502);
    expect(JSON.parse(text)).toMatchObject({ error: true, status: 502, error_key: 'E_UPSTREAM_UNAVAILABLE' });
    expect(text).not.toContain(lonely.legacyUrl);
    const graphql = await fetch(`${lonely.gatewayUrl}/graphql/v2`, {
      method: 'POST',
      headers: { authorization: `Bearer ${lonelyToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ itsystems { objects { name } } }' }),
    });
    const graphqlBody = (await graphql.json()) as any;
    expect(graphqlBody.errors[0].extensions.code).toBe('UPSTREAM_UNAVAILABLE');
    await lonely.gateway.close();
    await lonely.idp.close();
  });

  it('refuses an oversized body with 413 before it reaches the legacy service', async () => {
    const before = stack.legacy.store.sequence;
    const response = await fetch(`${stack.gatewayUrl}/service/e/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ givenname: 'x'.repeat(2 * 1024 * 1024), surname: 'y' }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error_key: 'E_PAYLOAD_TOO_LARGE' });
    expect(stack.legacy.store.sequence).toBe(before);
  });
});
