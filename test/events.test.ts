import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classUuid, referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { stableUuid } from '../legacy-service/src/fixture/stable-uuid.js';
import { startTestPostgres, type TestPostgres } from './postgres.js';
import { startTestStack, type TestStack } from './stack.js';
import { clientToken } from './idp-tokens.js';

/**
 * OS2mo's event system on the gateway (its docs `docs/src/tech-docs/events.md` and resolvers
 * `mora/graphapi/events.py`, `mora/graphapi/mutators.py`, HEAD), over Debian's Postgres: listeners, fetch,
 * acknowledgement, owners, `*_refresh`, `me`, and the events of writes through both roads.
 */

let postgres: TestPostgres;
let stack: TestStack;

beforeAll(async () => {
  postgres = await startTestPostgres();
  stack = await startTestStack({ gatewayEnv: { DATABASE_URL: postgres.url } });
});
afterAll(async () => {
  await stack?.close();
  await postgres?.close();
});

interface GraphQLAnswer {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

async function graphql(
  token: string,
  query: string,
  variables: Record<string, unknown> = {},
  version = 'v30',
  gatewayUrl = stack.gatewayUrl,
): Promise<GraphQLAnswer> {
  const response = await fetch(`${gatewayUrl}/graphql/${version}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as GraphQLAnswer;
}

const declare = `mutation($input: ListenerCreateInput!) { event_listener_declare(input: $input) { uuid owner routing_key } }`;
const fetchEvent = `query($listener: UUID!) { event_fetch(filter: {listener: $listener}) { subject priority token } }`;
const acknowledge = `mutation($token: EventToken!) { event_acknowledge(input: {token: $token}) }`;

async function listener(token: string, routingKey: string, userKey = `${routingKey}-${randomUUID()}`) {
  const answer = await graphql(token, declare, { input: { user_key: userKey, routing_key: routingKey } });
  expect(answer.errors).toBeUndefined();
  return (answer.data!.event_listener_declare as { uuid: string; owner: string }).uuid;
}

async function fetched(token: string, listenerUuid: string) {
  const answer = await graphql(token, fetchEvent, { listener: listenerUuid });
  expect(answer.errors).toBeUndefined();
  return answer.data!.event_fetch as { subject: string; priority: number; token: string } | null;
}

describe('the event API', () => {
  it('declares a listener idempotently, and refuses the same user_key for another routing key', async () => {
    const token = await clientToken(stack.idp.issuer, 'integration');
    const first = await listener(token, 'org_unit', 'units');
    expect(await listener(token, 'org_unit', 'units')).toBe(first);
    const clash = await graphql(token, declare, { input: { user_key: 'units', routing_key: 'engagement' } });
    expect(clash.errors?.[0]?.extensions?.code).toBe('EVENT_CONFLICT');
  });

  it('org_unit_refresh(owner:) sends one event per selected unit to the owner, handed out once until acknowledged', async () => {
    const token = await clientToken(stack.idp.issuer, 'integration');
    const units = await listener(token, 'org_unit');
    const me = (await graphql(token, '{ me { actor { uuid } } }')).data!.me as { actor: { uuid: string } };
    const refreshed = await graphql(
      token,
      `
        mutation ($uuids: [UUID!], $owner: UUID) {
          org_unit_refresh(filter: { uuids: $uuids }, owner: $owner) {
            objects
          }
        }
      `,
      { uuids: [referenceUnitUuids[0]], owner: me.actor.uuid },
    );
    expect(refreshed).toEqual({ data: { org_unit_refresh: { objects: [referenceUnitUuids[0]] } } });
    const event = await fetched(token, units);
    expect(event).toMatchObject({ subject: referenceUnitUuids[0], priority: 10000 });
    // Fetched and not acknowledged: not handed out again before OS2mo's back-off (3 minutes by default).
    expect(await fetched(token, units)).toBeNull();
    const ofListener = `query($l: UUID!) { events(filter: {listeners: {uuids: [$l]}}) { objects { subject listener { uuid } } } }`;
    expect((await graphql(token, ofListener, { l: units })).data!.events).toEqual({
      objects: [{ subject: referenceUnitUuids[0], listener: { uuid: units } }],
    });
    expect(await graphql(token, acknowledge, { token: event!.token })).toEqual({
      data: { event_acknowledge: true },
    });
    expect((await graphql(token, ofListener, { l: units })).data!.events).toEqual({ objects: [] });
  });

  it("hands no client another client's events: fetch answers null and `events` lists none", async () => {
    const integration = await clientToken(stack.idp.issuer, 'integration');
    const payroll = await clientToken(stack.idp.issuer, 'payroll');
    const theirs = await listener(integration, 'org_unit');
    await graphql(
      integration,
      `
        mutation ($u: [UUID!]) {
          org_unit_refresh(filter: { uuids: $u }) {
            objects
          }
        }
      `,
      {
        u: [referenceUnitUuids[1]],
      },
    );
    expect(await fetched(payroll, theirs)).toBeNull();
    const seen = await graphql(
      payroll,
      `{ events(filter: {subjects: ["${referenceUnitUuids[1]}"]}) { objects { subject } } }`,
    );
    expect(seen.data!.events).toEqual({ objects: [] });
    expect(await fetched(integration, theirs)).toMatchObject({ subject: referenceUnitUuids[1] });
  });

  it('sends in a namespace only its owner declared; "mo" is no client\'s', async () => {
    const integration = await clientToken(stack.idp.issuer, 'integration');
    const payroll = await clientToken(stack.idp.issuer, 'payroll');
    const send = `mutation($input: EventSendInput!) { event_send(input: $input) }`;
    const inMo = await graphql(integration, send, {
      input: { namespace: 'mo', routing_key: 'org_unit', subject: 'x' },
    });
    expect(inMo.errors?.[0]?.extensions?.code).toBe('EVENT_NOT_ALLOWED');
    const declared = await graphql(
      payroll,
      `
        mutation {
          event_namespace_declare(input: { name: "payroll", public: true }) {
            name
            public
          }
        }
      `,
    );
    expect(declared).toEqual({ data: { event_namespace_declare: { name: 'payroll', public: true } } });
    const heard = (
      await graphql(integration, declare, {
        input: { namespace: 'payroll', user_key: 'pay', routing_key: 'salary' },
      })
    ).data!.event_listener_declare as { uuid: string };
    expect(
      (
        await graphql(integration, send, {
          input: { namespace: 'payroll', routing_key: 'salary', subject: 's-1' },
        })
      ).errors?.[0]?.extensions?.code,
    ).toBe('EVENT_NOT_ALLOWED');
    expect(
      await graphql(payroll, send, {
        input: { namespace: 'payroll', routing_key: 'salary', subject: 's-1' },
      }),
    ).toEqual({ data: { event_send: true } });
    expect(await fetched(integration, heard.uuid)).toMatchObject({ subject: 's-1' });
  });

  it('sends "mo" events at once for a write through /service and for an OS2mo mutation', async () => {
    const token = await clientToken(stack.idp.issuer, 'integration');
    const units = await listener(token, 'org_unit');
    const created = await fetch(`${stack.gatewayUrl}/service/ou/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Events Office',
        parent: { uuid: referenceUnitUuids[2] },
        org_unit_type: { uuid: classUuid('org_unit_type', 'office') },
        validity: { from: '2024-01-01' },
      }),
    });
    expect(created.status).toBe(201);
    const uuid = (await created.json()) as string;
    const first = await fetched(token, units);
    expect(first).toMatchObject({ subject: uuid });
    await graphql(token, acknowledge, { token: first!.token });

    const renamed = await graphql(
      token,
      `
        mutation ($uuid: UUID!) {
          org_unit_update(
            input: { uuid: $uuid, name: "Events Office 2", validity: { from: "2024-02-01T00:00:00+01:00" } }
          ) {
            uuid
          }
        }
      `,
      { uuid },
    );
    expect(renamed).toEqual({ data: { org_unit_update: { uuid } } });
    expect(await fetched(token, units)).toMatchObject({ subject: uuid });
  });

  it('sends a "mo" class event for a class written by class_create (POST /service/f/{facet}/)', async () => {
    const token = await clientToken('integration');
    const classes = await listener(token, 'class');
    const uuid = randomUUID();
    const created = await graphql(
      token,
      'mutation($input: ClassCreateInput!) { class_create(input: $input) { uuid } }',
      {
        input: {
          uuid,
          name: 'Events class',
          user_key: `events-${uuid.slice(0, 8)}`,
          facet_uuid: stableUuid('facet:org_unit_type'),
          validity: { from: '2024-01-01' },
        },
      },
    );
    expect(created).toEqual({ data: { class_create: { uuid } } });
    expect(await fetched(token, classes)).toMatchObject({ subject: uuid });
  });

  it('refuses a refresh to a caller without the role admin (RBAC on), as OS2mo guards refresh_*', async () => {
    const nora = await stack.token('nora');
    const refused = await graphql(
      nora,
      `
        {
          __typename
        }
      `,
    );
    expect(refused.errors).toBeUndefined();
    const answer = await graphql(
      nora,
      `
        mutation {
          org_unit_refresh(limit: 1) {
            objects
          }
        }
      `,
    );
    expect(answer.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('me answers from the token: username, email, roles, and the caller as an UnknownActor', async () => {
    const alice = await stack.token('alice');
    const me = await graphql(
      alice,
      '{ me { username email roles actor { __typename uuid ... on UnknownActor { error } } } }',
    );
    expect(me.data!.me).toMatchObject({
      username: 'alice',
      roles: expect.arrayContaining(['admin']),
      actor: { __typename: 'UnknownActor' },
    });
    expect((me.data!.me as { email: string | null }).email).toMatch(/@/);
  });

  it('refreshes in older versions in their own shape: v21 takes a queue, and its events go to every listener', async () => {
    const token = await clientToken(stack.idp.issuer, 'integration');
    const classes = await listener(token, 'class');
    const refreshed = await graphql(
      token,
      `
        mutation ($u: [UUID!]) {
          class_refresh(filter: { uuids: $u }, queue: "ignored") {
            objects
          }
        }
      `,
      { u: [classUuid('org_unit_type', 'office')] },
      'v21',
    );
    expect(refreshed).toEqual({
      data: { class_refresh: { objects: [classUuid('org_unit_type', 'office')] } },
    });
    expect(await fetched(token, classes)).toMatchObject({ subject: classUuid('org_unit_type', 'office') });
    // With an exchange (OS2mo's AMQP), OS2mo sends no GraphQL event: this gateway has no AMQP, so none at all.
    const amqp = await graphql(
      token,
      `
        mutation ($u: [UUID!]) {
          class_refresh(filter: { uuids: $u }, exchange: "os2mo") {
            objects
          }
        }
      `,
      { u: [classUuid('org_unit_type', 'office')] },
    );
    expect(amqp.data).toEqual({ class_refresh: { objects: [classUuid('org_unit_type', 'office')] } });
  });
});

describe('without DATABASE_URL', () => {
  it('the event API answers DATABASE_NOT_CONFIGURED, and me still answers', async () => {
    const plain = await startTestStack();
    try {
      const token = await plain.token('alice');
      const answer = await graphql(
        token,
        '{ me { username } event_namespaces { objects { name } } }',
        {},
        'v30',
        plain.gatewayUrl,
      );
      expect(answer.data).toBeNull();
      expect(answer.errors?.[0]?.extensions?.code).toBe('DATABASE_NOT_CONFIGURED');
      const me = await graphql(token, '{ me { username } }', {}, 'v30', plain.gatewayUrl);
      expect(me).toEqual({ data: { me: { username: 'alice' } } });
    } finally {
      await plain.close();
    }
  });
});
