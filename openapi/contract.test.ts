import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../legacy-service/src/store/index.js';
import { openTestLegacy, type TestLegacy } from '../legacy-service/src/testing.js';
import { contractCases, type ContractCase } from './contract-cases.js';
import {
  createSchemaValidator,
  documentPath,
  loadDocument,
  operationsOf,
  type DocumentedOperation,
} from './openapi-document.js';

/**
 * The OpenAPI document is the legacy service's contract: every operation is called for real, every
 * answer must be a documented status with a body its schema accepts, every documented status must be
 * produced by some request, and the service's routes and the document's paths must be the same set.
 */

const document = loadDocument();
const operations = operationsOf(document);
const validator = createSchemaValidator(document);

interface RunnableCase extends ContractCase {
  /** Make the store fail, to observe the documented 500 answer. */
  storeFails?: boolean;
}

/**
 * Every failure the app does not expect answers 500; a store that throws stands in for a broken disk
 * or a bug. The request reused is the operation's first successful one, so it gets as far as the store.
 */
function storeFailureCase(operation: DocumentedOperation): RunnableCase[] {
  if (!operation.responses.has(500)) return [];
  const success = (contractCases[operation.operationId] ?? []).find((c) => c.status < 300);
  if (!success) return [];
  return [{ ...success, name: 'a failing store', status: 500, errorKey: 'E_UNKNOWN', storeFails: true }];
}

const casesOf = (operation: DocumentedOperation): RunnableCase[] => [
  ...(contractCases[operation.operationId] ?? []),
  ...storeFailureCase(operation),
];

const injectedFailure = 'store failure injected by the contract test';

function breakStore(store: Store): void {
  const fail = () => {
    throw new Error(injectedFailure);
  };
  Object.assign(store, { get: fail, all: fail, count: fail, byIndex: fail, transaction: fail });
}

function urlFor(operation: DocumentedOperation, c: ContractCase): string {
  const path = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = c.params?.[name];
    if (value === undefined) throw new Error(`The case "${c.name}" gives no value for {${name}}`);
    return encodeURIComponent(value);
  });
  const query = new URLSearchParams(c.query).toString();
  return query ? `${path}?${query}` : path;
}

function requestInit(operation: DocumentedOperation, c: ContractCase): RequestInit {
  const body = c.rawBody ?? (c.body === undefined ? undefined : JSON.stringify(c.body));
  return body === undefined
    ? { method: operation.method }
    : { method: operation.method, headers: { 'content-type': 'application/json' }, body };
}

/** An empty list or page proves little about its item schema. */
function isEmptyListing(body: unknown): boolean {
  if (Array.isArray(body)) return body.length === 0;
  const page = (body as { items?: unknown; data?: { items?: unknown } } | null) ?? {};
  const items = page.items ?? page.data?.items;
  return Array.isArray(items) && items.length === 0;
}

/** `/service/o/:org/f/:facet` → `/service/o/{org}/f/{facet}`, without a trailing slash. */
function routeKey(method: string, path: string): string {
  const openApiPath = path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}').replace(/(.)\/$/, '$1');
  return `${method} ${openApiPath}`;
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.0.3 document', async () => {
    await expect(SwaggerParser.validate(documentPath)).resolves.toBeDefined();
    expect(document.openapi).toBe('3.0.3');
  });

  it('has unique operationIds', () => {
    const ids = operations.map((operation) => operation.operationId);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });

  it('has contract cases for every operation, and none for an operation it lacks', () => {
    const documented = new Set(operations.map((operation) => operation.operationId));
    const withoutCases = [...documented].filter((id) => (contractCases[id] ?? []).length === 0);
    const unknownCases = Object.keys(contractCases).filter((id) => !documented.has(id));
    expect(withoutCases, 'operations without a contract case').toEqual([]);
    expect(unknownCases, 'cases for operations the document does not have').toEqual([]);
  });

  it('has every documented status of every operation produced by a case, and no other', () => {
    const mismatches = operations.flatMap((operation) => {
      const documented = [...operation.responses.keys()].sort();
      const exercised = [...new Set(casesOf(operation).map((c) => c.status))].sort();
      return JSON.stringify(documented) === JSON.stringify(exercised)
        ? []
        : [`${operation.operationId}: documented ${documented.join(',')}; exercised ${exercised.join(',')}`];
    });
    expect(mismatches).toEqual([]);
  });

  it('describes exactly the routes the service has', async () => {
    const legacy = await openTestLegacy();
    try {
      // `app.use` middleware shows up as an ALL route ending in `*`; it serves no endpoint of its own.
      const routes = legacy.app.routes
        .filter((route) => !(route.method === 'ALL' && route.path.endsWith('*')))
        .map((route) => routeKey(route.method, route.path));
      const documented = operations.map((operation) => routeKey(operation.method, operation.path));
      expect(
        [...new Set(routes)].filter((route) => !documented.includes(route)),
        'routes the document does not describe',
      ).toEqual([]);
      expect(
        documented.filter((path) => !routes.includes(path)),
        'documented operations without a route',
      ).toEqual([]);
    } finally {
      await legacy.cleanup();
    }
  });
});

describe('the service answers as documented', () => {
  let shared: TestLegacy;
  beforeAll(async () => {
    shared = await openTestLegacy();
  });
  afterAll(() => shared.cleanup());

  for (const operation of operations) {
    describe(`${operation.operationId}: ${operation.method} ${operation.path}`, () => {
      for (const c of casesOf(operation)) {
        it(`${c.name} → ${c.status}${c.errorKey ? ` ${c.errorKey}` : ''}`, async () => {
          const isolated = operation.method !== 'GET' || c.setup !== undefined || c.storeFails === true;
          const legacy = isolated ? await openTestLegacy() : shared;
          try {
            const url = urlFor(operation, c);
            const documentedQuery = operation.parameters.filter((p) => p.in === 'query').map((p) => p.name);
            expect(
              Object.keys(c.query ?? {}).filter((name) => !documentedQuery.includes(name)),
              'query parameters the document does not list',
            ).toEqual([]);
            if (c.status < 300 && c.body !== undefined) {
              expect(operation.requestSchema, 'a body for an operation without one').toBeDefined();
              expect(validator.problems(operation.requestSchema ?? {}, c.body), 'request body').toEqual([]);
            }

            await c.setup?.(legacy);
            if (c.storeFails) breakStore(legacy.store);
            const response = await legacy.request(url, requestInit(operation, c));
            const text = await response.text();

            expect(response.status, text.slice(0, 500)).toBe(c.status);
            expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
            const schema = operation.responses.get(response.status);
            expect(schema, `status ${response.status} is not documented`).toBeDefined();
            const body: unknown = JSON.parse(text);
            expect(validator.problems(schema ?? {}, body), 'response body').toEqual([]);

            if (c.status >= 400) {
              expect(body).toMatchObject({ status: c.status, error_key: c.errorKey });
            } else if (!c.empty) {
              expect(
                isEmptyListing(body),
                'an empty listing; mark the case `empty` if that is the point',
              ).toBe(false);
            }
            if (c.storeFails) expect(text).not.toContain(injectedFailure);
          } finally {
            if (isolated) await legacy.cleanup();
          }
        });
      }
    });
  }
});
