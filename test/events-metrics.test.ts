import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unitUuid } from '../legacy-service/src/fixture/organisation.js';
import { clientToken } from './idp-tokens.js';
import { startTestPostgres, type TestPostgres } from './postgres.js';
import { graphqlData, startTestStack, type TestStack } from './stack.js';

/**
 * OS2mo's event metrics (`mora/db/events.py`, HEAD: `os2mo_events`, `os2mo_event_oldest`,
 * `os2mo_event_acknowledged`, `os2mo_event_sent`) as the gateway names them on `/metrics`, with the events
 * handed out and handed out again, scraped as Prometheus scrapes them, over Debian's Postgres.
 */

let postgres: TestPostgres;
let stack: TestStack;
let token: string;
let listener: string;
const metricsToken = 'event-metrics-scraper';
/** The back-off after a fetch: at least 1 s, then 2^n s (OS2mo's); 1 s is the least the setting takes here. */
const retryMinSeconds = '1';

beforeAll(async () => {
  postgres = await startTestPostgres();
  stack = await startTestStack({
    gatewayEnv: {
      DATABASE_URL: postgres.url,
      METRICS_TOKEN: metricsToken,
      EVENT_RETRY_MIN_SECONDS: retryMinSeconds,
    },
  });
  token = await clientToken(stack.idp.issuer, 'integration');
  listener = (
    await graphql<{ event_listener_declare: { uuid: string } }>(
      'mutation($i: ListenerCreateInput!) { event_listener_declare(input: $i) { uuid } }',
      { i: { namespace: 'mo', user_key: 'metrics-sync', routing_key: 'org_unit' } },
    )
  ).event_listener_declare.uuid;
});
afterAll(async () => {
  await stack?.close();
  await postgres?.close();
});

async function graphql<T>(query: string, variables = {}): Promise<T> {
  return graphqlData<T>(stack.gatewayUrl, token, query, variables);
}

/** `/metrics` as Prometheus reads it: each sample of `name` whose labels include `labels`, by its value. */
async function scrape(name: string, labels: Record<string, string>): Promise<number | undefined> {
  const response = await fetch(`${stack.gatewayUrl}/metrics`, {
    headers: { authorization: `Bearer ${metricsToken}` },
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  const wanted = Object.entries(labels).map(([label, value]) => `${label}="${value}"`);
  const line = text
    .split('\n')
    .find((sample) => sample.startsWith(`${name}{`) && wanted.every((pair) => sample.includes(pair)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

const ours = () => ({ user_key: 'metrics-sync', namespace: 'mo', routing_key: 'org_unit' });

async function refresh(units: string[]): Promise<void> {
  await graphql(
    'mutation($u: [UUID!], $l: UUID) { org_unit_refresh(filter: {uuids: $u}, listener: $l) { objects } }',
    { u: units, l: listener },
  );
}

const fetchEvent = () =>
  graphql<{ event_fetch: { subject: string; token: string } | null }>(
    'query($l: UUID!) { event_fetch(filter: {listener: $l}) { subject token } }',
    { l: listener },
  ).then((data) => data.event_fetch);

describe("OS2mo's event metrics on /metrics", { shuffle: false }, () => {
  // In order: each step changes what the next scrape reads (pending, then fetched, redelivered, acknowledged).
  it('counts what is sent and shows each listener’s pending events and the oldest one’s age', async () => {
    const before = Math.floor(Date.now() / 1000) - 1;
    const sentBefore =
      (await scrape('gateway_events_sent_total', { namespace: 'mo', routing_key: 'org_unit' })) ?? 0;
    expect(await scrape('gateway_events_pending', { ...ours(), silenced: 'false' })).toBe(0);
    await refresh([unitUuid(1), unitUuid(2)]);
    expect(await scrape('gateway_events_sent_total', { namespace: 'mo', routing_key: 'org_unit' })).toBe(
      sentBefore + 2,
    );
    expect(await scrape('gateway_events_pending', { ...ours(), silenced: 'false' })).toBe(2);
    expect(await scrape('gateway_events_pending', { ...ours(), silenced: 'true' })).toBe(0);
    const oldest = await scrape('gateway_event_oldest_timestamp_seconds', { ...ours(), silenced: 'false' });
    expect(oldest).toBeGreaterThanOrEqual(before);
    expect(oldest).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
  });

  it('counts events handed out, handed out again after the back-off, and acknowledged', async () => {
    const first = await fetchEvent();
    expect(first).not.toBeNull();
    expect(await scrape('gateway_events_fetched_total', ours())).toBe(1);
    expect(await scrape('gateway_events_redelivered_total', ours())).toBeUndefined();

    // Never acknowledged: once the back-off has passed, the same event is handed out again.
    const deadline = Date.now() + 30_000;
    let again: { subject: string; token: string } | null = null;
    while (again?.subject !== first!.subject) {
      if (Date.now() > deadline) throw new Error('the unacknowledged event did not come back within 30 s');
      again = await fetchEvent();
      if (again !== null && again.subject !== first!.subject) {
        await graphql('mutation($t: EventToken!) { event_acknowledge(input: {token: $t}) }', {
          t: again.token,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await scrape('gateway_events_redelivered_total', ours())).toBe(1);
    const acknowledgedBefore = (await scrape('gateway_events_acknowledged_total', ours())) ?? 0;
    // The first delivery's token is stale: acknowledging it removes nothing and counts nothing.
    await graphql('mutation($t: EventToken!) { event_acknowledge(input: {token: $t}) }', { t: first!.token });
    await graphql('mutation($t: EventToken!) { event_acknowledge(input: {token: $t}) }', { t: again.token });
    expect(await scrape('gateway_events_acknowledged_total', ours())).toBe(acknowledgedBefore + 1);
    expect(await scrape('gateway_events_pending', { ...ours(), silenced: 'false' })).toBe(0);
  });

  it('shows silenced events apart', async () => {
    await refresh([unitUuid(3)]);
    await graphql(
      'mutation($l: UUID!, $s: [String!]!) { event_silence(input: {listeners: {uuids: [$l]}, subjects: $s}) }',
      { l: listener, s: [unitUuid(3)] },
    );
    expect(await scrape('gateway_events_pending', { ...ours(), silenced: 'true' })).toBe(1);
    expect(await scrape('gateway_events_pending', { ...ours(), silenced: 'false' })).toBe(0);
    expect(
      await scrape('gateway_event_oldest_timestamp_seconds', { ...ours(), silenced: 'true' }),
    ).toBeGreaterThan(0);
  });

  it('still answers the other metrics while the database is down, and the events again once it is back', async () => {
    await postgres.stop();
    try {
      const response = await fetch(`${stack.gatewayUrl}/metrics`, {
        headers: { authorization: `Bearer ${metricsToken}` },
      });
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toContain('gateway_http_requests_total');
      expect(text).not.toMatch(/^gateway_events_pending\{/m);
    } finally {
      await postgres.restart();
    }
    // The pool may still hold a connection the restart ended: the scrape after it reconnects.
    const deadline = Date.now() + 30_000;
    let pending = await scrape('gateway_events_pending', { ...ours(), silenced: 'true' });
    while (pending === undefined && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      pending = await scrape('gateway_events_pending', { ...ours(), silenced: 'true' });
    }
    expect(pending).toBe(1);
  });
});
