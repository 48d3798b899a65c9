import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { GENERATED_DIR } from '../idp/src/config.js';
import { createdEmbeddedPostgresDir } from './embedded-postgres-dir.js';
import { accessToken } from './idp-tokens.js';
import { startOs2moLikeBackend, type Os2moLikeBackend } from './os2mo-like-backend.js';
import { freePort, repoRoot, waitForHealth } from './processes.js';
import { os2moReferenceQuery, referenceQuery } from '../gateway/src/graphql/reference-query.js';
import { oscarOwnedUnitUuid, unitUuid } from '../legacy-service/src/fixture/organisation.js';

/**
 * Issue 14, "Done when": the gateway runs against a backend that refuses anonymous calls like OS2mo does
 * (answering OS2mo's shapes and checking tokens) on loopback — started as a new user would, with
 * `LEGACY_URL=… npm start` — and turns ready; the printed reference query works on v1 and v2; `/service`
 * reads work through it; `employees`, `itsystems`, `classes { facet }` and `org_units` read OS2mo's records
 * with optional members absent, without errors; `org_unit_update` works and sends OS2mo's `data.uuid`. RBAC is
 * on: this backend has no reading API (`/api/v1` answers FastAPI's 404, as an OS2mo older than 2.4.0 or a proxy
 * that does not pass it on), so an owner's detail write that names no unit is decided by scanning the units.
 */

/** The environment without anything that would point the stack elsewhere. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(IDP_|GATEWAY_|LEGACY_|DATABASE_|EMBEDDED_POSTGRES_|METRICS_TOKEN$)/.test(name)) env[name] = value;
  }
  return { ...env, LOG_LEVEL: 'warn', ...extra };
}

let backend: Os2moLikeBackend;
let stack: ChildProcess;
let banner = '';
let ports: { legacy: number; idp: number; gateway: number; postgres: number };
let gateway: string;
let token: string;
/** The embedded Postgres's data (in `data`): a folder of the test's own, never the checkout's. */
let postgresDir: string;

beforeAll(async () => {
  ports = {
    legacy: await freePort(),
    idp: await freePort(),
    gateway: await freePort(),
    postgres: await freePort(),
  };
  gateway = `http://127.0.0.1:${ports.gateway}`;
  postgresDir = await mkdtemp(join(tmpdir(), 'os2mo-like-postgres-'));
  // Not a first start: the embedded database is there already (start-command.test.ts sees one created).
  await createdEmbeddedPostgresDir(join(postgresDir, 'data'));
  // The backend trusts the realm `npm start` is about to run: the issuer its tokens carry, its keys.
  backend = await startOs2moLikeBackend({
    issuer: `http://localhost:${ports.idp}/auth/realms/org`,
    jwksUrl: `http://127.0.0.1:${ports.idp}/auth/realms/org/protocol/openid-connect/certs`,
  });
  stack = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: repoRoot,
    env: cleanEnv({
      LEGACY_URL: backend.url,
      // Where a stand-in would listen if one were (wrongly) started.
      LEGACY_PORT: String(ports.legacy),
      IDP_PORT: String(ports.idp),
      GATEWAY_PORT: String(ports.gateway),
      EMBEDDED_POSTGRES_PORT: String(ports.postgres),
      EMBEDDED_POSTGRES_DIR: join(postgresDir, 'data'),
      IDP_RBAC_ENABLED: 'true',
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  stack.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    stack.stdout!.on('data', (chunk: Buffer) => {
      banner += chunk.toString();
      if (banner.includes('Press Ctrl+C to stop.')) resolve();
    });
    stack.once('exit', (code) => reject(new Error(`npm start exited (${code}): ${errors}`)));
  });
  token = await accessToken(`http://127.0.0.1:${ports.idp}/auth/realms/org`, 'alice');
}, 120_000);

afterAll(async () => {
  if (stack && stack.exitCode === null) {
    const exited = new Promise((resolve) => stack.once('exit', resolve));
    stack.kill('SIGTERM');
    await exited;
  }
  await backend?.close();
  if (ports) await rm(join(GENERATED_DIR, `idp-${ports.idp}`), { recursive: true, force: true });
  if (postgresDir) await rm(postgresDir, { recursive: true, force: true });
});

async function graphql(version: string, query: string, variables?: Record<string, unknown>) {
  const response = await fetch(`${gateway}/graphql/${version}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { data?: any; errors?: unknown[] };
}

/** A collection's objects: v2 answers a page `{objects}`, v1 a list of `{uuid, objects}`. */
function objectsOf(collection: any): any[] {
  return Array.isArray(collection) ? collection.flatMap((entry: any) => entry.objects) : collection.objects;
}

/** The requests the backend received for `/service` paths matching `pattern`. */
function received(pattern: RegExp) {
  return backend.received.filter((request) => pattern.test(request.url));
}

describe('LEGACY_URL=… npm start in front of a backend that refuses anonymous calls like OS2mo does', () => {
  it('refuses anonymous calls and redirects /health, as OS2mo does', async () => {
    const anonymous = await fetch(`${backend.url}/service/o/`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toBe('Not authenticated');
    expect((await fetch(`${backend.url}/health`, { redirect: 'manual' })).status).toBe(307);
  });

  it('turns ready, and starts no stand-in', async () => {
    await waitForHealth(`${gateway}/health/ready`);
    const response = await fetch(`${gateway}/health/ready`);
    expect(await response.json()).toEqual({
      status: 'ready',
      checks: { legacy: { status: 'ok' }, signing_keys: { status: 'ok' }, database: { status: 'ok' } },
    });
    expect(banner).toContain('gateway ready');
    expect(banner).toContain(`${backend.url}/service/ (LEGACY_URL; no stand-in started)`);
    expect(banner).not.toMatch(/^\[legacy\]/m);
    await expect(fetch(`http://127.0.0.1:${ports.legacy}/health`)).rejects.toThrow();
  });

  it('prints a reference query over units found at the backend, and it works on v30 and, in their shape, v1 and v2', async () => {
    const line = banner.split('\n').find((candidate) => candidate.trim().startsWith("-d '"));
    expect(line, banner).toBeDefined();
    const printed = JSON.parse(line!.trim().slice(4, -1)) as {
      query: string;
      variables: { uuids: string[] };
    };
    expect(printed.variables.uuids).toHaveLength(3);
    // Found at the backend with a token: the banner asked the gateway, which asked the backend.
    for (const uuid of printed.variables.uuids) {
      const asked = received(new RegExp(`^/service/ou/${uuid}/details/manager`));
      expect(asked.length).toBeGreaterThan(0);
      expect(asked.every((request) => /^Bearer \S+$/.test(request.headers.authorization ?? ''))).toBe(true);
    }
    // The banner prints the query in OS2mo's shape (v30, the newest); v1 and v2 answer the same query in theirs.
    const printedAnswer = await graphql('v30', printed.query, printed.variables);
    expect(printedAnswer.errors).toBeUndefined();
    const current = objectsOf(printedAnswer.data.org_units).map((unit: any) => unit.current);
    expect(current).toHaveLength(3);
    for (const unit of current) expect(unit.managers.length, unit.name).toBeGreaterThan(0);
    for (const version of ['v1', 'v2']) {
      const answer = await graphql(version, referenceQuery, printed.variables);
      expect(answer.errors, version).toBeUndefined();
      const units = objectsOf(answer.data.org_units);
      expect(units, version).toHaveLength(3);
      for (const unit of units) {
        expect(unit.managers.length, `${version} ${unit.name}`).toBeGreaterThan(0);
        expect(typeof unit.managers[0].manager_type.user_key).toBe('string');
      }
    }
  });

  it('answers the reference query in OS2mo’s v30 shape, and v30’s collections, over OS2mo’s records', async () => {
    const line = banner.split('\n').find((candidate) => candidate.trim().startsWith("-d '"));
    const { variables } = JSON.parse(line!.trim().slice(4, -1)) as { variables: { uuids: string[] } };
    const answer = await graphql('v30', os2moReferenceQuery, variables);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.org_units.objects).toHaveLength(3);
    for (const { current } of answer.data.org_units.objects) {
      expect(current.managers.length, current.name).toBeGreaterThan(0);
      expect(typeof current.managers[0].manager_type.user_key).toBe('string');
    }
    const collections = await graphql(
      'v30',
      `
        {
          persons(limit: 5) {
            objects {
              uuid
              current {
                name
                given_name
              }
            }
          }
          itsystems {
            objects {
              current {
                uuid
                name
              }
            }
          }
          org_units(limit: 5) {
            objects {
              current {
                uuid
                name
                validity {
                  from
                  to
                }
              }
            }
          }
        }
      `,
    );
    expect(collections.errors).toBeUndefined();
    expect(collections.data.persons.objects.length).toBeGreaterThan(0);
    expect(collections.data.itsystems.objects.length).toBeGreaterThan(0);
    expect(collections.data.org_units.objects[0].current.validity.from).toMatch(
      /^\d{4}-\d{2}-\d{2}T00:00:00\+0[12]:00$/,
    );
  });

  /** Whether a forwarded call carries the token of the sweep's client, which `npm start` runs as `integration`. */
  const isSweep = (authorization: string | undefined) =>
    authorization?.startsWith('Bearer ') === true && decodeJwt(authorization.slice(7)).azp === 'integration';

  it('passes /service reads through with the caller’s token, and refuses callers without one', async () => {
    const before = backend.received.length;
    const response = await fetch(`${gateway}/service/o/`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    const organisations = (await response.json()) as Array<{ uuid: string }>;
    expect(organisations).toHaveLength(1);
    // npm start's sweep reads the backend as its own client (`integration`) whenever its round comes: not this read.
    const forwarded = backend.received
      .slice(before)
      .filter((request) => request.url === '/service/o/' && !isSweep(request.headers.authorization));
    expect(forwarded.map((request) => request.headers.authorization)).toEqual([`Bearer ${token}`]);
    expect((await fetch(`${gateway}/service/o/`)).status).toBe(401);
  });

  it.each(['v1', 'v2'])(
    'reads employees, IT systems, classes with facets and units from records lacking optional members (%s)',
    async (version) => {
      const paged = version === 'v2' ? '(limit: 100)' : '';
      const answer = await graphql(
        version,
        `{
          employees${paged} { objects { uuid name validity { from to } } }
          itsystems${paged} { objects { uuid name validity { from } } }
          classes${paged} { objects { uuid user_key facet { uuid user_key } } }
          org_units${paged} { objects { uuid name org_unit_level { uuid } validity { from } } }
        }`,
      );
      expect(answer.errors).toBeUndefined();
      const objects = (field: string): any[] => objectsOf(answer.data[field]);
      expect(objects('employees').length).toBeGreaterThan(0);
      expect(objects('employees').every((person) => person.validity === null)).toBe(true);
      expect(objects('itsystems').length).toBeGreaterThan(0);
      expect(objects('itsystems').every((system) => system.validity === null)).toBe(true);
      const facets = objects('classes').map((entry) => entry.facet);
      expect(facets).toContain(null);
      expect(facets.some((facet) => facet !== null && typeof facet.user_key === 'string')).toBe(true);
      expect(objects('org_units').length).toBeGreaterThan(0);
      expect(objects('org_units').every((unit) => unit.org_unit_level === null)).toBe(true);
      expect([...backend.omitted].sort()).toEqual([
        'class.facet',
        'itsystem.validity',
        'person.validity',
        'unit.org_unit_level',
      ]);
    },
  );

  it('edits a unit with org_unit_update, sending OS2mo the unit as data.uuid', async () => {
    const [unit] = (
      await graphql('v2', '{ org_units(limit: 1) { objects { uuid name validity { from } } } }')
    ).data.org_units.objects;
    const before = backend.received.length;
    const today = new Date().toISOString().slice(0, 10);
    const answer = await graphql(
      'v2',
      `
        mutation Rename($uuid: UUID!, $from: Date!) {
          org_unit_update(
            input: { uuid: $uuid, name: "Renamed through the gateway", validity: { from: $from } }
          ) {
            uuid
            object {
              name
            }
          }
        }
      `,
      { uuid: unit.uuid, from: today },
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data.org_unit_update).toEqual({
      uuid: unit.uuid,
      object: { name: 'Renamed through the gateway' },
    });
    const edits = backend.received
      .slice(before)
      .filter((request) => request.method === 'POST' && request.url === '/service/details/edit');
    expect(edits).toHaveLength(1);
    const body = JSON.parse(edits[0]!.body) as any;
    const edit = Array.isArray(body) ? body[0] : body;
    expect(edit.type).toBe('org_unit');
    expect(edit.data.uuid).toBe(unit.uuid);
    expect(edit.data.name).toBe('Renamed through the gateway');
    expect(edits[0]!.headers.authorization).toBe(`Bearer ${token}`);
  });

  it('decides an owner’s detail write by scanning the units, as it serves no reading API', async () => {
    const oscar = await accessToken(`http://127.0.0.1:${ports.idp}/auth/realms/org`, 'oscar');
    const engagementIn = async (unit: string) => {
      const response = await fetch(`${gateway}/service/ou/${unit}/details/engagement`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const [engagement] = (await response.json()) as { uuid: string }[];
      return engagement!.uuid;
    };
    const terminate = async (engagement: string) => {
      const before = backend.received.length;
      const response = await fetch(`${gateway}/service/details/terminate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${oscar}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'engagement', uuid: engagement, validity: { to: '2099-12-31' } }),
      });
      // Not the sweep's reads: its round (a reading-API probe, then the units' listings) may come meanwhile.
      const sent = backend.received
        .slice(before)
        .filter((request) => !isSweep(request.headers.authorization))
        .map((request) => request.url.split('?')[0]!);
      return { status: response.status, sent };
    };
    // oscar owns his unit, not the top one: the first is his to end, the second is not.
    const his = await terminate(await engagementIn(oscarOwnedUnitUuid));
    const notHis = await terminate(await engagementIn(unitUuid(0)));
    expect(his.status).toBe(200);
    expect(notHis.status).toBe(403);
    expect(his.sent).toContain('/service/details/terminate');
    expect(notHis.sent).not.toContain('/service/details/terminate');
    // What RBAC read, before the write (after it, the gateway's record of the backend reads what was written).
    for (const { sent } of [his, notHis]) {
      const write = sent.indexOf('/service/details/terminate');
      const decision = write === -1 ? sent : sent.slice(0, write);
      // The reading API asked once (404), then the units' listings of engagements.
      expect(decision.filter((path) => path.startsWith('/api/v1/'))).toEqual(['/api/v1/engagement/by_uuid']);
      expect(decision.filter((path) => path.endsWith('/details/engagement')).length).toBeGreaterThan(2);
    }
  });
});
