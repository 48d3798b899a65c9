import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { describe, expect, it } from 'vitest';
import type { GatewayVariables } from '../auth/bearer-auth.js';
import type { Principal } from '../auth/token-verifier.js';
import { createLegacyClient, type LegacyClient } from '../legacy/legacy-client.js';
import {
  json,
  startStubBackend,
  type StubHandler,
  type StubRequest,
} from '../legacy/stub-backend.test-helpers.js';
import { createRbacPolicy, type RbacPolicy } from './rbac-policy.js';
import type { WriteIntent } from './write-intent.js';
import { legacyErrorHandler } from '../errors/legacy-error-body.js';
import { judgedBody, strictJsonBody } from '../http/judged-body.js';
import { serviceRbac } from './service-rbac.js';

const owner: Principal = {
  subject: 's',
  username: 'olga',
  clientId: 'org-frontend',
  roles: ['owner'],
  employeeUuid: '00000000-0000-4000-8000-000000000011',
};
const noRole: Principal = { ...owner, roles: [] };

/** A policy that decides owners by a fixed answer and records the intents it was asked about. */
function stubPolicy(allowed: boolean) {
  const seen: WriteIntent[][] = [];
  const real = createRbacPolicy({ enabled: true });
  const policy: RbacPolicy = {
    ...real,
    decide: async (_principal, intents) => {
      seen.push([...intents]);
      return { allowed, reason: allowed ? 'ok' : 'You may not do that: test.' };
    },
  };
  return { policy, seen };
}

/**
 * bearer stand-in → body limit → strict body → RBAC → a "legacy service" that records the bytes the
 * passthrough would forward (the judged ones).
 */
function app(principal: Principal, policy: RbacPolicy, legacy = {} as LegacyClient) {
  const received: { method: string; path: string; bytes: Uint8Array }[] = [];
  const hono = new Hono<{ Variables: GatewayVariables }>();
  hono.use('/service/*', async (c, next) => {
    c.set('principal', principal);
    await next();
  });
  hono.use('/service/*', bodyLimit({ maxSize: 1024, onError: (c) => c.text('too large', 413) }));
  hono.use('/service/*', strictJsonBody());
  // With the stub policy the reads are never made.
  hono.use('/service/*', serviceRbac({ policy, legacy }));
  hono.all('/service/*', async (c) => {
    const bytes = (await judgedBody(c)).bytes ?? new Uint8Array();
    received.push({ method: c.req.method, path: c.req.path, bytes });
    return c.json('written', 201);
  });
  // As in serviceRoutes(): refusals are thrown, and the route family writes the legacy body.
  hono.onError(legacyErrorHandler(() => undefined));
  return { hono, received };
}

const send = (
  hono: Hono<{ Variables: GatewayVariables }>,
  path: string,
  body: BodyInit | null,
  method = 'POST',
) => hono.request(path, { method, body, headers: { 'content-type': 'application/json' } });

describe('serviceRbac', () => {
  it('hands the legacy service the same bytes it decided on', async () => {
    const { policy, seen } = stubPolicy(true);
    const { hono, received } = app(owner, policy);
    const text =
      '  { "type": "org_unit", "uuid": "00000000-0000-4000-8000-000000000004",\n "data": { "uuid": "00000000-0000-4000-8000-000000000004", "name": "Ærø ✓", "validity": { "from": "2026-01-01" } } }  ';
    const bytes = new TextEncoder().encode(text);
    const response = await send(hono, '/service/details/edit', bytes);
    expect(response.status).toBe(201);
    expect(received).toHaveLength(1);
    expect(Buffer.from(received[0]!.bytes).equals(Buffer.from(bytes))).toBe(true);
    expect(seen).toEqual([
      [{ kind: 'change_unit', unit: '00000000-0000-4000-8000-000000000004', date: '2026-01-01' }],
    ]);
  });

  it('answers 403 E_FORBIDDEN with the reason and sends nothing on', async () => {
    const { policy } = stubPolicy(false);
    const { hono, received } = app(owner, policy);
    const response = await send(
      hono,
      '/service/ou/create',
      JSON.stringify({ validity: { from: '2026-01-01' } }),
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error: true,
      status: 403,
      error_key: 'E_FORBIDDEN',
      description: 'You may not do that: test.',
    });
    expect(received).toEqual([]);
  });

  it('refuses every write of a user without a role, whatever the body, without reading units', async () => {
    const { policy, seen } = stubPolicy(true);
    const { hono, received } = app(noRole, policy);
    for (const body of [JSON.stringify({ validity: { from: '2026-01-01' } }), null]) {
      const response = await send(hono, '/service/ou/create', body);
      expect(response.status).toBe(403);
      expect(((await response.json()) as { description: string }).description).toMatch(/admin role/);
    }
    expect(await (await send(hono, '/service/anything', null, 'DELETE')).json()).toMatchObject({
      status: 403,
    });
    expect(received).toEqual([]);
    expect(seen).toEqual([]);
  });

  // Issue 35, item 1: what JSON.parse could not read went on undecided, and OS2mo's json.loads reads NaN,
  // Infinity and UTF-16/32. Now a body is parsed once, strictly, before any role is looked at.
  it.each<[string, Principal]>([
    ['an owner', owner],
    ['a user without a role', noRole],
  ])('refuses a body that is not strict JSON from %s with 400, and sends nothing on', async (_who, who) => {
    const { policy, seen } = stubPolicy(true);
    const { hono, received } = app(who, policy);
    const bodies: [BodyInit, string][] = [
      ['{ not json', 'it is not JSON (at character 2)'],
      ['{"validity": {"to": "2026-01-01"}, "x": NaN}', 'NaN and Infinity'],
      ['\uFEFF{"validity": {"to": "2026-01-01"}}', 'byte order mark'],
      [Buffer.from('{"validity": {"to": "2026-01-01"}}', 'utf16le'), 'UTF-16 or UTF-32'],
      ['{"uuid": "a", "uuid": "b"}', 'appears twice'],
    ];
    for (const [body, problem] of bodies) {
      const response = await send(hono, '/service/ou/00000000-0000-4000-8000-000000000004/terminate', body);
      expect(response.status).toBe(400);
      const answer = (await response.json()) as { error_key: string; description: string };
      expect(answer.error_key).toBe('E_INVALID_INPUT');
      expect(answer.description).toContain(problem);
    }
    expect(received).toEqual([]);
    expect(seen).toEqual([]);
  });

  it('refuses a body whose headers say it is not plain UTF-8, for every role', async () => {
    for (const who of [owner, noRole]) {
      const { policy, seen } = stubPolicy(true);
      const { hono, received } = app(who, policy);
      for (const headers of <Record<string, string>[]>[
        { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        { 'content-type': 'application/json; charset="UTF-16"' },
      ]) {
        const response = await hono.request('/service/ou/create', { method: 'POST', headers, body: '{}' });
        expect(response.status).toBe(400);
        expect(((await response.json()) as { description: string }).description).toMatch(/Send UTF-8 JSON/);
      }
      expect(received).toEqual([]);
      expect(seen).toEqual([]);
    }
    const { policy, seen } = stubPolicy(true);
    const { hono, received } = app(owner, policy);
    const utf8 = { 'content-type': 'application/json; charset=utf-8', 'content-encoding': 'identity' };
    expect(
      (await hono.request('/service/ou/create', { method: 'POST', headers: utf8, body: '{}' })).status,
    ).toBe(201);
    expect(received).toHaveLength(1);
    expect(seen).toHaveLength(1);
  });

  it('decides an owner’s write without a body too, rather than passing it on', async () => {
    const { policy, seen } = stubPolicy(false);
    const { hono, received } = app(owner, policy);
    expect((await send(hono, '/service/ou/create', null)).status).toBe(403);
    expect(seen).toEqual([[{ kind: 'unreadable', problem: 'the body must be a JSON object' }]]);
    expect(received).toEqual([]);
  });

  it('answers 502 when the legacy service cannot answer the ownership reads, and writes nothing', async () => {
    const unreachable = createLegacyClient({
      url: new URL('http://127.0.0.1:9'),
      connectTimeoutMs: 30_000,
      responseTimeoutMs: 30_000,
    });
    try {
      const { hono, received } = app(owner, createRbacPolicy({ enabled: true }), unreachable);
      const response = await send(
        hono,
        '/service/ou/create',
        JSON.stringify({ parent: { uuid: owner.employeeUuid }, validity: { from: '2026-01-01' } }),
      );
      expect(response.status).toBe(502);
      expect(await response.json()).toMatchObject({ status: 502, error_key: 'E_UPSTREAM_UNAVAILABLE' });
      expect(received).toEqual([]);
    } finally {
      await unreachable.close();
    }
  });

  it('never restricts reads, and never reads a body past the limit', async () => {
    const { policy, seen } = stubPolicy(false);
    const { hono, received } = app(noRole, policy);
    expect((await send(hono, '/service/o/', null, 'GET')).status).toBe(201);
    expect((await send(hono, '/service/o/', null, 'HEAD')).status).toBe(201);
    expect(received.map((request) => request.method)).toEqual(['GET', 'HEAD']);
    const owned = app(owner, policy);
    const huge = await send(owned.hono, '/service/ou/create', 'x'.repeat(4096));
    expect(huge.status).toBe(413);
    expect(owned.received).toEqual([]);
    expect(seen).toEqual([]);
  });
});

/**
 * One write by the owner in request `requestId` through serviceRbac, whose `policy` reads through a real legacy
 * client from a stub backend answering `backend`: the write's status (201 when RBAC lets it through) and the
 * requests the backend received. The backend and the client are closed after.
 */
async function writeOverBackend(
  backend: StubHandler,
  policy: RbacPolicy,
  write: { requestId: string; path: string; body: unknown },
) {
  const stub = await startStubBackend();
  stub.answer(backend);
  const legacy = createLegacyClient({
    url: new URL(stub.url),
    connectTimeoutMs: 30_000,
    responseTimeoutMs: 30_000,
    auth: { mode: 'none' },
  });
  try {
    const hono = new Hono<{ Variables: GatewayVariables }>();
    hono.use('/service/*', async (c, next) => {
      c.set('principal', owner);
      c.set('requestId', write.requestId);
      await next();
    });
    hono.use('/service/*', serviceRbac({ policy, legacy }));
    hono.all('/service/*', (c) => c.json('written', 201));
    const response = await send(hono, write.path, JSON.stringify(write.body));
    return { status: response.status, received: stub.received };
  } finally {
    await legacy.close();
    await stub.close();
  }
}

describe('serviceRbac look-ups', () => {
  it("carry the request's id to the backend, as every legacy call of the request does", async () => {
    const policy: RbacPolicy = {
      ...createRbacPolicy({ enabled: true }),
      decide: async (_principal, _intents, { reads, today }) => {
        await reads.orgUnit('00000000-0000-4000-8000-000000000004', today);
        return { allowed: true, reason: 'ok' };
      },
    };
    const { status, received } = await writeOverBackend(
      (_request, response) => json(response, 200, { uuid: 'u', name: 'Unit' }),
      policy,
      {
        requestId: 'write-42',
        path: '/service/ou/create',
        body: { parent: { uuid: '00000000-0000-4000-8000-000000000004' }, validity: { from: '2026-01-01' } },
      },
    );
    expect(status).toBe(201);
    expect(received.length).toBeGreaterThan(0);
    for (const request of received) expect(request.headers['x-request-id']).toBe('write-42');
  });
});

/**
 * A backend with one top unit `top` (owned by the owner) and its unit `sub`, which holds engagement
 * `engaged`; with `readingApi`, it serves OS2mo 2.4.0's `/api/v1/engagement/by_uuid`, else it answers that
 * path as an older OS2mo does (`404 {"detail": "Not Found"}`, FastAPI's).
 */
function smallOrganisation(readingApi: boolean) {
  const organisation = '00000000-0000-4000-8000-000000000100';
  const top = '00000000-0000-4000-8000-000000000101';
  const sub = '00000000-0000-4000-8000-000000000102';
  const engaged = '00000000-0000-4000-8000-000000000103';
  const engagement = {
    uuid: engaged,
    org_unit: { uuid: sub },
    person: { uuid: '00000000-0000-4000-8000-000000000104' },
    validity: { from: '2020-01-01', to: null },
  };
  const handler: StubHandler = (request, response) => {
    const [path, query = ''] = request.url.split('?');
    const params = new URLSearchParams(query);
    if (path === '/service/o/') return json(response, 200, [{ uuid: organisation }]);
    if (path === `/service/o/${organisation}/ou/`) {
      return json(response, 200, { total: 2, offset: 0, items: [{ uuid: top }, { uuid: sub }] });
    }
    if (path === `/service/ou/${top}/`) return json(response, 200, { uuid: top, parent: null });
    if (path === `/service/ou/${sub}/`) {
      return json(response, 200, { uuid: sub, parent: { uuid: top, parent: null } });
    }
    if (path === `/service/ou/${top}/details/owner`) {
      return json(response, 200, [
        { uuid: 'o', owner: { uuid: owner.employeeUuid }, org_unit: { uuid: top } },
      ]);
    }
    if (path === `/service/ou/${sub}/details/engagement` && params.get('validity') !== 'future') {
      return json(response, 200, [engagement]);
    }
    if (/^\/service\/ou\/[^/]+\/details\/[a-z_]+$/.test(path!)) return json(response, 200, []);
    if (readingApi && path === '/api/v1/engagement/by_uuid') {
      return json(response, 200, params.getAll('uuid').includes(engaged) ? [engagement] : []);
    }
    return json(response, 404, { detail: 'Not Found' });
  };
  return { handler, engaged };
}

describe('serviceRbac finding a detail the write does not place', () => {
  const terminate = (readingApi: boolean) => {
    const organisation = smallOrganisation(readingApi);
    return writeOverBackend(organisation.handler, createRbacPolicy({ enabled: true }), {
      requestId: 'write-43',
      path: '/service/details/terminate',
      body: { type: 'engagement', uuid: organisation.engaged, validity: { to: '2026-12-31' } },
    });
  };
  const paths = (received: StubRequest[]) => received.map((request) => request.url.split('?')[0]!);

  it('reads it by UUID where the backend serves the reading API: one call, through the request’s legacy access', async () => {
    const { status, received } = await terminate(true);
    expect(status).toBe(201);
    const lookups = received.filter((request) => request.url.startsWith('/api/v1/'));
    expect(lookups.map((request) => request.url)).toEqual([
      '/api/v1/engagement/by_uuid?uuid=00000000-0000-4000-8000-000000000103&at=2026-12-31&validity=2026-12-31%2Finfinity',
    ]);
    expect(
      paths(received).filter((path) => path.endsWith('/details/engagement') || path.endsWith('/ou/')),
    ).toEqual([]);
    for (const request of received) expect(request.headers['x-request-id']).toBe('write-43');
  });

  it('scans the units where it does not, after one 404, and decides alike', async () => {
    const { status, received } = await terminate(false);
    expect(status).toBe(201);
    const all = paths(received);
    expect(all.filter((path) => path.startsWith('/api/v1/'))).toEqual(['/api/v1/engagement/by_uuid']);
    // Two unit pages (the date and today) and two listings (present, future) of each of the two units.
    expect(all.filter((path) => path.endsWith('/ou/'))).toHaveLength(2);
    expect(all.filter((path) => path.endsWith('/details/engagement'))).toHaveLength(2 * 2);
  });
});

describe('serviceRbac on the routes OS2mo 2.4.0 serves its frontend', () => {
  it('passes the validate/* checks of any token on as reads, and judges any other spelling as a write', async () => {
    const { policy, seen } = stubPolicy(false);
    const { hono, received } = app(noRole, policy);
    const check = JSON.stringify({
      cpr_no: '0101011234',
      org: { uuid: '00000000-0000-4000-8000-000000000001' },
    });
    for (const path of ['/service/validate/cpr/', '/service/validate/candidate-parent-org-unit']) {
      expect((await send(hono, path, check)).status, path).toBe(201);
    }
    expect(received.map((request) => request.path)).toEqual([
      '/service/validate/cpr/',
      '/service/validate/candidate-parent-org-unit',
    ]);
    for (const path of ['/service/validate/cpr/x', '/service/validate/CPR', '/service/validate/']) {
      expect((await send(hono, path, check)).status, path).toBe(403);
    }
    expect(received).toHaveLength(2);
    expect(seen).toEqual([]);
  });

  it("refuses an owner's class write (POST /service/f/{facet}/) and an unknown write path: admin only", async () => {
    const policy = createRbacPolicy({ enabled: true });
    const { hono, received } = app(owner, policy);
    const classWrite = await send(
      hono,
      '/service/f/engagement_job_function/',
      JSON.stringify({ name: 'Jurist', user_key: 'BVN', org_uuid: '00000000-0000-4000-8000-000000000001' }),
    );
    expect(classWrite.status).toBe(403);
    expect(((await classWrite.json()) as { description: string }).description).toBe(
      'You may not write a class in facet engagement_job_function: a class, which every org unit may use, needs the admin role.',
    );
    const unknown = await send(hono, '/service/ou/00000000-0000-4000-8000-000000000004/refresh', '{}');
    expect(unknown.status).toBe(403);
    expect(((await unknown.json()) as { description: string }).description).toMatch(
      /is not a write endpoint of \/service, and a write RBAC cannot read needs the admin role/,
    );
    expect(received).toEqual([]);
    const admin = app({ ...owner, roles: ['admin'] }, policy);
    expect((await send(admin.hono, '/service/f/engagement_job_function/', '{}')).status).toBe(201);
    expect((await send(admin.hono, '/service/something/new', '{}')).status).toBe(201);
  });
});
