import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_INTEGRATION_CLIENT_SECRET } from '../idp/src/realm-builder.js';
import { classUuid, oscarOwnedUnitUuid } from '../legacy-service/src/fixture/organisation.js';
import type { ObjectChange } from '../gateway/src/backend-record/backend-record.js';
import { createDatabase } from '../gateway/src/database/database.js';
import { changeAddressValue, editableAddress } from './legacy-detail-edits.js';
import { startTestPostgres, type TestPostgres } from './postgres.js';
import { postGraphQL, sharedReadOnlyStack, startTestStack, type TestStack } from './stack.js';
import { clientToken } from './idp-tokens.js';

/**
 * The record of the backend (DESIGN.md §10) on the test stack with a real Postgres: fed by writes through both
 * roads, by the sweep (OS2mo 2.4.0's reading API, `backend/mora/api/v1/reading_endpoints.py`) and by validity
 * dates; and lookups by UUID alone, over all time, in a handful of legacy calls.
 */

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startTestPostgres();
});
afterAll(() => postgres?.close());

/** A fresh database of the test's own on the one server. */
async function freshDatabase(name: string): Promise<string> {
  const admin = createDatabase({ url: postgres.url, poolSize: 1, migrations: [] });
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.close();
  return postgres.url.replace(/\/postgres$/, `/${name}`);
}

const sweepClient = {
  BACKEND_SWEEP_CLIENT_ID: 'integration',
  BACKEND_SWEEP_CLIENT_SECRET: DEFAULT_INTEGRATION_CLIENT_SECRET,
};

const lookupQuery = `query ($uuid: UUID!) {
  addresses(filter: { uuids: [$uuid], from_date: null, to_date: null }) {
    objects { uuid validities { value validity { from to } } }
  }
}`;

type Json = Record<string, any>;

async function lookUp(stack: TestStack, uuid: string, authorization: string) {
  const answer = await postGraphQL(
    stack,
    'v30',
    { query: lookupQuery, variables: { uuid } },
    {
      authorization,
      trace: true,
    },
  );
  return {
    body: answer.body,
    calls: (answer.body.extensions?.upstream?.calls ?? []) as { path: string }[],
  };
}

/** The address's versions over all time as the backend answers them, in the graph's shape. */
async function truthOf(stack: TestStack, uuid: string) {
  const response = await stack.legacyFetch(
    `/api/v1/address/by_uuid?uuid=${uuid}&validity=-infinity/infinity`,
  );
  const versions = (await response.json()) as Json[];
  return versions.map((version) => version.value as string).sort();
}

/** A change the record tells of, for `uuid` from `source`. */
function changeOf(stack: TestStack, uuid: string, source: ObjectChange['source']): Promise<ObjectChange> {
  return new Promise((resolve) => {
    const stop = stack.gateway.backendRecord!.record.onObjectChanged((change) => {
      if (change.uuid === uuid && change.source === source) {
        stop();
        resolve(change);
      }
    });
  });
}

async function json(response: Response): Promise<any> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.status}: ${text}`);
  return JSON.parse(text);
}

const personWithAddress = async (stack: TestStack) => {
  const all = (await json(await stack.legacyFetch('/api/v1/address?validity=-infinity/infinity'))) as Json[];
  // An e-mail address: a value the test can change and keep valid.
  return all.find((address) => address.person?.uuid && String(address.value).includes('@'))!;
};

describe('the record of the backend, with the reading API', () => {
  let stack: TestStack;
  let admin: string;
  // The stack's clock starts a day behind, and the boundary test moves it to today: tokens the identity provider
  // issues now stay valid throughout (a clock moved days ahead would find them expired).
  let now = new Date(Date.now() - 86_400_000);
  beforeAll(async () => {
    stack = await startTestStack({
      clock: () => now,
      legacyProxy: true,
      gatewayEnv: {
        DATABASE_URL: await freshDatabase('with_reading_api'),
        ...sweepClient,
        BACKEND_SWEEP_INTERVAL_SECONDS: '1',
        BACKEND_SWEEP_CALLS_PER_MINUTE: '60000',
      },
    });
    admin = `Bearer ${await stack.token('alice')}`;
  });
  afterAll(() => stack?.close());

  it('a fresh database is filled by the sweep: every address the backend holds is on record, with its owner', async () => {
    await stack.gateway.backendRecord!.sweep!.nextRound();
    const addresses = (await json(
      await stack.legacyFetch('/api/v1/address?validity=-infinity/infinity'),
    )) as Json[];
    const database = stack.gateway.backendRecord!;
    const placed = await database.record.whereabouts(
      'address',
      addresses.map((address) => address.uuid),
    );
    expect(placed.size).toBe(new Set(addresses.map((address) => address.uuid)).size);
    const withPerson = addresses.find((address) => address.person?.uuid)!;
    expect(placed.get(withPerson.uuid)).toEqual({ person: withPerson.person.uuid });
  });

  it('a change made around the gateway, on the backend directly, is noticed by the sweep', async () => {
    await stack.gateway.backendRecord!.sweep!.nextRound();
    const unit = oscarOwnedUnitUuid;
    const addresses = (await json(await stack.legacyFetch(`/service/ou/${unit}/details/address`))) as Json[];
    const address = editableAddress(addresses as never)!;
    const noticed = changeOf(stack, address.uuid, 'sweep');
    const change = await changeAddressValue(stack.legacyFetch, unit);
    expect(change.recordUuid).toBe(address.uuid);
    expect(await noticed).toEqual({ type: 'address', uuid: address.uuid, owner: { unit }, source: 'sweep' });
  });

  it('a write through /service is noted at once, with the owner its body names', async () => {
    const person = (await personWithAddress(stack)).person.uuid as string;
    const written = (await json(
      await fetch(`${stack.gatewayUrl}/service/details/create`, {
        method: 'POST',
        headers: { authorization: admin, 'content-type': 'application/json' },
        body: JSON.stringify([
          {
            type: 'address',
            person: { uuid: person },
            address_type: { uuid: classUuid('employee_address_type', 'employee_email') },
            value: 'through.service@example.org',
            validity: { from: '2020-01-01', to: null },
          },
        ]),
      }),
    )) as string[];
    await stack.gateway.backendRecord!.writes.settled();
    const placed = await stack.gateway.backendRecord!.record.whereabouts('address', written);
    expect(placed.get(written[0]!)).toEqual({ person });
  });

  it('a write through GraphQL is noted at once, and told as a change from a write', async () => {
    const address = await personWithAddress(stack);
    const told = changeOf(stack, address.uuid, 'write');
    const answer = await postGraphQL(
      stack,
      'v30',
      {
        query: `mutation ($uuid: UUID!) { address_terminate(input: { uuid: $uuid, to: "2099-12-31" }) { uuid } }`,
        variables: { uuid: address.uuid },
      },
      { authorization: admin },
    );
    expect(answer.body.errors).toBeUndefined();
    expect((await told).owner).toEqual({ person: address.person.uuid });
  });

  it("looks an address up by UUID over all time in one legacy call, the backend's own answer", async () => {
    const address = await personWithAddress(stack);
    const { body, calls } = await lookUp(stack, address.uuid, admin);
    expect(body.errors).toBeUndefined();
    expect(calls.map((call) => call.path.split('?')[0])).toEqual(['/api/v1/address/by_uuid']);
    const values = body.data.addresses.objects[0].validities.map((v: Json) => v.value).sort();
    expect(values).toEqual(await truthOf(stack, address.uuid));
  });

  it('a change that takes effect on a future date is told on that date', async () => {
    const unit = oscarOwnedUnitUuid;
    const from = new Date().toISOString().slice(0, 10);
    const [uuid] = (await json(
      await fetch(`${stack.gatewayUrl}/service/details/create`, {
        method: 'POST',
        headers: { authorization: admin, 'content-type': 'application/json' },
        body: JSON.stringify([
          {
            type: 'address',
            org_unit: { uuid: unit },
            address_type: { uuid: classUuid('org_unit_address_type', 'unit_email') },
            value: 'from.a.future.day@example.org',
            validity: { from, to: null },
          },
        ]),
      }),
    )) as string[];
    await stack.gateway.backendRecord!.writes.settled();
    const database = createDatabase({ url: stack.gateway.config.database!.url, poolSize: 1 });
    const { rows } = await database.query<{ next: string }>(
      "SELECT to_char(next_boundary, 'YYYY-MM-DD') AS next FROM backend_object WHERE uuid = $1",
      [uuid],
    );
    await database.close();
    expect(rows).toEqual([{ next: from }]);
    const told = changeOf(stack, uuid!, 'boundary');
    now = new Date();
    expect(await told).toMatchObject({ type: 'address', uuid, owner: { unit }, source: 'boundary' });
  });
});

describe('lookups by UUID without the reading API (a backend older than 2.4.0)', () => {
  let stack: TestStack;
  let admin: string;
  beforeAll(async () => {
    stack = await startTestStack({
      legacyProxy: { notFound: /^\/api\/v1\// },
      gatewayEnv: {
        DATABASE_URL: await freshDatabase('without_reading_api'),
        BACKEND_SWEEP_ENABLED: 'false',
      },
    });
    admin = `Bearer ${await stack.token('alice')}`;
  });
  afterAll(() => stack?.close());

  const createAddress = async (value: string) => {
    const people = (await json(await stack.legacyFetch('/service/o/')))[0].uuid as string;
    const page = await json(await stack.legacyFetch(`/service/o/${people}/e/?limit=1`));
    const person = page.items[0].uuid as string;
    const [uuid] = (await json(
      await fetch(`${stack.gatewayUrl}/service/details/create`, {
        method: 'POST',
        headers: { authorization: admin, 'content-type': 'application/json' },
        body: JSON.stringify([
          {
            type: 'address',
            person: { uuid: person },
            address_type: { uuid: classUuid('employee_address_type', 'employee_email') },
            value,
            validity: { from: '2019-01-01', to: '2019-12-31' },
          },
        ]),
      }),
    )) as string[];
    await stack.gateway.backendRecord!.writes.settled();
    return { uuid: uuid!, person };
  };

  it('reads the owner the record names: a past address over all time in at most 10 legacy calls', async () => {
    const { uuid } = await createAddress('in.the.past@example.org');
    const { body, calls } = await lookUp(stack, uuid, admin);
    expect(body.errors).toBeUndefined();
    expect(calls.length).toBeLessThanOrEqual(10);
    expect(calls[0]!.path).toMatch(/^\/api\/v1\/address\/by_uuid/);
    expect(body.data.addresses.objects).toEqual([
      { uuid, validities: [{ value: 'in.the.past@example.org', validity: expect.any(Object) }] },
    ]);
  });

  it('a stale record (the owner it names no longer holds the object) falls back to the walk, never a wrong answer', async () => {
    const { uuid, person } = await createAddress('moved@example.org');
    const database = createDatabase({ url: stack.gateway.config.database!.url, poolSize: 1 });
    // Another person: their listing does not hold the address.
    await database.query(
      "UPDATE backend_object SET owner_person = '00000000-0000-0000-0000-000000000001' WHERE uuid = $1",
      [uuid],
    );
    await database.close();
    const { body, calls } = await lookUp(stack, uuid, admin);
    // The named owner's listing was read and did not hold it; then every listing is walked, as without a record.
    expect(calls.slice(1, 4).map((call) => call.path.split('?')[0])).toEqual(
      Array(3).fill('/service/e/00000000-0000-0000-0000-000000000001/details/address'),
    );
    expect(calls.slice(4).map((call) => call.path.split('?')[0])).toContain('/service/o/');
    // The walk costs more than a request may spend on the seeded data: a clear refusal, not a wrong answer.
    if (body.errors) expect(body.errors[0].extensions.code).toBe('LEGACY_BUDGET_EXCEEDED');
    else expect(body.data.addresses.objects.map((o: Json) => o.uuid)).toEqual([uuid]);
    expect(person).not.toBe('00000000-0000-0000-0000-000000000001');
  });
});

describe('lookups by UUID without a database', () => {
  it('the reading API alone answers in one legacy call', async () => {
    const stack = await sharedReadOnlyStack();
    const admin = `Bearer ${await stack.token('alice')}`;
    const address = await personWithAddress(stack);
    const { body, calls } = await lookUp(stack, address.uuid, admin);
    expect(body.errors).toBeUndefined();
    expect(calls.map((call) => call.path.split('?')[0])).toEqual(['/api/v1/address/by_uuid']);
    const values = body.data.addresses.objects[0].validities.map((v: Json) => v.value).sort();
    expect(values).toEqual(await truthOf(stack, address.uuid));
  });
});

describe('every detail type by UUID alone, over all time', () => {
  // v30's collection of each detail type the reading API serves (OS2mo 2.4.0 `api/v1/reading_endpoints.py`).
  const collections: [collection: string, type: string][] = [
    ['addresses', 'address'],
    ['engagements', 'engagement'],
    ['associations', 'association'],
    ['itusers', 'it'],
    ['kles', 'kle'],
    ['leaves', 'leave'],
    ['managers', 'manager'],
    ['owners', 'owner'],
    ['related_units', 'related_unit'],
  ];
  it.each(collections)(
    '%s: found in at most 10 legacy calls, with every version',
    async (collection, type) => {
      const stack = await sharedReadOnlyStack();
      const admin = `Bearer ${await stack.token('alice')}`;
      const all = (await json(
        await stack.legacyFetch(`/api/v1/${type}?validity=-infinity/infinity`),
      )) as Json[];
      const uuid = all[0]!.uuid as string;
      const versions = all.filter((version) => version.uuid === uuid).length;
      const answer = await postGraphQL(
        stack,
        'v30',
        {
          query: `query ($uuid: UUID!) { ${collection}(filter: { uuids: [$uuid], from_date: null, to_date: null }) {
          objects { uuid validities { uuid } } } }`,
          variables: { uuid },
        },
        { authorization: admin, trace: true },
      );
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.extensions.upstream.requests).toBeLessThanOrEqual(10);
      expect(answer.body.data[collection].objects).toEqual([
        { uuid, validities: Array(versions).fill({ uuid }) },
      ]);
    },
  );
});

describe('the record of the backend and the event API', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({
      gatewayEnv: {
        DATABASE_URL: await freshDatabase('with_events'),
        ...sweepClient,
        BACKEND_SWEEP_INTERVAL_SECONDS: '1',
        BACKEND_SWEEP_CALLS_PER_MINUTE: '60000',
      },
    });
  });
  afterAll(() => stack?.close());

  it('a change made around the gateway reaches an event listener as OS2mo\'s "address" event, once the sweep sees it', async () => {
    const integration = `Bearer ${await clientToken(stack.idp.issuer, 'integration')}`;
    const declared = await postGraphQL(
      stack,
      'v30',
      {
        query:
          'mutation { event_listener_declare(input: {user_key: "sweep", routing_key: "address"}) { uuid } }',
      },
      { authorization: integration },
    );
    const listener = (declared.body.data as Json).event_listener_declare.uuid as string;
    // The first round on an empty record is its baseline, which tells no one: it is made before the change.
    await stack.gateway.backendRecord!.sweep!.nextRound();
    const unit = oscarOwnedUnitUuid;
    const address = editableAddress(
      (await json(await stack.legacyFetch(`/service/ou/${unit}/details/address`))) as never,
    )!;
    const noticed = changeOf(stack, address.uuid, 'sweep');
    const change = await changeAddressValue(stack.legacyFetch, unit);
    await noticed;
    // The event is added by another listener of the same change, still writing when this one is told; the
    // round that noticed it ends only once every listener is done, so its end, not the notice, is the event.
    await stack.gateway.backendRecord!.sweep!.nextRound();
    const fetched = await postGraphQL(
      stack,
      'v30',
      {
        query: 'query($l: UUID!) { event_fetch(filter: {listener: $l}) { subject } }',
        variables: { l: listener },
      },
      { authorization: integration },
    );
    expect((fetched.body.data as Json).event_fetch).toEqual({ subject: change.recordUuid });
  });
});
