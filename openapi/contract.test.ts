import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, chai, describe, expect, it } from 'vitest';
import type { LegacyAuthConfig } from '../legacy-service/src/config.js';
import type { Store } from '../legacy-service/src/store/index.js';
import { openTestLegacy, type TestLegacy } from '../legacy-service/src/testing.js';
import { startIdp, type RunningIdp } from '../idp/src/server.js';
import { accessToken } from '../test/idp-tokens.js';
import { contractCases, type ContractCase } from './contract-cases.js';
import {
  createSchemaValidator,
  documentPath,
  loadDocument,
  operationsOf,
  type DocumentedOperation,
} from './openapi-document.js';
import { noSuchEndpoint, os2moCases } from './os2mo-cases.js';
import { shapeProblems } from './response-shape.js';

/**
 * The OpenAPI document is the legacy service's contract: every operation is called for real, with a
 * token from the identity provider, every answer must be a documented status with a body its schema
 * accepts, every documented status must be produced by some request, and the service's routes and the
 * document's paths must be the same set. The cases in `os2mo-cases.ts` hold the answers to OS2mo 2.4.0's
 * own test expectations (status, error key, key sets and nesting).
 */

// A failing case is a difference from OS2mo: its message must show all of it, not the first 40 characters.
chai.config.truncateThreshold = 0;

const document = loadDocument();
const operations = operationsOf(document);
const validator = createSchemaValidator(document);
const uuidOnlyValidator = createSchemaValidator(document, { onlyPrimaryUuid: true });
/** OS2mo's flag reading (backend/mora/util.py, get_args_flag). */
const isFlagSet = (value: string | undefined) =>
  value !== undefined && !['', '0', 'false', 'no', 'n'].includes(value.toLowerCase());

interface RunnableCase extends ContractCase {
  /** Make the store fail, to observe the documented 500 answer. */
  storeFails?: boolean;
}

/** OS2mo answers a `/service` call without a token with this JSON string (FastAPI's bearer scheme). */
const notAuthenticated = 'Not authenticated';
const os2moAuthTests = 'OS2mo 2.4.0 backend/tests/test_service_auth.py::TestAuthEndpointsReturn401';

const casesOf = (operation: DocumentedOperation): RunnableCase[] => {
  const own = [...(contractCases[operation.operationId] ?? []), ...(os2moCases[operation.operationId] ?? [])];
  const found = own.find((c) => c.status < 300 && c.token === undefined);
  // The operation's first successful request, without what it expects of a successful answer.
  const success = found && {
    ...found,
    os2mo: undefined,
    shape: undefined,
    verify: undefined,
    after: undefined,
    empty: undefined,
  };
  return [
    ...own,
    // Every failure the app does not expect answers 500; a store that throws stands in for a broken disk
    // or a bug. The request reused is a successful one, so it gets as far as the store.
    // (Unless the operation's own cases already give its 500, as the exports' missing folder does.)
    ...(operation.responses.has(500) && success && !own.some((c) => c.status === 500)
      ? [{ ...success, name: 'a failing store', status: 500, errorKey: 'E_UNKNOWN', storeFails: true }]
      : []),
    // OS2mo refuses every `/service` call without a token, before looking at the request (but its login
    // helpers, which need none).
    ...(operation.responses.has(401) && success && !operation.public
      ? [
          {
            ...success,
            name: 'without a token',
            os2mo: os2moAuthTests,
            status: 401,
            token: null,
            setup: undefined,
          },
        ]
      : []),
  ];
};

const injectedFailure = 'store failure injected by the contract test';

function breakStore(store: Store): void {
  const fail = () => {
    throw new Error(injectedFailure);
  };
  Object.assign(store, { get: fail, all: fail, count: fail, byIndex: fail, transaction: fail });
}

function queryString(c: ContractCase): string {
  const search = new URLSearchParams(c.query);
  for (const [name, values] of Object.entries(c.repeatedQuery ?? {})) {
    for (const value of values) search.append(name, value);
  }
  return search.toString();
}

function urlFor(operation: DocumentedOperation, c: ContractCase): string {
  const path = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = c.params?.[name];
    if (value === undefined) throw new Error(`The case "${c.name}" gives no value for {${name}}`);
    return encodeURIComponent(value);
  });
  const query = queryString(c);
  return query ? `${path}?${query}` : path;
}

function requestInit(method: string, c: ContractCase, token: string | null): RequestInit {
  const form = c.form && new URLSearchParams(c.form).toString();
  const body = form ?? c.rawBody ?? (c.body === undefined ? undefined : JSON.stringify(c.body));
  const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
  if (body !== undefined)
    headers['content-type'] = form === undefined ? 'application/json' : 'application/x-www-form-urlencoded';
  return body === undefined ? { method, headers } : { method, headers, body };
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

/** What a case with a citation is called, so a failure names the OS2mo test it contradicts. */
const caseTitle = (c: RunnableCase) =>
  `${c.os2mo ? `[${c.os2mo.replace(/^OS2mo 2\.4\.0 backend\/tests\//, 'OS2mo ')}] ` : ''}${c.name} → ${c.status}${
    c.errorKey ? ` ${c.errorKey}` : ''
  }`;

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
    const unknownCases = [...Object.keys(contractCases), ...Object.keys(os2moCases)].filter(
      (id) => !documented.has(id),
    );
    expect(withoutCases, 'operations without a contract case').toEqual([]);
    expect(unknownCases, 'cases for operations the document does not have').toEqual([]);
  });

  it('cites an OS2mo 2.4.0 test for every OS2mo case', () => {
    const uncited = Object.values(os2moCases)
      .flat()
      .filter((c) => !/^OS2mo 2\.4\.0 backend\/tests\/test_\w+\.py::\w+::test_\w+$/.test(c.os2mo ?? ''));
    expect(uncited.map((c) => c.name)).toEqual([]);
  });

  it('lists its deliberate deviations from OS2mo, each with a reason, as many as its documentation does', () => {
    const deviations =
      (document as { 'x-deviations'?: { what?: string; why?: string }[] })['x-deviations'] ?? [];
    expect(deviations.length).toBeGreaterThan(0);
    expect(deviations.filter((deviation) => !deviation.what || !deviation.why)).toEqual([]);
    const page = readFileSync(new URL('../docs/stand-in.md', import.meta.url), 'utf8');
    const section = page.split('## Deliberate deviations from OS2mo 2.4.0')[1]?.split(/\n#{1,3} /)[0] ?? '';
    expect(section.match(/^- /gm)?.length ?? 0).toBe(deviations.length);
  });

  it("demands a bearer token on every /service operation but 2.4.0's login helpers, and answers 401 there", () => {
    const open = operations.filter((operation) => {
      const item = (document.paths[operation.path] ?? {}) as Record<string, { security?: unknown[] }>;
      const security = item[operation.method.toLowerCase()]?.security;
      return (
        operation.path.startsWith('/service') && (security?.length === 0 || !operation.responses.has(401))
      );
    });
    // OS2mo 2.4.0 mounts `keycloak_router()` without its token check (`mora/app.py:223-227`), and its
    // test_service_auth.py::TestEndpointAuthDependency lists both routes among those without one.
    expect(open.map((operation) => `${operation.method} ${operation.path}`).sort()).toEqual([
      'GET /service/keycloak.json',
      'POST /service/token',
    ]);
  });

  it('has every documented status of every operation produced by a case, and no other', () => {
    const mismatches = operations.flatMap((operation) => {
      const documented = [...operation.responses.keys()].sort();
      const exercised = [...new Set(casesOf(operation).map((c) => c.status))].sort();
      return JSON.stringify(documented) === JSON.stringify(exercised)
        ? []
        : [`${operation.operationId}: documented ${documented.join(',')}; exercised ${exercised.join(',')}`];
    });
    expect(mismatches.join('; ')).toBe('');
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
        [...new Set(routes)].filter((route) => !documented.includes(route)).join('; '),
        'routes the document does not describe',
      ).toBe('');
      expect(
        documented.filter((path) => !routes.includes(path)).join('; '),
        'documented operations without a route',
      ).toBe('');
    } finally {
      await legacy.cleanup();
    }
  });
});

describe('the service answers as documented, with authentication on', () => {
  let idp: RunningIdp;
  let auth: LegacyAuthConfig;
  let token: string;
  let shared: TestLegacy;

  /** For setups: every request carries the test user's token. The cases' own requests choose their token. */
  function withToken(legacy: TestLegacy): TestLegacy {
    const request = (path: string, init: RequestInit = {}) =>
      legacy.request(path, {
        ...init,
        headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
      });
    return {
      ...legacy,
      request,
      post: (path, body) =>
        request(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
    };
  }

  beforeAll(async () => {
    idp = await startIdp({ rbacEnabled: true });
    auth = {
      enabled: true,
      issuer: idp.issuer,
      jwksUrl: new URL(idp.jwksUri),
      clockToleranceSeconds: 5,
      jwksCooldownMs: 30_000,
    };
    token = await accessToken(idp.issuer, 'alice');
    shared = await openTestLegacy({ auth });
  });
  afterAll(async () => {
    await shared?.cleanup();
    await idp?.close();
  });

  async function run(method: string, url: string, c: RunnableCase, isolated: boolean): Promise<unknown> {
    const legacy = isolated ? await openTestLegacy({ auth }) : shared;
    try {
      await c.setup?.(withToken(legacy));
      if (c.storeFails) breakStore(legacy.store);
      const response = await legacy.request(
        url,
        requestInit(method, c, c.token === undefined ? token : c.token),
      );
      const text = await response.text();
      expect(response.status, text.slice(0, 500)).toBe(c.status);
      expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
      const body: unknown = JSON.parse(text);
      if (c.status === 401 && c.errorKey === undefined) {
        expect(body).toEqual(notAuthenticated);
      } else if (c.status >= 400 && c.status !== 410 && c.status !== 406) {
        // (2.4.0's removed settings writes answer 410 with the body `false`, and its login's refusals 406 with
        // a sentence, not an error body.)
        expect(body).toMatchObject({ error: true, status: c.status });
        if (c.errorKey) expect((body as { error_key?: unknown }).error_key).toBe(c.errorKey);
      }
      // Joined, so a failure names every difference rather than a count of them.
      if (c.shape)
        expect(shapeProblems(c.shape, body).join('; '), 'key sets and nesting as in OS2mo').toBe('');
      if (c.verify) expect(c.verify(body).join('; ')).toBe('');
      if (c.after) expect((await c.after(withToken(legacy))).join('; '), 'afterwards').toBe('');
      if (c.storeFails) expect(text).not.toContain(injectedFailure);
      return body;
    } finally {
      if (isolated) await legacy.cleanup();
    }
  }

  for (const operation of operations) {
    describe(`${operation.operationId}: ${operation.method} ${operation.path}`, () => {
      for (const c of casesOf(operation)) {
        it(caseTitle(c), async () => {
          const documentedQuery = operation.parameters.filter((p) => p.in === 'query').map((p) => p.name);
          expect(
            [...Object.keys(c.query ?? {}), ...Object.keys(c.repeatedQuery ?? {})].filter(
              (name) => !documentedQuery.includes(name),
            ),
            'query parameters the document does not list',
          ).toEqual([]);
          if (c.status < 300 && c.body !== undefined) {
            expect(operation.requestSchema, 'a body for an operation without one').toBeDefined();
            expect(validator.problems(operation.requestSchema ?? {}, c.body), 'request body').toEqual([]);
          }

          const isolated = operation.method !== 'GET' || c.setup !== undefined || c.storeFails === true;
          const body = await run(operation.method, urlFor(operation, c), c, isolated);

          const schema = operation.responses.get(c.status);
          expect(schema, `status ${c.status} is not documented`).toBeDefined();
          const answerValidator = isFlagSet(c.query?.only_primary_uuid) ? uuidOnlyValidator : validator;
          expect(answerValidator.problems(schema ?? {}, body).join('; '), 'response body').toBe('');
          if (c.status < 300 && !c.empty) {
            expect(isEmptyListing(body), 'an empty listing; mark the case `empty` if that is the point').toBe(
              false,
            );
          }
        });
      }
    });
  }

  it(caseTitle(noSuchEndpoint), async () => {
    const body = await run('GET', '/service/kaflaflibob', noSuchEndpoint, false);
    expect(body).toMatchObject({ error_key: 'E_NO_SUCH_ENDPOINT' });
  });

  it(`[${os2moAuthTests.replace(/^OS2mo 2\.4\.0 backend\/tests\//, 'OS2mo ')}] a token that fails a check → 401`, async () => {
    const forged = `${token.slice(0, token.lastIndexOf('.'))}.${'A'.repeat(86)}`;
    const response = await shared.request('/service/o/', { headers: { authorization: `Bearer ${forged}` } });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ status: 'Unauthorized', msg: expect.any(String) });
  });
});
