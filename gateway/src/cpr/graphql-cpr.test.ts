import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, startStubBackend, type StubBackend } from '../legacy/stub-backend.test-helpers.js';
import { createLogger } from '../observability/logger.js';
import { createGatewayMetrics } from '../observability/metrics.js';
import { createObservability } from '../observability/observability.js';
import {
  answerStubOrg,
  stubOrg,
  stubbedVersions,
  type StubbedVersions,
} from '../graphql/stub-org.test-helpers.js';

/**
 * CPR numbers on GraphQL (issue 28, item 4): v1/v2's `cpr_lookup` probes are on record (hit or miss,
 * never the number) and weigh in the cost; with `CPR_READ_ROLES` a reader without the role gets v21–v30's
 * `cpr_number` as null and no lookup; every line carries the gateway's request id beside the client's.
 */
let backend: StubBackend;
let open: StubbedVersions;
let restricted: StubbedVersions;
const lines: Record<string, any>[] = [];
const cpr = '0101701234';
const unknownCpr = '0202702345';
const lookups: string[] = [];

beforeAll(async () => {
  backend = await startStubBackend();
  backend.answer((request, response) => {
    const [path, query] = request.url.split('?');
    if (path === '/service/e/cpr_lookup/') {
      lookups.push(request.url);
      if (query === `q=${cpr}`) return json(response, 200, { name: 'Anne Hansen', cpr_no: cpr });
      return json(response, 404, {
        error: true,
        status: 404,
        error_key: 'E_NOT_FOUND',
        description: 'No one.',
      });
    }
    if (path === `/service/e/${stubOrg.person}/`) {
      return json(response, 200, { uuid: stubOrg.person, name: 'Anne Hansen', cpr_no: cpr });
    }
    return answerStubOrg(request, response);
  });
  const logger = createLogger({
    level: 'info',
    destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
  });
  const observability = createObservability({
    logger,
    metrics: createGatewayMetrics({ processMetrics: false }),
  });
  open = stubbedVersions(backend, { observability });
  restricted = stubbedVersions(backend, {
    observability,
    cprReads: { roles: ['cpr-reader'], clients: undefined },
  });
});
afterAll(async () => {
  await open.close();
  await restricted.close();
  await backend.close();
});
beforeEach(() => {
  lines.length = 0;
  lookups.length = 0;
});

const probe = (number: string, alias = 'found') => `${alias}: cpr_lookup(cpr_number: "${number}") { name }`;

describe('cpr_lookup in v1 and v2', () => {
  it.each(['v1', 'v2'])('%s logs each probe with its hit, never the number', async (version) => {
    const { body } = await open.ask(version, `{ ${probe(cpr)} ${probe(unknownCpr, 'missed')} }`, {
      headers: { 'x-request-id': 'client-chosen' },
    });
    expect(body.data.found).toEqual({ name: 'Anne Hansen' });
    const probes = lines.filter((line) => line.cpr_lookup).map((line) => line.cpr_lookup);
    expect(probes.map((line) => line.hit).sort()).toEqual([false, true]);
    for (const line of probes) {
      expect(line).toMatchObject({
        road: 'graphql',
        subject: 'admin',
        client: 'test',
        client_request_id: 'client-chosen',
      });
      expect(line.gateway_request_id).toMatch(/^[0-9a-f-]{36}$/);
    }
    // One request, one gateway id.
    expect(new Set(probes.map((line) => line.gateway_request_id)).size).toBe(1);
    expect(JSON.stringify(lines)).not.toContain(cpr);
    expect(JSON.stringify(lines)).not.toContain(unknownCpr);
  });

  it('weighs in the query cost: 30 probes in one request are refused before any lookup', async () => {
    const many = Array.from({ length: 30 }, (_, index) => probe(String(1000000000 + index), `p${index}`));
    const { body } = await open.ask('v2', `{ ${many.join(' ')} }`);
    expect(body.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COMPLEX');
    expect(lookups).toEqual([]);
  });

  it('with CPR_READ_ROLES, is refused to a reader without the role, before any lookup', async () => {
    const { body } = await restricted.ask('v2', `{ ${probe(cpr)} }`);
    expect(body.data).toEqual({ found: null });
    expect(body.errors).toMatchObject([{ extensions: { code: 'FORBIDDEN' } }]);
    expect(lookups).toEqual([]);
  });
});

describe('cpr_number in v21–v30', () => {
  const read = `query($uuid: UUID!) { persons(filter: {uuids: [$uuid]}) { objects { current { name cpr_number } } } }`;

  it('carries the gateway’s own request id beside the client’s in each line', async () => {
    const { body } = await open.ask('v30', read, {
      variables: { uuid: stubOrg.person },
      headers: { 'x-request-id': 'client-chosen' },
    });
    expect(body.data.persons.objects[0].current.cpr_number).toBe(cpr);
    const [line] = lines.filter((entry) => entry.cpr_read);
    expect(line?.cpr_read).toMatchObject({
      road: 'graphql',
      employee: stubOrg.person,
      client_request_id: 'client-chosen',
    });
    expect(line?.cpr_read.gateway_request_id).not.toBe('client-chosen');
  });

  it.each(['v30', 'v25', 'v21'])(
    '%s: with CPR_READ_ROLES, a reader without the role gets null and no line',
    async (version) => {
      // Before v30's `persons` (as served here), the collection is `employees`.
      const root = version === 'v30' ? 'persons' : 'employees';
      const { body } = await restricted.ask(version, read.replace('persons', root), {
        variables: { uuid: stubOrg.person },
      });
      expect(body.errors).toBeUndefined();
      expect(body.data[root].objects[0].current).toEqual({ name: 'Anne Hansen', cpr_number: null });
      expect(lines.filter((entry) => entry.cpr_read)).toEqual([]);
    },
  );
});
