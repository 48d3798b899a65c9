import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TokenVerifier } from '../auth/token-verifier.js';
import { readGatewayConfig } from '../config.js';
import { noDeprecationFile, parseDeprecationFile } from '../deprecation/deprecation-config.js';
import { createLegacyClient, type LegacyClient } from '../legacy/legacy-client.js';
import { startStubBackend, type StubBackend } from '../legacy/stub-backend.test-helpers.js';
import { createRbacPolicy } from '../rbac/rbac-policy.js';
import { answerStubOrg } from './stub-org.test-helpers.js';
import { gatewayVersionsDeprecatedSince, versionDeprecations } from './version-deprecation.js';
import { versionRoutes } from './version-routes.js';
import { buildVersions } from './versions.js';
import { createVersionServer } from './yoga.js';

const guideUrl = 'https://gateway.example/docs/migration';

describe('versionDeprecations', () => {
  it("deprecates v1 and v2 by default once one of OS2mo's versions is served, pointing at the newest", () => {
    const notices = versionDeprecations({
      settings: noDeprecationFile,
      served: ['v1', 'v2', 'v21', 'v30'],
      guideUrl,
    });
    expect([...notices.keys()]).toEqual(['v1', 'v2']);
    expect(notices.get('v1')).toMatchObject({
      name: 'GraphQL v1',
      replacement: '/graphql/v30',
      headers: {
        Deprecation: `@${gatewayVersionsDeprecatedSince.getTime() / 1000}`,
        Link: `<${guideUrl}>; rel="deprecation"; type="text/html"`,
      },
    });
    expect(notices.get('v1')?.headers).not.toHaveProperty('Sunset');
  });

  it("deprecates nothing by default while only the gateway's own versions are served", () => {
    expect(versionDeprecations({ settings: noDeprecationFile, served: ['v1', 'v2'], guideUrl }).size).toBe(0);
  });

  it('lets the file set the dates of a default, or switch the default off', () => {
    const operations = [{ operationId: 'x', method: 'GET' as const, path: '/service/o/', summary: '' }];
    const dated = parseDeprecationFile(
      'versions: [{ version: v2, deprecated: 2026-12-01, sunset: 2027-06-01 }]',
      operations,
    );
    const notices = versionDeprecations({ settings: dated, served: ['v1', 'v2', 'v30'], guideUrl });
    expect(notices.get('v2')?.headers.Sunset).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
    expect(notices.get('v1')?.rule.deprecated).toEqual(gatewayVersionsDeprecatedSince);
    const off = parseDeprecationFile('deprecateGatewayVersions: false', operations);
    expect(versionDeprecations({ settings: off, served: ['v1', 'v2', 'v30'], guideUrl }).size).toBe(0);
  });

  it('refuses a listed version that is not served, naming DEPRECATION_CONFIG', () => {
    const settings = parseDeprecationFile('versions: [{ version: v7, deprecated: 2026-12-01 }]', []);
    expect(() => versionDeprecations({ settings, served: ['v1', 'v2'], guideUrl })).toThrow(
      'DEPRECATION_CONFIG: versions[0].version: v7 is not served (served: v1, v2)',
    );
  });
});

/** `Bearer <client>`: a token issued to that client (`azp`). */
const verifier: TokenVerifier = {
  verify: async (token) => ({
    subject: 's',
    username: 's',
    clientId: token,
    roles: [],
    employeeUuid: undefined,
  }),
  hasKeys: () => true,
};

describe('versionRoutes with a deprecated version', () => {
  let backend: StubBackend;
  let legacy: LegacyClient;
  let app: ReturnType<typeof versionRoutes>;
  let now: Date;
  beforeAll(async () => {
    backend = await startStubBackend();
    backend.answer(answerStubOrg);
    legacy = createLegacyClient({
      url: new URL(backend.url),
      connectTimeoutMs: 30_000,
      responseTimeoutMs: 30_000,
      auth: { mode: 'none' },
    });
    const settings = parseDeprecationFile(
      `
exemptClients: [payroll-sync]
deprecateGatewayVersions: false
versions:
  - version: v1
    deprecated: 2026-09-01
    sunset: 2027-03-01
    brownouts: [{ from: "2027-02-01T09:00:00Z", to: "2027-02-01T10:00:00Z" }]
  - version: v22
    deprecated: 2026-09-01
    retired: true
`,
      [],
    );
    const built = buildVersions();
    const deprecations = versionDeprecations({
      settings,
      served: built.map((version) => version.name),
      guideUrl,
    });
    const defaults = readGatewayConfig({});
    app = versionRoutes({
      versions: built.map((version) => ({
        version,
        server: createVersionServer(version, {
          legacy,
          legacyCallBudget: 100,
          upstreamTrace: false,
          introspection: true,
          hardening: { limits: defaults.graphqlLimits, fieldSuggestions: false },
          rbac: createRbacPolicy({ enabled: false }),
          deprecation: deprecations.get(version.name),
        }),
      })),
      removedVersions: [],
      migrationGuideUrl: guideUrl,
      deprecations,
      clock: () => now,
      verifier,
      realm: 'org',
      maxBodyBytes: 10_000,
      bodyTimeoutMs: 10_000,
      graphiqlPage: () => '',
      logUnexpected: () => undefined,
    });
  });
  afterAll(async () => {
    await legacy.close();
    await backend.close();
  });
  beforeEach(() => {
    now = new Date('2027-01-15T12:00:00Z');
    backend.received.length = 0;
  });

  const ask = (version: string, client = 'integration') =>
    app.request(`/graphql/${version}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${client}` },
      body: JSON.stringify({ query: '{ org { name } }' }),
    });

  it('answers a deprecated version with the headers and extensions.deprecations; the other with neither', async () => {
    const deprecated = await ask('v1');
    expect(deprecated.status).toBe(200);
    expect(deprecated.headers.get('deprecation')).toBe(`@${Date.parse('2026-09-01T00:00:00Z') / 1000}`);
    expect(deprecated.headers.get('sunset')).toBe('Mon, 01 Mar 2027 00:00:00 GMT');
    expect(deprecated.headers.get('link')).toContain('rel="deprecation"');
    expect(await deprecated.json()).toMatchObject({
      data: { org: { name: 'Org' } },
      extensions: {
        deprecations: [
          {
            kind: 'version',
            version: 'v1',
            deprecated: '2026-09-01T00:00:00.000Z',
            sunset: '2027-03-01T00:00:00.000Z',
            replacement: '/graphql/v30',
            migration_guide: guideUrl,
          },
        ],
      },
    });
    const current = await ask('v2');
    expect(current.headers.get('deprecation')).toBeNull();
    expect(await current.json()).toEqual({ data: { org: { name: 'Org' } } });
  });

  it('answers 410 with a GraphQL error during a brownout, except to an exempt client', async () => {
    now = new Date('2027-02-01T09:15:00Z');
    const refused = await ask('v1');
    expect(refused.status).toBe(410);
    expect(refused.headers.get('retry-after')).toBe(String(45 * 60));
    expect(await refused.json()).toEqual({
      errors: [
        {
          message:
            'GraphQL v1 is switched off for a scheduled brownout until 2027-02-01T10:00:00.000Z, ahead of its sunset on 2027-03-01T00:00:00.000Z. Use /graphql/v30 instead; the migration guide is at https://gateway.example/docs/migration.',
          extensions: {
            code: 'GONE',
            reason: 'brownout',
            replacement: '/graphql/v30',
            sunset: '2027-03-01T00:00:00.000Z',
            brownout_ends: '2027-02-01T10:00:00.000Z',
            migration_guide: guideUrl,
          },
        },
      ],
    });
    expect(backend.received).toHaveLength(0);
    expect((await ask('v1', 'payroll-sync')).status).toBe(200);
    expect((await ask('v2')).status).toBe(200);
  });

  it.each([
    ['POST', '/graphql/v22'],
    ['GET', '/graphql/v22?query=%7Bversion%7D'],
    ['GET', '/graphql/v22/schema.graphql'],
    ['HEAD', '/graphql/v22/schema.graphql'],
    ['POST', '/graphql/v22/schema.graphql'],
    ['GET', '/graphql/v22/'],
  ])('answers a retired version 410 on %s %s, token or none', async (method, path) => {
    for (const authorization of ['Bearer integration', undefined]) {
      const response = await app.request(path, {
        method,
        headers: {
          'content-type': 'application/json',
          ...(authorization ? { authorization } : {}),
        },
        ...(method === 'POST'
          ? { body: JSON.stringify({ query: '{ __schema { queryType { name } } }' }) }
          : {}),
      });
      expect(response.status).toBe(410);
      if (method !== 'HEAD') {
        expect(await response.json()).toMatchObject({
          errors: [{ extensions: { code: 'GONE', reason: 'retired' } }],
        });
      }
    }
    expect((await app.request('/graphql/v21/schema.graphql')).status).toBe(200);
  });

  it('refuses an introspection POST to schema.graphql during a brownout, as the version itself', async () => {
    now = new Date('2027-02-01T09:15:00Z');
    const response = await app.request('/graphql/v1/schema.graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer integration' },
      body: JSON.stringify({ query: '{ __schema { queryType { name } } }' }),
    });
    expect(response.status).toBe(410);
  });
});
