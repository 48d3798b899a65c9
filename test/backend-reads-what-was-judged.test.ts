import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  classUuid,
  oscarOwnedUnitUuid,
  organisationUuid,
  unitUuid,
} from '../legacy-service/src/fixture/organisation.js';
import { startTestStack, type TestStack } from './stack.js';
import { startUvicornLikeBackend, type UvicornLikeBackend } from './uvicorn-like-backend.js';

/**
 * Issue 35, items 1, 2 and 8 of the red team's findings, on real servers: the gateway (RBAC on, a retired
 * endpoint, CPR numbers for a role no one has) in front of a backend that reads requests as OS2mo on
 * uvicorn does (`uvicorn-like-backend.ts`), over the legacy stand-in. Each case sends what got through
 * and checks what the backend received: nothing, for a request the gateway could not judge as the
 * backend reads it.
 */

const oscar = '0dbddb2e-6dd2-4081-bf5a-484b7018914f';
const nora = '9eec79c8-1f4b-4ceb-b424-51e2c9288e06';
/** A unit oscar does not own (below Children and Youth, not the Mayor's Office). */
const notHis = unitUuid(8);

const folder = mkdtempSync(join(tmpdir(), 'backend-reads-'));
const deprecationFile = join(folder, 'deprecation.yaml');
writeFileSync(
  deprecationFile,
  `
endpoints:
  - endpoint: GET /service/e/{uuid}/
    deprecated: "2020-01-01T00:00:00Z"
    retired: true
  - endpoint: POST /service/details/create
    deprecated: "2020-01-01T00:00:00Z"
    retired: true
`,
);

let stack: TestStack;
let backend: UvicornLikeBackend;
const tokens = { alice: '', oscar: '', nora: '' };
let person: { uuid: string; cpr_no: string };

beforeAll(async () => {
  stack = await startTestStack({
    gatewayEnv: { DEPRECATION_CONFIG: deprecationFile, CPR_READ_ROLES: 'cpr_reader' },
    legacyFront: async (legacyUrl) => (backend = await startUvicornLikeBackend(legacyUrl)),
  });
  for (const who of ['alice', 'oscar', 'nora'] as const) tokens[who] = await stack.token(who);
  const people = (await (await stack.legacyFetch(`/service/o/${organisationUuid}/e/?limit=50`)).json()) as {
    items: { uuid: string; cpr_no?: string }[];
  };
  person = people.items.find((item) => item.cpr_no) as typeof person;
}, 60_000);
afterAll(() => stack?.close());
beforeEach(() => {
  backend.received.length = 0;
});

const send = (who: keyof typeof tokens, method: string, path: string, body?: BodyInit) =>
  fetch(`${stack.gatewayUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${tokens[who]}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
  });

/** What the backend received, as it routed it (the decoded path). */
const reached = () => backend.received.map((request) => `${request.method} ${request.path}`);
/** The writes among them (RBAC's ownership reads go to the backend too). */
const writes = () => reached().filter((line) => !line.startsWith('GET '));

/** The unit as an admin reads it straight from the legacy stand-in on `at`. */
const unitAt = async (uuid: string, at: string) =>
  (await stack.legacyFetch(`/service/ou/${uuid}/?at=${at}`)).status;

const utf16le = (text: string) => Buffer.from(text, 'utf16le');
const utf16beWithBom = (text: string) => Buffer.from(Buffer.from(`\uFEFF${text}`, 'utf16le').swap16());
const utf32le = (text: string) => {
  const out = Buffer.alloc(text.length * 4);
  [...text].forEach((char, index) => out.writeUInt32LE(char.codePointAt(0)!, index * 4));
  return out;
};

describe('the stand-in reads as OS2mo on uvicorn does', () => {
  it('routes a decoded %2F and reads NaN and UTF-16 bodies', async () => {
    const direct = await fetch(`${backend.url}/service/e%2F${person.uuid}/`, {
      headers: { authorization: `Bearer ${tokens.alice}` },
    });
    expect(direct.status).toBe(200);
    expect(((await direct.json()) as { cpr_no: string }).cpr_no).toBe(person.cpr_no);
    expect(reached()).toEqual([`GET /service/e/${person.uuid}/`]);
    const unit = {
      name: 'Read as Python reads it',
      parent: { uuid: oscarOwnedUnitUuid },
      org_unit_type: { uuid: classUuid('org_unit_type', 'office') },
      validity: { from: '2027-01-01' },
    };
    const created = await fetch(`${backend.url}/service/ou/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.alice}` },
      body: utf16le(`${JSON.stringify(unit).slice(0, -1)}, "x": NaN, "y": -Infinity}`),
    });
    expect(created.status).toBe(201);
    expect(backend.received[1]!.json).toEqual({ ...unit, x: Number.NaN, y: -Infinity });
  });
});

describe('a /service body the gateway cannot parse strictly (item 1)', () => {
  const terminate = '{"validity": {"to": "2030-01-01"}, "note": NaN}';
  const bodies: [string, BodyInit][] = [
    ['NaN', terminate],
    ['Infinity', '{"validity": {"to": "2030-01-01"}, "note": Infinity}'],
    ['-Infinity', '{"validity": {"to": "2030-01-01"}, "note": [-Infinity]}'],
    ['UTF-16LE without a BOM', utf16le('{"validity": {"to": "2030-01-01"}}')],
    ['UTF-16BE with a BOM', utf16beWithBom('{"validity": {"to": "2030-01-01"}}')],
    ['UTF-32LE', utf32le('{"validity": {"to": "2030-01-01"}}')],
  ];

  it.each(bodies)(
    'is refused with 400 before an owner terminates a unit he does not own: %s',
    async (_name, body) => {
      const response = await send('oscar', 'POST', `/service/ou/${notHis}/terminate`, body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error_key: 'E_INVALID_INPUT', status: 400 });
      expect(writes()).toEqual([]);
      expect(await unitAt(notHis, '2031-01-01')).toBe(200);
    },
  );

  it('is refused before an owner moves a unit he does not own under his own', async () => {
    const move = `{"type": "org_unit", "data": {"uuid": "${notHis}", "parent": {"uuid": "${oscarOwnedUnitUuid}"}, "validity": {"from": "2027-01-01"}}, "x": NaN}`;
    const response = await send('oscar', 'POST', '/service/details/edit', move);
    expect(response.status).toBe(400);
    expect(reached()).toEqual([]);
    const unit = (await (await stack.legacyFetch(`/service/ou/${notHis}/?at=2027-06-01`)).json()) as {
      parent: { uuid: string } | null;
    };
    expect(unit.parent?.uuid).not.toBe(oscarOwnedUnitUuid);
  });

  it('is refused for every role, an admin and a user without a role too, and for any method', async () => {
    for (const who of ['alice', 'nora'] as const) {
      const response = await send(who, 'POST', `/service/ou/${notHis}/terminate`, terminate);
      expect(response.status).toBe(400);
    }
    expect((await send('alice', 'PUT', `/service/ou/${notHis}/terminate`, utf16le('{}'))).status).toBe(400);
    expect(reached()).toEqual([]);
    expect(await unitAt(notHis, '2031-01-01')).toBe(200);
  });

  it('forwards a form unread, and refuses it to an owner: no rule of his reads a form', async () => {
    const form = (who: keyof typeof tokens, path: string) =>
      fetch(`${stack.gatewayUrl}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tokens[who]}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ type: 'org_unit', uuid: notHis }).toString(),
      });
    // Python's form parser and ours are never asked to agree: the write is refused on the role alone.
    expect((await form('oscar', `/service/ou/${notHis}/terminate`)).status).toBe(403);
    expect((await form('nora', '/service/details/terminate')).status).toBe(403);
    expect(reached()).toEqual([]);
    // OS2mo 2.4.0's one form, its login helper, reaches the backend.
    await form('alice', '/service/token');
    expect(reached()).toEqual(['POST /service/token']);
  });

  it('still forwards strict JSON as the bytes sent', async () => {
    const body = `{ "validity": {"to": "2030-01-01"} ,"name":"Ærø ✓" }`;
    const refused = await send('oscar', 'POST', `/service/ou/${notHis}/terminate`, body);
    expect(refused.status).toBe(403);
    const created = await stack.legacyFetch('/service/ou/create', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'To end',
        parent: { uuid: oscarOwnedUnitUuid },
        org_unit_type: { uuid: classUuid('org_unit_type', 'office') },
        validity: { from: '2025-01-01' },
      }),
    });
    const fresh = (await created.json()) as string;
    const allowed = await send('oscar', 'POST', `/service/ou/${fresh}/terminate`, body);
    expect(allowed.status).toBe(200);
    expect(backend.received.filter((request) => request.method === 'POST').map((r) => r.json)).toEqual([
      JSON.parse(body),
    ]);
  });
});

describe('a percent-encoded separator in a /service path (item 2)', () => {
  it('answers the canonical paths as configured: retired, and CPR look-ups for the role only', async () => {
    expect((await send('alice', 'GET', `/service/e/${person.uuid}/`)).status).toBe(410);
    expect((await send('alice', 'GET', `/service/e/cpr_lookup/?q=${person.cpr_no}`)).status).toBe(403);
    expect((await send('alice', 'POST', '/service/details/create', '{}')).status).toBe(410);
    expect(reached()).toEqual([]);
  });

  it.each([
    ['a retired read (switch-off)', 'GET', () => `/service/e%2F${person.uuid}/`],
    ['a retired read, lower-case', 'GET', () => `/service/e%2f${person.uuid}/`],
    ['the gated CPR look-up', 'GET', () => `/service/e%2Fcpr_lookup/?q=${person.cpr_no}`],
    ['the CPR look-up with an encoded letter', 'GET', () => `/service/e/cpr%5Flookup/?q=${person.cpr_no}`],
    ['a retired write', 'POST', () => '/service/details%2Fcreate'],
    ['an encoded backslash', 'GET', () => `/service/e%5C${person.uuid}/`],
    ['an encoded semicolon', 'GET', () => `/service/e/${person.uuid}%3B/`],
  ])('is refused with 400 E_INVALID_PATH and reaches nothing: %s', async (_name, method, path) => {
    const body =
      method === 'POST'
        ? JSON.stringify({ type: 'kle', org_unit: { uuid: notHis }, validity: { from: '2027-01-01' } })
        : undefined;
    const response = await send('alice', method, path(), body);
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ error_key: 'E_INVALID_PATH' });
    expect(text).not.toContain(person.cpr_no);
    expect(reached()).toEqual([]);
  });
  it('leaves no usage under "unmatched": a refused spelling is no one\'s call of an endpoint', async () => {
    for (const path of ['/service/details%2Fcreate', `/service/e%2F${person.uuid}/`]) {
      expect((await send('alice', 'POST', path, '{}')).status).toBe(400);
    }
    const metrics = await (await fetch(`${stack.gatewayUrl}/metrics`)).text();
    const unmatched = metrics
      .split('\n')
      .filter((line) => line.startsWith('gateway_usage_requests_total') && line.includes('"unmatched"'));
    expect(unmatched).toEqual([]);
    expect(reached()).toEqual([]);
  });

  it('resolves dot segments before routing, so the endpoint judged is the one forwarded', async () => {
    // Sent as written (fetch would resolve them first): URL parsing in the gateway resolves `..` and `%2E%2E`.
    for (const path of ['/service/x/%2E%2E/details/create', '/service/x/../details/create']) {
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const url = new URL(stack.gatewayUrl);
        const outgoing = request(
          {
            host: url.hostname,
            port: url.port,
            method: 'POST',
            path,
            headers: { authorization: `Bearer ${tokens.alice}`, 'content-type': 'application/json' },
          },
          (answer) => {
            answer.resume();
            resolve(answer.statusCode);
          },
        );
        outgoing.once('error', reject);
        outgoing.end('{}');
      });
      expect(status, path).toBe(410);
    }
    expect(reached()).toEqual([]);
  });
});

describe('a one-value query parameter given twice', () => {
  // Starlette takes a repeated parameter's last value (FastAPI reads `query_params.get`), URLSearchParams its
  // first: the gateway would judge "Ahmed" while the backend searched for the CPR number.
  it.each([
    [
      'a person search carrying a CPR number second',
      () => `/service/o/${organisationUuid}/e/?query=Ahmed&query=${person.cpr_no}`,
    ],
    ['a date read twice', () => `/service/ou/${notHis}/?at=2020-01-01&at=2030-01-01`],
  ])('is refused with 400 E_INVALID_QUERY and reaches nothing: %s', async (_name, path) => {
    const response = await send('alice', 'GET', path());
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ error_key: 'E_INVALID_QUERY' });
    expect(text).not.toContain(person.cpr_no);
    expect(reached()).toEqual([]);
  });

  it('passes the parameters OS2mo 2.4.0 reads as lists', async () => {
    const response = await send(
      'alice',
      'GET',
      `/service/ou/ancestor-tree?uuid=${notHis}&uuid=${oscarOwnedUnitUuid}`,
    );
    expect(response.status).not.toBe(400);
    expect(reached()).toEqual(['GET /service/ou/ancestor-tree']);
  });
});

describe('the records an ou/create carries (item 8)', () => {
  const office = classUuid('org_unit_type', 'office');
  const create = (details: unknown[]) =>
    JSON.stringify({
      name: 'Carrier',
      parent: { uuid: oscarOwnedUnitUuid },
      org_unit_type: { uuid: office },
      validity: { from: '2027-01-01' },
      details,
    });
  const ownersOf = async (unit: string) =>
    (
      (await (await stack.legacyFetch(`/service/ou/${unit}/details/owner?validity=future`)).json()) as {
        owner: { uuid: string } | null;
      }[]
    ).map((record) => record.owner?.uuid);

  it('are judged: an owner cannot carry an owner record of another unit that names him', async () => {
    const response = await send(
      'oscar',
      'POST',
      '/service/ou/create',
      create([
        {
          type: 'owner',
          org_unit: { uuid: notHis },
          owner: { uuid: oscar },
          validity: { from: '2027-01-01' },
        },
      ]),
    );
    expect(response.status).toBe(403);
    expect(((await response.json()) as { description: string }).description).toContain(notHis);
    expect(writes()).toEqual([]);
    expect(await ownersOf(notHis)).not.toContain(oscar);
  });

  it('are made when each is his to make: a record of the new unit', async () => {
    const response = await send(
      'oscar',
      'POST',
      '/service/ou/create',
      create([{ type: 'owner', owner: { uuid: nora }, validity: { from: '2027-01-01' } }]),
    );
    expect(response.status).toBe(201);
    const unit = (await response.json()) as string;
    expect(writes()).toEqual(['POST /service/ou/create']);
    expect(await ownersOf(unit)).toEqual([nora]);
  });
});
