import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TokenError, type TokenVerifier } from '../auth/token-verifier.js';
import { contractOperations } from '../contract/contract-operations.generated.js';
import { parseDeprecationFile } from '../deprecation/deprecation-config.js';
import { createLegacyClient, type LegacyClient } from '../legacy/legacy-client.js';
import { json, startStubBackend, type StubBackend } from '../legacy/stub-backend.test-helpers.js';
import { createRbacPolicy } from '../rbac/rbac-policy.js';
import { serviceDeprecation } from './service-deprecation.js';
import { serviceRoutes } from './service-routes.js';

/** `Bearer <client>`: a token issued to that client (`azp`). */
const verifier: TokenVerifier = {
  verify: async (token) => {
    if (token === 'bad') throw new TokenError({ kind: 'unauthenticated', reason: 'The token has expired.' });
    return { subject: 's', username: 's', clientId: token, roles: ['admin'], employeeUuid: undefined };
  },
  hasKeys: () => true,
};

const operations = contractOperations;
const unit = '0a000000-0000-4000-8000-000000000001';
const guide = 'https://gateway.example/docs/migration';
const settings = parseDeprecationFile(
  `
exemptClients: [payroll-sync]
endpoints:
  - endpoint: GET /service/ou/{uuid}/details/manager
    deprecated: 2026-09-01
    sunset: 2027-03-01
    brownouts:
      - { from: "2027-02-01T09:00:00Z", to: "2027-02-01T10:00:00Z" }
  - endpoint: GET /service/ou/{uuid}/details/kle
    deprecated: 2026-09-01
    sunset: 2026-12-01
    retired: true
  - endpoint: /service/e/*
    deprecated: 2026-10-01
`,
  operations,
);

let backend: StubBackend;
let legacy: LegacyClient;
let now = new Date('2027-01-15T12:00:00Z');
const app = () =>
  serviceRoutes({
    legacy,
    verifier,
    realm: 'org',
    publicUrl: 'https://gateway.example',
    maxBodyBytes: 1000,
    bodyTimeoutMs: 5_000,
    rbac: createRbacPolicy({ enabled: false }),
    deprecation: serviceDeprecation({
      endpoints: settings.endpoints,
      operations,
      guideUrl: guide,
      clock: () => now,
      isToolRequest: (c) => c.req.header('x-test-tool') === 'yes',
    }),
    logUnexpected: () => undefined,
  });
const get = (path: string, client = 'integration') =>
  app().request(path, { headers: { authorization: `Bearer ${client}` } });

beforeAll(async () => {
  backend = await startStubBackend();
  backend.answer((_request, response) => json(response, 200, []));
  legacy = createLegacyClient({
    url: new URL(backend.url),
    connectTimeoutMs: 30_000,
    responseTimeoutMs: 30_000,
    auth: { mode: 'none' },
  });
});
afterAll(async () => {
  await legacy.close();
  await backend.close();
});
beforeEach(() => {
  backend.received.length = 0;
  now = new Date('2027-01-15T12:00:00Z');
});

const signals = (response: Response) => ({
  deprecation: response.headers.get('deprecation'),
  sunset: response.headers.get('sunset'),
  link: response.headers.get('link'),
});

describe('serviceDeprecation', () => {
  it('adds Deprecation, Sunset and Link to the deprecated endpoint only', async () => {
    const deprecated = await get(`/service/ou/${unit}/details/manager`);
    expect(deprecated.status).toBe(200);
    expect(signals(deprecated)).toEqual({
      deprecation: `@${Date.parse('2026-09-01T00:00:00Z') / 1000}`,
      sunset: 'Mon, 01 Mar 2027 00:00:00 GMT',
      link: `<${guide}>; rel="deprecation"; type="text/html", <${guide}>; rel="sunset"; type="text/html"`,
    });

    for (const path of [`/service/ou/${unit}/details/engagement`, `/service/ou/${unit}/`, '/service/o/']) {
      const other = await get(path);
      expect(other.status).toBe(200);
      expect(signals(other)).toEqual({ deprecation: null, sunset: null, link: null });
    }
    expect(backend.received).toHaveLength(4);
  });

  it('answers 410 during a brownout, naming the replacement and the sunset, without calling the backend', async () => {
    now = new Date('2027-02-01T09:30:00Z');
    const response = await get(`/service/ou/${unit}/details/manager`);
    expect(response.status).toBe(410);
    expect(response.headers.get('retry-after')).toBe(String(30 * 60));
    expect(response.headers.get('deprecation')).not.toBeNull();
    expect(await response.json()).toEqual({
      error: true,
      status: 410,
      error_key: 'E_GONE',
      description:
        'GET /service/ou/{uuid}/details/manager is switched off for a scheduled brownout until 2027-02-01T10:00:00.000Z, ahead of its sunset on 2027-03-01T00:00:00.000Z. Use the GraphQL query `org_units(filter: {uuids: [$uuid]}) { objects { current { managers_response { objects { current { uuid user_key validity { from to } manager_type_response { current { user_key } } manager_level_response { current { user_key } } responsibilities_response { objects { current { user_key } } } person_response { current { uuid name } } org_unit_response { current { uuid name } } } } } } } }` on /graphql/v30 (or, deprecated, the GraphQL query `org_units(filter: { uuids: [$uuid] }) { objects { managers { uuid user_key validity { from to } manager_type { user_key } manager_level { user_key } responsibility { user_key } employee { uuid name } org_unit { uuid name } } } }` on /graphql/v2) instead; the migration guide is at https://gateway.example/docs/migration.',
      reason: 'brownout',
      // v30's query (OS2mo's shape, the one the coverage report proves) first, then the deprecated v2 one.
      replacement:
        'the GraphQL query `org_units(filter: {uuids: [$uuid]}) { objects { current { managers_response { objects { current { uuid user_key validity { from to } manager_type_response { current { user_key } } manager_level_response { current { user_key } } responsibilities_response { objects { current { user_key } } } person_response { current { uuid name } } org_unit_response { current { uuid name } } } } } } } }` on /graphql/v30 (or, deprecated, the GraphQL query `org_units(filter: { uuids: [$uuid] }) { objects { managers { uuid user_key validity { from to } manager_type { user_key } manager_level { user_key } responsibility { user_key } employee { uuid name } org_unit { uuid name } } } }` on /graphql/v2)',
      sunset: '2027-03-01T00:00:00.000Z',
      brownout_ends: '2027-02-01T10:00:00.000Z',
      migration_guide: guide,
    });
    expect(backend.received).toHaveLength(0);
  });

  it('spares an exempt client during a brownout, and leaves other endpoints working', async () => {
    now = new Date('2027-02-01T09:30:00Z');
    const exempt = await get(`/service/ou/${unit}/details/manager`, 'payroll-sync');
    expect(exempt.status).toBe(200);
    expect(exempt.headers.get('deprecation')).not.toBeNull();
    expect((await get(`/service/ou/${unit}/details/engagement`)).status).toBe(200);
    expect(backend.received.map((request) => request.url)).toEqual([
      `/service/ou/${unit}/details/manager`,
      `/service/ou/${unit}/details/engagement`,
    ]);
  });

  it('serves normally outside the window: just before it starts and from the moment it ends', async () => {
    for (const at of ['2027-02-01T08:59:59Z', '2027-02-01T10:00:00Z']) {
      now = new Date(at);
      expect((await get(`/service/ou/${unit}/details/manager`)).status).toBe(200);
    }
  });

  it('answers a retired endpoint 410 always, exempt clients included, while the rest of /service works', async () => {
    for (const client of ['integration', 'payroll-sync']) {
      const response = await get(`/service/ou/${unit}/details/kle`, client);
      expect(response.status).toBe(410);
      expect(response.headers.get('retry-after')).toBeNull();
      expect(await response.json()).toMatchObject({
        error_key: 'E_GONE',
        reason: 'retired',
        description: expect.stringMatching(
          /^GET \/service\/ou\/\{uuid\}\/details\/kle has been switched off\. Use the GraphQL query `org_units\(filter: \{uuids: \[\$uuid\]\}\) \{ objects \{ current \{ kles_response \{ objects \{ current \{ .*\} \} \} \} \} \} \}` on \/graphql\/v30 \(or, deprecated, .* on \/graphql\/v2\) instead/,
        ),
        sunset: '2026-12-01T00:00:00.000Z',
      });
    }
    expect((await get(`/service/ou/${unit}/details/manager`)).status).toBe(200);
    expect(backend.received).toHaveLength(1);
  });

  it("leaves the comparison tools' road open through a retirement", async () => {
    const tool = await app().request(`/service/ou/${unit}/details/kle`, {
      headers: { authorization: 'Bearer integration', 'x-test-tool': 'yes' },
    });
    expect(tool.status).toBe(200);
    expect(tool.headers.get('deprecation')).not.toBeNull();
  });

  it('applies a prefix to every endpoint under it, each naming its own replacement', async () => {
    const person = await get(`/service/e/${unit}/details/engagement`);
    expect(person.status).toBe(200);
    expect(person.headers.get('deprecation')).toBe(`@${Date.parse('2026-10-01T00:00:00Z') / 1000}`);
    expect(person.headers.get('sunset')).toBeNull();
    expect(person.headers.get('link')).toBe(`<${guide}>; rel="deprecation"; type="text/html"`);
    const write = await app().request('/service/e/create', {
      method: 'POST',
      headers: { authorization: 'Bearer integration', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(write.headers.get('deprecation')).not.toBeNull();
  });

  it("keeps the backend's own Link header beside the deprecation links", async () => {
    backend.answer((_request, response) => {
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': '2',
        link: '<https://legacy.example/page/2>; rel="next"',
      });
      response.end('[]');
    });
    try {
      const response = await get(`/service/ou/${unit}/details/manager`);
      expect(response.headers.get('link')).toBe(
        `<https://legacy.example/page/2>; rel="next", <${guide}>; rel="deprecation"; type="text/html", <${guide}>; rel="sunset"; type="text/html"`,
      );
    } finally {
      backend.answer((_request, response) => json(response, 200, []));
    }
  });

  it('still refuses a bad token before anything else', async () => {
    now = new Date('2027-02-01T09:30:00Z');
    expect((await get(`/service/ou/${unit}/details/manager`, 'bad')).status).toBe(401);
  });
});

describe('serviceDeprecation, whatever the spelling of the path (routed-path.ts)', () => {
  const spelled = parseDeprecationFile(
    `
endpoints:
  - endpoint: GET /service/ou/{uuid}/details/manager
    deprecated: 2026-09-01
    brownouts:
      - { from: "2027-02-01T09:00:00Z", to: "2027-02-01T10:00:00Z" }
  - endpoint: GET /service/e/{uuid}/
    deprecated: 2026-09-01
    retired: true
  - endpoint: POST /service/details/create
    deprecated: 2026-09-01
    retired: true
  - endpoint: GET /service/o/*
    deprecated: 2026-09-01
    brownouts:
      - { from: "2027-02-01T09:00:00Z", to: "2027-02-01T10:00:00Z" }
`,
    operations,
  );
  const spelledApp = () =>
    serviceRoutes({
      legacy,
      verifier,
      realm: 'org',
      publicUrl: 'https://gateway.example',
      maxBodyBytes: 1000,
      bodyTimeoutMs: 5_000,
      rbac: createRbacPolicy({ enabled: false }),
      deprecation: serviceDeprecation({
        endpoints: spelled.endpoints,
        operations,
        guideUrl: guide,
        clock: () => now,
      }),
      logUnexpected: () => undefined,
    });
  const send = (method: string, path: string) =>
    spelledApp().request(path, {
      method,
      headers: { authorization: 'Bearer integration', 'content-type': 'application/json' },
      ...(method === 'POST' ? { body: '{}' } : {}),
    });

  it.each([
    ['GET', `/service/ou/${unit}/details/manager/`],
    ['HEAD', `/service/ou/${unit}/details/manager`],
    ['GET', `/service/ou/${unit.toUpperCase()}/details/manager`],
    ['GET', '/service/o'],
    ['GET', `/service/o/${unit}/e`],
  ])('refuses %s %s during a brownout', async (method, path) => {
    now = new Date('2027-02-01T09:30:00Z');
    expect((await send(method, path)).status).toBe(410);
    expect(backend.received).toHaveLength(0);
  });

  it.each([
    ['GET', `/service/e/${unit}/`],
    ['GET', `/service/e/${unit}`],
    ['HEAD', `/service/e/${unit}`],
    ['HEAD', `/service/e/${unit}/`],
    ['POST', '/service/details/create'],
    ['POST', '/service/details/create/'],
  ])('refuses the retired %s %s without calling the backend', async (method, path) => {
    expect((await send(method, path)).status).toBe(410);
    expect(backend.received).toHaveLength(0);
  });
});
