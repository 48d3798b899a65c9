import type { DestinationStream } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organisationUuid } from '../legacy-service/src/fixture/organisation.js';
import type { CprReadPolicy } from '../gateway/src/cpr/cpr-policy.js';
import { createLogger } from '../gateway/src/observability/index.js';
import { startGateway, type RunningGateway } from '../gateway/src/server.js';
import { startTestStack, type TestStack } from './stack.js';

/**
 * CPR numbers on `/service` (issue 28, item 4): every answer that carries them is on record, on the read
 * lane and in the app alike, and with `CPR_READ_ROLES` only the roles it names are served them.
 */
interface Gateway {
  running: RunningGateway;
  log: Record<string, any>[];
}

let stack: TestStack;
let open: Gateway;
let restricted: Gateway;
const tokens: Record<string, string> = {};
let person: { uuid: string; cpr_no: string };

async function gatewayWith(cprReads: CprReadPolicy): Promise<Gateway> {
  const log: Record<string, any>[] = [];
  const destination: DestinationStream = { write: (line: string) => void log.push(JSON.parse(line)) };
  const running = await startGateway({
    logger: createLogger({ level: 'info', destination }),
    config: (port) => ({ ...stack.gateway.config, port, cprReads }),
    serviceReadLane: true,
  });
  return { running, log };
}

beforeAll(async () => {
  // RBAC on: tokens then carry their roles (reads are never restricted by it).
  stack = await startTestStack({ rbacEnabled: true });
  for (const who of ['alice', 'nora']) tokens[who] = await stack.token(who);
  const people = (await (await stack.legacyFetch(`/service/o/${organisationUuid}/e/?limit=5`)).json()) as {
    items: { uuid: string; cpr_no: string }[];
  };
  person = people.items.find((item) => item.cpr_no)!;
  open = await gatewayWith({ roles: undefined, clients: undefined });
  restricted = await gatewayWith({ roles: ['admin'], clients: undefined });
});
afterAll(async () => {
  await open?.running.close();
  await restricted?.running.close();
  await stack?.close();
});

/** One read: the lane takes it unless `Origin` sends it through the app (CORS). */
async function read(gateway: Gateway, who: string, path: string, road: 'lane' | 'app', requestId?: string) {
  const before = gateway.running.serviceReadsServed() ?? 0;
  gateway.log.length = 0;
  const response = await fetch(`${gateway.running.url}${path}`, {
    headers: {
      authorization: `Bearer ${tokens[who]}`,
      ...(road === 'app' ? { origin: 'https://elsewhere.example' } : {}),
      ...(requestId ? { 'x-request-id': requestId } : {}),
    },
  });
  const text = await response.text();
  expect(gateway.running.serviceReadsServed()).toBe(before + (road === 'lane' ? 1 : 0));
  const cprLines = gateway.log.filter((line) => line.cpr_read);
  // The numbers are never written to the log.
  expect(JSON.stringify(gateway.log)).not.toContain(person.cpr_no);
  return {
    status: response.status,
    text,
    body: JSON.parse(text),
    cprLines,
    responseId: response.headers.get('x-request-id'),
  };
}

describe.each(['lane', 'app'] as const)('CPR numbers on /service (%s)', (road) => {
  it('logs one line per answer with the count and the subjects, for a reader with no role', async () => {
    const limit = 1000;
    const listed = await read(open, 'nora', `/service/o/${organisationUuid}/e/?limit=${limit}`, road);
    expect(listed.status).toBe(200);
    const withNumbers = (listed.body.items as { uuid: string; cpr_no?: string }[]).filter(
      (item) => item.cpr_no,
    );
    expect(withNumbers.length).toBeGreaterThan(1);
    expect(listed.cprLines).toEqual([
      expect.objectContaining({
        msg: 'CPR numbers read',
        cpr_read: expect.objectContaining({
          road: 'service',
          endpoint: 'GET /service/o/{org}/e/',
          count: withNumbers.length,
          subjects: withNumbers.map((item) => item.uuid),
          client_request_id: null,
        }),
      }),
    ]);
    // Without a client id the gateway's own id is the request's, the one the access line and answer carry.
    expect(listed.cprLines[0]!.cpr_read.gateway_request_id).toBe(listed.responseId);
  });

  it('logs a single person read, with or without the trailing slash, and keeps the gateway’s id apart from the client’s', async () => {
    for (const path of [`/service/e/${person.uuid}/`, `/service/e/${person.uuid}`]) {
      const one = await read(open, 'nora', path, road, 'chosen-by-client');
      expect(one.body.cpr_no).toBe(person.cpr_no);
      expect(one.cprLines).toHaveLength(1);
      expect(one.cprLines[0]!.cpr_read).toMatchObject({
        count: 1,
        subjects: [person.uuid],
        client_request_id: 'chosen-by-client',
        subject: expect.any(String),
      });
      expect(one.cprLines[0]!.cpr_read.gateway_request_id).not.toBe('chosen-by-client');
    }
  });

  it('logs nothing for an answer that cannot carry a number', async () => {
    const units = await read(open, 'nora', `/service/o/${organisationUuid}/ou/?limit=5`, road);
    expect(units.status).toBe(200);
    expect(units.cprLines).toEqual([]);
  });

  it('with CPR_READ_ROLES: serves the numbers to the role only; others get the answer without them', async () => {
    const byAdmin = await read(restricted, 'alice', `/service/e/${person.uuid}/`, road);
    expect(byAdmin.body.cpr_no).toBe(person.cpr_no);
    expect(byAdmin.cprLines).toHaveLength(1);
    const withheld = await read(restricted, 'nora', `/service/e/${person.uuid}/`, road);
    expect(withheld.status).toBe(200);
    expect(withheld.body).toMatchObject({ uuid: person.uuid });
    expect(withheld.body).not.toHaveProperty('cpr_no');
    const listed = await read(restricted, 'nora', `/service/o/${organisationUuid}/e/?limit=1000`, road);
    expect(listed.text).not.toContain('cpr_no');
    expect(listed.body.items.length).toBeGreaterThan(1);
    expect([withheld.cprLines, listed.cprLines]).toEqual([[], []]);
    const lookup = await read(restricted, 'nora', `/service/e/cpr_lookup/?q=${person.cpr_no}`, road);
    expect(lookup.status).toBe(403);
    expect(lookup.body).toMatchObject({ error_key: 'E_FORBIDDEN' });
    expect(lookup.text).not.toContain(person.cpr_no);
  });
});

// OS2mo 2.4.0's reading API answers people in full (`mora/api/v1/models.py`, `Employee.cpr_no`): its reads are
// on record like `/service`'s, through the app (the read lane takes `/service` only).
describe('CPR numbers on /api/v1', () => {
  it('logs one line for a person read by UUID, and withholds the number from a reader without the role', async () => {
    const read1 = await read(open, 'nora', `/api/v1/employee/by_uuid?uuid=${person.uuid}`, 'app');
    expect(read1.status).toBe(200);
    expect(read1.body[0].cpr_no).toBe(person.cpr_no);
    expect(read1.cprLines).toHaveLength(1);
    expect(read1.cprLines[0]!.cpr_read).toMatchObject({
      endpoint: 'GET /api/v1/employee/by_uuid',
      count: read1.body.length,
      subjects: read1.body.map(() => person.uuid),
    });
    const withheld = await read(restricted, 'nora', `/api/v1/employee/by_uuid?uuid=${person.uuid}`, 'app');
    expect(withheld.status).toBe(200);
    expect(withheld.body[0]).toMatchObject({ uuid: person.uuid });
    expect(withheld.text).not.toContain('cpr_no');
    expect(withheld.cprLines).toEqual([]);
  });
});
