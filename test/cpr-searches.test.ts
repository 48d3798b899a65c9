import type { DestinationStream } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { organisationUuid } from '../legacy-service/src/fixture/organisation.js';
import type { CprReadPolicy } from '../gateway/src/cpr/cpr-policy.js';
import { createLogger } from '../gateway/src/observability/index.js';
import { startGateway, type RunningGateway } from '../gateway/src/server.js';
import { postGraphQL, startTestStack, type TestStack } from './stack.js';

/**
 * Searches by CPR number are CPR reads (issue 35, item 3), each case one the fifth red team got through:
 * `persons(filter: {query: "<cpr>"})` and `/service/o/{org}/e/?query=<cpr>` answered the person with no line
 * and past `CPR_READ_ROLES`; `cpr_numbers` (at the top or in a sub-filter) still matched for a reader without
 * the role, so 10,000 numbers bisected a full number in 14 requests; 30,000 numbers in one request wrote
 * 10.8 MB of log. Now: one `cpr_search` line per request (how many numbers, whom they found, never a number),
 * no one found for a reader without the role, on every road and version, and a bound on the numbers.
 */
interface Gateway {
  running: RunningGateway;
  log: Record<string, any>[];
  bytes: { written: number };
}

let stack: TestStack;
let open: Gateway;
let restricted: Gateway;
const tokens: Record<string, string> = {};
let person: { uuid: string; cpr_no: string; name: string };
let others: string[];

async function gatewayWith(cprReads: CprReadPolicy): Promise<Gateway> {
  const log: Record<string, any>[] = [];
  const bytes = { written: 0 };
  const destination: DestinationStream = {
    write: (line: string) => {
      bytes.written += line.length;
      log.push(JSON.parse(line));
    },
  };
  const running = await startGateway({
    logger: createLogger({ level: 'info', destination }),
    config: (port) => ({ ...stack.gateway.config, port, cprReads }),
    serviceReadLane: true,
  });
  return { running, log, bytes };
}

beforeAll(async () => {
  stack = await startTestStack({ rbacEnabled: true });
  for (const who of ['alice', 'nora']) tokens[who] = await stack.token(who);
  const people = (await (await stack.legacyFetch(`/service/o/${organisationUuid}/e/?limit=0`)).json()) as {
    items: { uuid: string; cpr_no: string; name: string }[];
  };
  const numbered = people.items.filter((item) => item.cpr_no);
  person = numbered[0]!;
  // Numbers no one has: each of the others' numbers with its check digits turned, absent from the seed.
  const taken = new Set(numbered.map((item) => item.cpr_no));
  others = [];
  for (let n = 0; others.length < 40_000; n++) {
    const candidate = `01017${String(n).padStart(5, '0')}`;
    if (!taken.has(candidate)) others.push(candidate);
  }
  open = await gatewayWith({ roles: undefined, clients: undefined });
  restricted = await gatewayWith({ roles: ['admin'], clients: undefined, maxNumbersPerRequest: 100 });
});
afterAll(async () => {
  await open?.running.close();
  await restricted?.running.close();
  await stack?.close();
});
beforeEach(() => {
  for (const gateway of [open, restricted]) {
    gateway.log.length = 0;
    gateway.bytes.written = 0;
  }
});

async function graphql(
  gateway: Gateway,
  who: string,
  version: string,
  query: string,
  variables: Record<string, unknown> = {},
) {
  return postGraphQL(
    { gatewayUrl: gateway.running.url },
    version,
    { query, variables },
    { authorization: `Bearer ${tokens[who]}` },
  );
}

const searchLines = (gateway: Gateway) => gateway.log.filter((line) => line.cpr_search);
const noNumberIn = (gateway: Gateway) => {
  const written = JSON.stringify(gateway.log);
  expect(written).not.toContain(person.cpr_no);
  for (const number of others.slice(0, 50)) expect(written).not.toContain(number);
};

const personsByQuery = (root: string) =>
  `query($q: String!) { ${root}(filter: {query: $q}) { objects { uuid } } }`;
const uuidsOf = (body: any, root: string) =>
  (body.data[root].objects as { uuid: string }[]).map((object) => object.uuid);

describe('a search text that is a CPR number, on GraphQL', () => {
  it.each([
    ['v30', 'persons'],
    ['v25', 'employees'],
    ['v21', 'employees'],
  ])(
    '%s %s(filter: {query}) is on record: one line, the count and the subject, never the number',
    async (version, root) => {
      const { body } = await graphql(open, 'nora', version, personsByQuery(root), { q: person.cpr_no });
      expect(body.errors).toBeUndefined();
      expect(uuidsOf(body, root)).toEqual([person.uuid]);
      expect(searchLines(open)).toEqual([
        expect.objectContaining({
          msg: 'CPR numbers searched',
          cpr_search: expect.objectContaining({
            road: 'graphql',
            endpoint: `/graphql/${version}`,
            count: 1,
            subjects: [person.uuid],
            withheld: false,
            client: expect.any(String),
          }),
        }),
      ]);
      expect(searchLines(open)[0]!.cpr_search.gateway_request_id).toMatch(/^[0-9a-f-]{36}$/);
      noNumberIn(open);
    },
  );

  it.each([
    ['v30', 'persons'],
    ['v21', 'employees'],
  ])(
    '%s: under CPR_READ_ROLES it finds no one for a reader without the role, and the admin still finds the person',
    async (version, root) => {
      const withheld = await graphql(restricted, 'nora', version, personsByQuery(root), { q: person.cpr_no });
      expect(withheld.body.errors).toBeUndefined();
      expect(uuidsOf(withheld.body, root)).toEqual([]);
      expect(searchLines(restricted)).toEqual([
        expect.objectContaining({
          cpr_search: expect.objectContaining({ count: 1, subjects: [], withheld: true }),
        }),
      ]);
      const admin = await graphql(restricted, 'alice', version, personsByQuery(root), { q: person.cpr_no });
      expect(uuidsOf(admin.body, root)).toEqual([person.uuid]);
      noNumberIn(restricted);
    },
  );

  it('v2 employees(filter: {query}) with a number is on record and gated too', async () => {
    const query = `query($q: String!) { employees(filter: {query: $q}) { objects { uuid } } }`;
    const { body } = await graphql(restricted, 'nora', 'v2', query, { q: person.cpr_no });
    expect(body.errors).toBeUndefined();
    expect(body.data.employees.objects).toEqual([]);
    expect(searchLines(restricted)).toEqual([
      expect.objectContaining({ cpr_search: expect.objectContaining({ count: 1, withheld: true }) }),
    ]);
  });
});

describe('cpr_numbers at any depth, on GraphQL', () => {
  const engagementsOf = `query($numbers: [CPR!]) {
    engagements(filter: {employee: {cpr_numbers: $numbers}}) { objects { current { person { uuid } } } }
  }`;

  it('a sub-filter `employee: {cpr_numbers}` narrows, and is one line for the request', async () => {
    const { body } = await graphql(open, 'nora', 'v30', engagementsOf, {
      numbers: [person.cpr_no, ...others.slice(0, 20)],
    });
    expect(body.errors).toBeUndefined();
    const holders = (body.data.engagements.objects as any[]).flatMap((object) =>
      object.current.person.map((held: { uuid: string }) => held.uuid),
    );
    expect(holders.length).toBeGreaterThan(0);
    expect(new Set(holders)).toEqual(new Set([person.uuid]));
    expect(searchLines(open)).toEqual([
      expect.objectContaining({
        cpr_search: expect.objectContaining({ count: 21, subjects: [person.uuid] }),
      }),
    ]);
    expect(open.log.filter((line) => line.cpr_read)).toEqual([]);
    noNumberIn(open);
  });

  it('under CPR_READ_ROLES, matches no one for a reader without the role, top level and nested', async () => {
    const numbers = [person.cpr_no, ...others.slice(0, 49)];
    const top = await graphql(
      restricted,
      'nora',
      'v30',
      `
        query ($numbers: [CPR!]) {
          persons(filter: { cpr_numbers: $numbers }) {
            objects {
              uuid
            }
          }
        }
      `,
      { numbers },
    );
    expect(top.body.errors).toBeUndefined();
    expect(top.body.data.persons.objects).toEqual([]);
    const nested = await graphql(restricted, 'nora', 'v30', engagementsOf, { numbers });
    expect(nested.body.data.engagements.objects).toEqual([]);
    const admin = await graphql(restricted, 'alice', 'v30', engagementsOf, { numbers });
    expect(admin.body.data.engagements.objects.length).toBeGreaterThan(0);
  });

  it('bisecting with 10,000 numbers under CPR_READ_ROLES is refused, and halves of the bound tell nothing', async () => {
    const persons = `query($numbers: [CPR!]) { persons(filter: {cpr_numbers: $numbers}) { objects { uuid } } }`;
    const many = await graphql(restricted, 'nora', 'v30', persons, {
      numbers: [...others.slice(0, 9_999), person.cpr_no],
    });
    expect(many.body.data).toBeUndefined();
    // 10,000 is past the longest list a variable may hold (GRAPHQL_MAX_VARIABLES_LIST_LENGTH, 1,000), checked first;
    // past the CPR bound (100) and within that, the CPR bound refuses.
    expect(many.body.errors).toMatchObject([{ extensions: { code: 'VARIABLE_LIST_TOO_LONG' } }]);
    const overBound = await graphql(restricted, 'nora', 'v30', persons, {
      numbers: [...others.slice(0, 499), person.cpr_no],
    });
    expect(overBound.body.data).toBeUndefined();
    expect(overBound.body.errors).toMatchObject([{ extensions: { code: 'TOO_MANY_CPR_NUMBERS' } }]);
    // Within the bound, the half with the number and the half without answer alike.
    const withIt = await graphql(restricted, 'nora', 'v30', persons, {
      numbers: [...others.slice(0, 49), person.cpr_no],
    });
    const without = await graphql(restricted, 'nora', 'v30', persons, { numbers: others.slice(50, 100) });
    expect(withIt.body).toEqual(without.body);
  });

  it('30,000 numbers in one request are refused with a 4xx and a code, and write one short line at most', async () => {
    const response = await fetch(`${open.running.url}/graphql/v30`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.alice}`,
        'content-type': 'application/json',
        accept: 'application/graphql-response+json',
      },
      body: JSON.stringify({
        query: `query($numbers: [CPR!]) { persons(filter: {cpr_numbers: $numbers}) { objects { uuid } } }`,
        variables: { numbers: [...others.slice(0, 29_999), person.cpr_no] },
      }),
    });
    expect(response.status).toBe(400);
    // Refused as a list longer than a variable may hold, before any number is counted or looked up.
    expect(await response.json()).toMatchObject({
      errors: [{ extensions: { code: 'VARIABLE_LIST_TOO_LONG' } }],
    });
    expect(open.bytes.written).toBeLessThan(4_096);
    noNumberIn(open);
  });
});

describe.each(['lane', 'app'] as const)('/service/o/{org}/e/?query=<cpr> (%s)', (road) => {
  async function search(gateway: Gateway, who: string, query: string) {
    const response = await fetch(
      `${gateway.running.url}/service/o/${organisationUuid}/e/?query=${encodeURIComponent(query)}`,
      {
        headers: {
          authorization: `Bearer ${tokens[who]}`,
          ...(road === 'app' ? { origin: 'https://elsewhere.example' } : {}),
        },
      },
    );
    return { status: response.status, body: (await response.json()) as any };
  }

  it('is on record: one line with the count and the subject, never the number', async () => {
    const found = await search(open, 'nora', person.cpr_no);
    expect(found.status).toBe(200);
    expect(found.body.items.map((item: { uuid: string }) => item.uuid)).toEqual([person.uuid]);
    expect(open.log.filter((line) => line.cpr_search || line.cpr_read)).toEqual([
      expect.objectContaining({
        msg: 'CPR numbers searched',
        cpr_search: expect.objectContaining({
          road: 'service',
          endpoint: 'GET /service/o/{org}/e/',
          count: 1,
          subjects: [person.uuid],
          withheld: false,
        }),
      }),
    ]);
    noNumberIn(open);
  });

  it('under CPR_READ_ROLES finds no one for a reader without the role (and is on record); the admin finds the person', async () => {
    const withheld = await search(restricted, 'nora', person.cpr_no);
    expect(withheld.status).toBe(200);
    expect(withheld.body).toMatchObject({ items: [], total: 0 });
    expect(searchLines(restricted)).toEqual([
      expect.objectContaining({
        cpr_search: expect.objectContaining({ count: 1, subjects: [], withheld: true }),
      }),
    ]);
    const admin = await search(restricted, 'alice', person.cpr_no);
    expect(admin.body.items.map((item: { uuid: string }) => item.uuid)).toEqual([person.uuid]);
    // A search by name is no CPR search: it finds the person for anyone, without the number.
    const byName = await search(restricted, 'nora', person.name);
    expect(byName.body.items.map((item: { uuid: string }) => item.uuid)).toContain(person.uuid);
    noNumberIn(restricted);
  });

  it('more than one search text in one request is refused with a code, before any number is looked up', async () => {
    const query = others
      .slice(0, 101)
      .map((number) => `query=${number}`)
      .join('&');
    const response = await fetch(`${restricted.running.url}/service/o/${organisationUuid}/e/?${query}`, {
      headers: {
        authorization: `Bearer ${tokens.alice}`,
        ...(road === 'app' ? { origin: 'https://elsewhere.example' } : {}),
      },
    });
    expect(response.status).toBe(400);
    // `query` takes one value (OS2mo reads the last of several, the gateway would judge the first): a second is
    // refused as such, so one request searches by one number at most.
    expect(await response.json()).toMatchObject({ error_key: 'E_INVALID_QUERY' });
    expect(searchLines(restricted)).toEqual([]);
  });
});

describe.each(['lane', 'app'] as const)('/service/e/autocomplete/?query=<cpr> (%s)', (road) => {
  // The fifth round's note: the person autocomplete matches the CPR register as the listing does (LoRa's
  // `bruger` autocomplete behind 2.4.0's `employee.py` line 375), and answered the person with no line and
  // past CPR_READ_ROLES, since its answer carries no number for the gateway to find.
  async function autocomplete(gateway: Gateway, who: string, query: string) {
    const response = await fetch(
      `${gateway.running.url}/service/e/autocomplete/?query=${encodeURIComponent(query)}`,
      {
        headers: {
          authorization: `Bearer ${tokens[who]}`,
          ...(road === 'app' ? { origin: 'https://elsewhere.example' } : {}),
        },
      },
    );
    return { status: response.status, body: (await response.json()) as any };
  }

  it('is on record: one line with the count and the subject, never the number', async () => {
    const found = await autocomplete(open, 'nora', person.cpr_no);
    expect(found.status).toBe(200);
    expect(found.body.items.map((item: { uuid: string }) => item.uuid)).toEqual([person.uuid]);
    expect(open.log.filter((line) => line.cpr_search || line.cpr_read)).toEqual([
      expect.objectContaining({
        msg: 'CPR numbers searched',
        cpr_search: expect.objectContaining({
          road: 'service',
          endpoint: 'GET /service/e/autocomplete/',
          count: 1,
          subjects: [person.uuid],
          withheld: false,
        }),
      }),
    ]);
    noNumberIn(open);
  });

  it('under CPR_READ_ROLES finds no one for a reader without the role; the admin finds the person; a name is no CPR search', async () => {
    const withheld = await autocomplete(restricted, 'nora', person.cpr_no);
    expect(withheld).toEqual({ status: 200, body: { items: [] } });
    expect(searchLines(restricted)).toEqual([
      expect.objectContaining({
        cpr_search: expect.objectContaining({ count: 1, subjects: [], withheld: true }),
      }),
    ]);
    const admin = await autocomplete(restricted, 'alice', person.cpr_no);
    expect(admin.body.items.map((item: { uuid: string }) => item.uuid)).toEqual([person.uuid]);
    restricted.log.length = 0;
    const byName = await autocomplete(restricted, 'nora', person.name);
    expect(byName.body.items.map((item: { uuid: string }) => item.uuid)).toContain(person.uuid);
    expect(searchLines(restricted)).toEqual([]);
    noNumberIn(restricted);
  });

  it('a second search text is refused with a code before any number is looked up (one number a request)', async () => {
    const query = others
      .slice(0, 2)
      .map((number) => `query=${number}`)
      .join('&');
    const response = await fetch(`${restricted.running.url}/service/e/autocomplete/?${query}`, {
      headers: {
        authorization: `Bearer ${tokens.alice}`,
        ...(road === 'app' ? { origin: 'https://elsewhere.example' } : {}),
      },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error_key: 'E_INVALID_QUERY' });
    expect(searchLines(restricted)).toEqual([]);
  });
});
