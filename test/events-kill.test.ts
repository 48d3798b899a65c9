import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unitUuid } from '../legacy-service/src/fixture/organisation.js';
import { clientToken } from './idp-tokens.js';
import { startTsProcess, waitForHealth, type StartedProcess } from './processes.js';
import { startTestPostgres, type TestPostgres } from './postgres.js';
import { graphqlData, startTestStack, type TestStack } from './stack.js';

/**
 * At-least-once across crashes (issue 36, item 5): a consumer in FastRAMQPI's shape
 * (`mo_ldap_import_export/fastramqpi/events.py` in `github:OS2mo/os2mo-ldap-import-export`, commit
 * 4e504d4e065831ef84524a748d57e0298734db68: on any error its fetcher logs, pauses and goes on) loses no event
 * when the replica it fetched from dies with SIGKILL, while the fetch is in flight or after it answered but
 * before the acknowledgement, nor when the database restarts. The event comes back on another replica once
 * OS2mo's back-off has passed (`mora/graphapi/events.py`, HEAD: at least the retry minimum, then 2^n s after
 * the n-th fetch), shortened here by `EVENT_RETRY_MIN_SECONDS`.
 *
 * Replicas: the stack's in-process gateway survives; each case that kills a replica kills a gateway process of
 * its own, on the same real Postgres, backend and identity provider. Every wait polls with a deadline; nothing
 * sleeps.
 */

let postgres: TestPostgres;
let stack: TestStack;
let token: string;
/** The gateway processes the cases started (most are killed on the way). */
const started: StartedProcess[] = [];

const retryMinSeconds = '1';

beforeAll(async () => {
  postgres = await startTestPostgres();
  stack = await startTestStack({
    gatewayEnv: { DATABASE_URL: postgres.url, EVENT_RETRY_MIN_SECONDS: retryMinSeconds },
  });
  token = await clientToken(stack.idp.issuer, 'integration');
});
afterAll(async () => {
  await Promise.all(started.map((process) => process.stop('SIGKILL')));
  await stack?.close();
  await postgres?.close();
});

/** A gateway replica as a process of its own (killable), on the stack's backend and the one Postgres. */
async function startReplica(): Promise<{ process: StartedProcess; url: string }> {
  // As spawnGateway, with more time to start: tsx compiles the gateway in each new process, slow on busy cores.
  const process = await startTsProcess(
    'gateway/src/main.ts',
    {
      GATEWAY_HOST: '127.0.0.1',
      GATEWAY_PORT: '0',
      LEGACY_URL: stack.legacyUrl,
      IDP_ISSUER: stack.idp.issuer,
      IDP_JWKS_URL: stack.idp.jwksUri,
      IDP_RBAC_ENABLED: 'true',
      LOG_LEVEL: 'warn',
      DATABASE_URL: postgres.url,
      DATABASE_POOL_SIZE: '2',
      EVENT_RETRY_MIN_SECONDS: retryMinSeconds,
      // No sweep: the events of this file are the refreshes its cases send.
      BACKEND_SWEEP_CLIENT_ID: '',
    },
    /listening on (127\.0\.0\.1:\d+)/,
    120_000,
  );
  started.push(process);
  const url = `http://${process.url}`;
  await waitForHealth(`${url}/health/ready`, 30_000);
  return { process, url };
}

async function graphql<T>(gateway: string, query: string, variables = {}): Promise<T> {
  return graphqlData<T>(gateway, token, query, variables);
}

interface FetchedEvent {
  subject: string;
  token: string;
}

const fetchEvent = (gateway: string, listener: string) =>
  graphql<{ event_fetch: FetchedEvent | null }>(
    gateway,
    'query($l: UUID!) { event_fetch(filter: {listener: $l}) { subject token } }',
    { l: listener },
  ).then((data) => data.event_fetch);

const acknowledge = (gateway: string, eventToken: string) =>
  graphql(gateway, 'mutation($t: EventToken!) { event_acknowledge(input: {token: $t}) }', { t: eventToken });

/** A listener of this case's own: the events sent to it are this case's alone. */
async function declareListener(userKey: string): Promise<string> {
  const data = await graphql<{ event_listener_declare: { uuid: string } }>(
    stack.gatewayUrl,
    'mutation($i: ListenerCreateInput!) { event_listener_declare(input: $i) { uuid } }',
    { i: { namespace: 'mo', user_key: userKey, routing_key: 'org_unit' } },
  );
  return data.event_listener_declare.uuid;
}

/** `org_unit_refresh(listener:)`: one event per unit, to this listener only. */
async function refresh(gateway: string, listener: string, units: string[]): Promise<void> {
  await graphql(
    gateway,
    'mutation($u: [UUID!], $l: UUID) { org_unit_refresh(filter: {uuids: $u}, listener: $l) { objects } }',
    { u: units, l: listener },
  );
}

/** The listener's pending events (`events`), as the gateway's database holds them. */
async function pending(listener: string): Promise<string[]> {
  const data = await graphql<{ events: { objects: { subject: string }[] } }>(
    stack.gatewayUrl,
    'query($l: UUID!) { events(filter: {listeners: {uuids: [$l]}}) { objects { subject } } }',
    { l: listener },
  );
  return data.events.objects.map((event) => event.subject).sort();
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 50));

/** Polls `condition` until it holds, for at most `timeoutMs`. */
async function until<T>(what: string, condition: () => Promise<T | undefined>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await pause();
  }
}

/**
 * FastRAMQPI's fetcher until `subjects` are all handled: fetch, handle, acknowledge; a failed call (a replica
 * gone, the database down) is logged by FastRAMQPI and tried again, as here. Answers every delivery.
 */
async function consume(
  gateway: string,
  listener: string,
  subjects: string[],
  handle: (event: FetchedEvent) => Promise<void> = async () => undefined,
  timeoutMs = 60_000,
) {
  const handled = new Set<string>();
  const deliveries: string[] = [];
  await until(
    `handling ${subjects.join(', ')}`,
    async () => {
      try {
        const event = await fetchEvent(gateway, listener);
        if (event !== null) {
          deliveries.push(event.subject);
          await handle(event);
          handled.add(event.subject);
          await acknowledge(gateway, event.token);
        }
      } catch {
        // FastRAMQPI: "Unexpected exception in GraphQL event fetcher", a pause, and on.
      }
      return subjects.every((subject) => handled.has(subject)) ? true : undefined;
    },
    timeoutMs,
  );
  return deliveries;
}

/** A connection of the test's own to the gateway's database. */
async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  return client;
}

describe('a consumer loses no event when a replica is killed or the database restarts', () => {
  it(
    'an event_fetch in flight on a replica killed with SIGKILL: its answer is lost, the event comes back after the back-off',
    { timeout: 300_000 },
    async () => {
      const listener = await declareListener('killed-mid-fetch');
      const subject = unitUuid(3);
      await refresh(stack.gatewayUrl, listener, [subject]);
      const doomed = await startReplica();

      // Hold the fetch in the database: a table lock the fetch's row lock must wait for.
      const locker = await connect();
      const watcher = await connect();
      try {
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE event IN EXCLUSIVE MODE');
        const inFlight = fetchEvent(doomed.url, listener).then(
          () => 'answered',
          () => 'lost',
        );
        const waiting = async () => {
          const { rows } = await watcher.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity
             WHERE wait_event_type = 'Lock' AND query LIKE '%FOR UPDATE OF e SKIP LOCKED%'`,
          );
          return rows[0]?.pid;
        };
        const fetching = await until('the fetch waiting for the lock', waiting);

        await doomed.process.stop('SIGKILL');
        expect(await inFlight).toBe('lost');
        // The gateway is gone, its statement is not: once the lock is released it hands the event out to nobody.
        await locker.query('COMMIT');
        await until('the dead replica’s statement to end', async () => {
          const { rows } = await watcher.query(
            'SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND state = $2',
            [fetching, 'active'],
          );
          return rows.length === 0 ? true : undefined;
        });
        const [lostDelivery] = (
          await watcher.query<{ fetched_count: number; last_tried: Date }>(
            'SELECT fetched_count, last_tried FROM event WHERE listener_fk = $1 AND subject = $2',
            [listener, subject],
          )
        ).rows;
        expect(lostDelivery?.fetched_count).toBe(1);

        // The consumer, on the replica that lives, gets it again: no sooner than OS2mo's back-off (2^1 s).
        let redelivered: Date | undefined;
        const deliveries = await consume(stack.gatewayUrl, listener, [subject], async () => {
          redelivered = (
            await watcher.query<{ last_tried: Date }>(
              'SELECT last_tried FROM event WHERE listener_fk = $1 AND subject = $2',
              [listener, subject],
            )
          ).rows[0]?.last_tried;
        });
        expect(deliveries).toEqual([subject]);
        expect(redelivered!.getTime() - lostDelivery!.last_tried.getTime()).toBeGreaterThanOrEqual(2_000);
        // Acknowledged: handled once, never handed out again.
        expect(await pending(listener)).toEqual([]);
      } finally {
        await locker.end();
        await watcher.end();
      }
    },
  );

  it(
    'an event fetched from a replica killed before the acknowledgement comes back, on another replica and on the replica restarted',
    { timeout: 300_000 },
    async () => {
      const listener = await declareListener('killed-before-ack');
      const [first, second] = [unitUuid(4), unitUuid(5)];
      await refresh(stack.gatewayUrl, listener, [first]);
      const doomed = await startReplica();
      const fetched = await fetchEvent(doomed.url, listener);
      expect(fetched?.subject).toBe(first);
      await doomed.process.stop('SIGKILL');
      // The consumer handled it and acknowledges to the replica it fetched from: gone.
      await expect(acknowledge(doomed.url, fetched!.token)).rejects.toThrow();

      // Meanwhile another change; the replica comes back (a new process on the same database) and the consumer
      // goes on against it: both arrive, the lost one after its back-off.
      await refresh(stack.gatewayUrl, listener, [second]);
      const restarted = await startReplica();
      const deliveries = await consume(restarted.url, listener, [first, second]);
      expect([...new Set(deliveries)].sort()).toEqual([first, second].sort());
      expect(await pending(listener)).toEqual([]);
    },
  );

  it(
    'resumes after a restart of the database: a fetched, unacknowledged event and one sent after the restart both arrive',
    { timeout: 300_000 },
    async () => {
      // No process is killed here: the stack's gateway is the replica whose connections the restart ends.
      const listener = await declareListener('database-restart');
      const [before, after] = [unitUuid(6), unitUuid(7)];
      await refresh(stack.gatewayUrl, listener, [before]);
      const fetched = await fetchEvent(stack.gatewayUrl, listener);
      expect(fetched?.subject).toBe(before);

      // A fast shutdown ends every connection of the gateway's pool, as a restart of the database does.
      await postgres.stop();
      await expect(fetchEvent(stack.gatewayUrl, listener)).rejects.toThrow(/DATABASE_UNAVAILABLE/);
      await postgres.restart();
      // The consumer never acknowledged the first delivery: the event is still pending and comes back.
      await refresh(stack.gatewayUrl, listener, [after]).catch(async () => {
        // The pool may hold a connection the restart ended: the next statement reconnects.
        await until('the gateway reaching the database again', () =>
          refresh(stack.gatewayUrl, listener, [after]).then(
            () => true,
            () => undefined,
          ),
        );
      });
      const deliveries = await consume(stack.gatewayUrl, listener, [before, after]);
      expect([...new Set(deliveries)].sort()).toEqual([before, after].sort());
      expect(await pending(listener)).toEqual([]);
    },
  );
});
