import { createServer } from 'node:net';
import { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../errors/gateway-error.js';
import { json, startStubBackend, type StubBackend } from '../legacy/stub-backend.test-helpers.js';
import { graphqlErrorHandler } from './errors.js';
import { answerStubOrg, stubOrg, stubbedVersions, type StubbedVersions } from './stub-org.test-helpers.js';

const managersQuery = `{ org_units(filter: { uuids: ["${stubOrg.unit}"] }) { objects { managers { uuid } } } }`;

describe('legacy failures in a GraphQL answer', () => {
  let backend: StubBackend;
  const opened: StubbedVersions[] = [];
  const versionsFor = (url: string, responseTimeoutMs?: number, legacyCallBudget?: number) => {
    const versions = stubbedVersions({ url }, { responseTimeoutMs, legacyCallBudget });
    opened.push(versions);
    return versions;
  };
  beforeAll(async () => {
    backend = await startStubBackend();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((versions) => versions.close()));
  });
  afterAll(() => backend.close());

  it('keep a business error’s key, sentence and fields, on the field whose read failed', async () => {
    backend.answer((request, response) =>
      request.url.includes('/details/manager')
        ? json(response, 400, {
            error: true,
            status: 400,
            error_key: 'V_DATE_OUTSIDE_UNIT_RANGE',
            description: 'The date is outside the unit’s validity.',
            org_unit_uuid: stubOrg.unit,
          })
        : answerStubOrg(request, response),
    );
    const { status, body } = await versionsFor(backend.url).ask('v2', managersQuery);
    expect(status).toBe(200);
    expect(body.errors).toEqual([
      {
        message: 'The date is outside the unit’s validity.',
        locations: expect.any(Array),
        // The root field reads the manager listings for its units in its own round.
        path: ['org_units'],
        extensions: {
          code: 'BAD_USER_INPUT',
          error_key: 'V_DATE_OUTSIDE_UNIT_RANGE',
          legacy_status: 400,
          org_unit_uuid: stubOrg.unit,
        },
      },
    ]);
  });

  it('say UPSTREAM_TIMEOUT when the legacy service does not answer in time', async () => {
    backend.answer((request, response) => {
      // The manager listing never answers; the client's response timeout ends the wait.
      if (!request.url.includes('/details/manager')) answerStubOrg(request, response);
    });
    const { body } = await versionsFor(backend.url, 200).ask('v2', managersQuery);
    expect(body.errors?.map((error) => [error.message, error.extensions])).toEqual([
      ['The legacy service did not answer in time.', { code: 'UPSTREAM_TIMEOUT' }],
    ]);
  });

  it('say LEGACY_BUDGET_EXCEEDED once when a request wants more legacy calls than it may make', async () => {
    backend.answer(answerStubOrg);
    // One call allowed: the first write gets it, the other two (nullable payloads) each fail for want of one.
    backend.answer((request, response) =>
      request.method === 'POST' ? json(response, 200, stubOrg.unit) : answerStubOrg(request, response),
    );
    const terminate = (alias: string) =>
      `${alias}: org_unit_terminate(input: { uuid: "${stubOrg.unit}", to: "2024-12-31" }) { uuid }`;
    const { body } = await versionsFor(backend.url, undefined, 1).ask(
      'v2',
      `mutation { ${terminate('a')} ${terminate('b')} ${terminate('c')} }`,
    );
    expect(body.data).toEqual({ a: { uuid: stubOrg.unit }, b: null, c: null });
    expect(body.errors?.map((error) => error.extensions?.code)).toEqual(['LEGACY_BUDGET_EXCEEDED']);
    expect(body.errors?.[0]?.message).toMatch(/more legacy calls than one request may make/);
  });

  it('say UPSTREAM_UNAVAILABLE when nothing listens, without the legacy address', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const { body } = await versionsFor(`http://127.0.0.1:${port}`).ask('v2', managersQuery);
    expect(body.errors?.[0]?.extensions).toEqual({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(JSON.stringify(body)).not.toContain(String(port));
  });

  it('say UPSTREAM_UNAVAILABLE when the answer is not the legacy API, and show nothing of it', async () => {
    backend.answer((request, response) => {
      if (!request.url.includes('/details/manager')) return answerStubOrg(request, response);
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>proxy error at 10.1.2.3</html>');
    });
    const { body } = await versionsFor(backend.url).ask('v2', managersQuery);
    expect(body.errors?.[0]?.extensions).toEqual({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(JSON.stringify(body)).not.toContain('10.1.2.3');
  });
});

describe('graphqlErrorHandler, the /graphql routes’ onError', () => {
  const logged: unknown[] = [];
  const app = new Hono()
    .get('/refused', () => {
      throw new GatewayError(401, 'UNAUTHENTICATED', 'A bearer token is required.', {
        errorKey: 'E_UNAUTHORIZED',
        headers: { 'WWW-Authenticate': 'Bearer realm="org"' },
      });
    })
    .get('/broken', () => {
      throw new Error('connect ECONNREFUSED 10.0.0.7:5432');
    })
    .onError(graphqlErrorHandler((_c, error) => logged.push(error)));

  it('writes a gateway error as a GraphQL body with its status and headers', async () => {
    const response = await app.request('/refused');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="org"');
    expect(await response.json()).toEqual({
      errors: [{ message: 'A bearer token is required.', extensions: { code: 'UNAUTHENTICATED' } }],
    });
  });

  it('answers 500 for anything else, logs it and shows nothing of it', async () => {
    const response = await app.request('/broken');
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      errors: [{ message: 'An unexpected error occurred.', extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
    });
    expect(text).not.toContain('10.0.0.7');
    expect(logged).toHaveLength(1);
  });
});
