import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenError, type TokenVerifier } from '../auth/token-verifier.js';
import { startStubBackend, type StubBackend } from '../legacy/stub-backend.test-helpers.js';
import { answerStubOrg, stubOrg, stubbedVersions, type StubbedVersions } from './stub-org.test-helpers.js';
import { versionRoutes } from './version-routes.js';

const verifier: TokenVerifier = {
  verify: async (token) => {
    if (token === 'idp-down') {
      throw new TokenError({ kind: 'unavailable', reason: 'The identity provider cannot be reached.' });
    }
    if (token !== 'good') throw new TokenError({ kind: 'unauthenticated', reason: 'The token has expired.' });
    return {
      subject: 'alice',
      username: 'alice',
      clientId: 'test',
      roles: ['admin'],
      employeeUuid: undefined,
    };
  },
  hasKeys: () => true,
};

let backend: StubBackend;
let stubbed: StubbedVersions;
let app: ReturnType<typeof versionRoutes>;
beforeAll(async () => {
  backend = await startStubBackend();
  backend.answer(answerStubOrg);
  stubbed = stubbedVersions(backend);
  app = versionRoutes({
    versions: stubbed.versions,
    removedVersions: ['v0'],
    migrationGuideUrl: 'https://gateway.example/docs/migration',
    verifier,
    realm: 'org',
    maxBodyBytes: 1000,
    bodyTimeoutMs: 10_000,
    graphiqlPage: (version) => `<title>GraphiQL ${version}</title>`,
    logUnexpected: () => undefined,
  });
});
afterAll(async () => {
  await stubbed.close();
  await backend.close();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('versionRoutes', () => {
  it('runs an authenticated query on its version', async () => {
    const response = await post(
      '/graphql/v2',
      { query: `{ org_units(filter: { uuids: ["${stubOrg.unit}"] }) { objects { name } } }` },
      { authorization: 'Bearer good' },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { org_units: { objects: [{ name: 'Finance' }] } } });
  });

  it('refuses a missing token with 401, a challenge and a GraphQL body, in the media type asked for', async () => {
    const plain = await post('/graphql/v2', { query: '{ __typename }' });
    expect(plain.status).toBe(401);
    expect(plain.headers.get('www-authenticate')).toBe('Bearer realm="org"');
    expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await plain.json()).toEqual({
      errors: [
        {
          message: 'A bearer token is required: send "Authorization: Bearer <access token>".',
          extensions: { code: 'UNAUTHENTICATED' },
        },
      ],
    });
    const negotiated = await post(
      '/graphql/v2',
      { query: '{ __typename }' },
      { accept: 'application/json;q=0.9, application/graphql-response+json' },
    );
    expect(negotiated.headers.get('content-type')).toMatch(/^application\/graphql-response\+json/);
    const refused = await post(
      '/graphql/v2',
      { query: '{ __typename }' },
      { accept: 'application/graphql-response+json;q=0, application/json' },
    );
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('says 503 AUTH_UNAVAILABLE with Retry-After when no signing key can be had', async () => {
    const response = await post(
      '/graphql/v2',
      { query: '{ __typename }' },
      { authorization: 'Bearer idp-down' },
    );
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect((await response.json()).errors[0].extensions).toEqual({ code: 'AUTH_UNAVAILABLE' });
  });

  it('refuses a body declared over the limit with 413 before the token is checked', async () => {
    const body = JSON.stringify({ query: `{ __typename } #${'x'.repeat(2000)}` });
    const response = await post('/graphql/v2', body, { 'content-length': String(body.length) });
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
    expect((await response.json()).errors[0].extensions).toEqual({ code: 'PAYLOAD_TOO_LARGE', limit: 1000 });
  });

  it('reads a body of unknown length only for a good token, and refuses it over the limit', async () => {
    const body = JSON.stringify({ query: `{ __typename } #${'x'.repeat(2000)}` });
    expect((await post('/graphql/v2', body)).status).toBe(401);
    const response = await post('/graphql/v2', body, { authorization: 'Bearer good' });
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
  });

  it('says 404 for a version that never existed and 410 for a removed one, with where to go', async () => {
    const unknown = await post('/graphql/v9', { query: '{ __typename }' });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).errors[0].extensions).toEqual({
      code: 'VERSION_NOT_FOUND',
      versions: ['v1', 'v2', 'v21', 'v22', 'v23', 'v24', 'v25', 'v26', 'v27', 'v28', 'v29', 'v30'],
    });
    const removed = await post('/graphql/v0', { query: '{ __typename }' });
    expect(removed.status).toBe(410);
    expect(await removed.json()).toEqual({
      errors: [
        {
          message: 'GraphQL v0 has been removed. Move to /graphql/v30 using the migration guide.',
          extensions: {
            code: 'VERSION_REMOVED',
            migration_guide: 'https://gateway.example/docs/migration',
            versions: ['v1', 'v2', 'v21', 'v22', 'v23', 'v24', 'v25', 'v26', 'v27', 'v28', 'v29', 'v30'],
          },
        },
      ],
    });
  });

  it('serves the schema to GET and answers other methods 405 with Allow', async () => {
    const schema = await app.request('/graphql/v1/schema.graphql');
    expect(schema.status).toBe(200);
    expect(await schema.text()).toContain('type Query');
    const put = await app.request('/graphql/v1/schema.graphql', { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
    expect((await put.json()).errors[0]).toEqual({
      message: 'The schema is read with GET or HEAD, or introspected with POST, not PUT.',
      extensions: { code: 'METHOD_NOT_ALLOWED' },
    });
    // POST is for an introspection query, with a token like the version's endpoint.
    const introspected = await post(
      '/graphql/v1/schema.graphql',
      { query: '{ __schema { queryType { name } } }' },
      { authorization: 'Bearer good' },
    );
    expect(introspected.status).toBe(200);
    expect((await introspected.json()).data).toEqual({ __schema: { queryType: { name: 'Query' } } });
    const anonymous = await post('/graphql/v1/schema.graphql', {
      query: '{ __schema { queryType { name } } }',
    });
    expect(anonymous.status).toBe(401);
    const deleted = await app.request('/graphql/v1', { method: 'DELETE' });
    expect(deleted.status).toBe(405);
    expect(deleted.headers.get('allow')).toBe('GET, POST');
  });

  it('sends /graphql to the newest version, and refuses queries without a version', async () => {
    const redirect = await app.request('/graphql');
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('/graphql/v30');
    const unversioned = await post('/graphql', { query: '{ __typename }' });
    expect(unversioned.status).toBe(404);
    expect((await unversioned.json()).errors[0].extensions.code).toBe('VERSION_REQUIRED');
  });
});
