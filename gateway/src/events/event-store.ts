import type { Database, SqlValues } from '../database/database.js';
import type { EventMetrics, ListenerLabels } from './event-metrics.js';
import { decodeEventToken, encodeEventToken } from './event-token.js';

/**
 * OS2mo's event system over the gateway's database (tables of migration 0001, OS2mo's `mora/db/events.py`):
 * namespaces, listeners owned by a client, and one pending event per listener and subject. What OS2mo's
 * GraphQL resolvers do (`mora/graphapi/events.py`, `mora/graphapi/mutators.py`, HEAD) is done here in SQL, with
 * the owner checks OS2mo makes and a few it leaves out (noted where they are).
 */

/** OS2mo's default priority (`DEFAULT_PRIORITY`); 1 is the highest. */
export const defaultPriority = 10_000;

/** OS2mo's own public namespace, in which every change of an organisation object is sent. */
export const moNamespace = 'mo';

/** A refusal a client caused: its message says what to change; `code` is machine-readable. */
export class EventRejected extends Error {
  constructor(
    readonly code: 'EVENT_NOT_ALLOWED' | 'EVENT_CONFLICT' | 'EVENT_NOT_FOUND' | 'EVENT_BAD_INPUT',
    message: string,
  ) {
    super(message);
    this.name = 'EventRejected';
  }
}

export interface Namespace {
  name: string;
  owner: string;
  public: boolean;
}

export interface Listener {
  uuid: string;
  owner: string;
  user_key: string;
  routing_key: string;
  namespace: string;
}

/** A pending event as the `events` collection shows it (never with its token). */
export interface PendingEvent {
  subject: string;
  priority: number;
  silenced: boolean;
  listener: string;
}

/** One event handed out by `fetch`: acknowledged with its token. */
export interface FetchedEvent {
  subject: string;
  priority: number;
  token: string;
}

export interface NamespaceFilter {
  names?: string[] | null;
  owners?: string[] | null;
  public?: boolean | null;
}

export interface ListenerFilter {
  uuids?: string[] | null;
  user_keys?: string[] | null;
  owners?: string[] | null;
  routing_keys?: string[] | null;
  namespaces?: NamespaceFilter | null;
}

export interface EventFilter {
  listeners?: ListenerFilter | null;
  subjects?: string[] | null;
  priorities?: number[] | null;
  silenced?: boolean | null;
}

/** A page: `limit` null for all; `cursor` the last key of the previous page. */
export interface PageRequest {
  limit?: number | null;
  cursor?: string | null;
}

export interface Page<T> {
  objects: T[];
  nextCursor: string | null;
}

/** Which listeners an event is for: all of the namespace and routing key, or only one, or one owner's. */
export interface Recipients {
  listener?: string | null;
  owner?: string | null;
}

export interface EventStoreOptions {
  /**
   * The least wait before an unacknowledged event is handed out again, in seconds: OS2mo's 3 minutes, then
   * 2^n seconds after the n-th fetch, at most 17 hours (`event_resolver`). `EVENT_RETRY_MIN_SECONDS`.
   */
  retryMinSeconds: number;
  /** Counts what is fetched, acknowledged and sent (`event-metrics.ts`). */
  metrics?: EventMetrics;
}

/** SQL conditions with their values, numbered from `values.length + 1`. */
class Conditions {
  readonly clauses: string[] = [];
  constructor(readonly values: unknown[] = []) {}
  /** Adds `clause`, its `$?` placeholders numbered in order. */
  add(clause: string, ...values: unknown[]): void {
    this.clauses.push(clause.replace(/\$\?/g, () => `$${this.values.push(values.shift())}`));
  }
  get sql(): string {
    return this.clauses.length > 0 ? this.clauses.join(' AND ') : 'true';
  }
}

function namespaceConditions(conditions: Conditions, filter: NamespaceFilter, alias: string): void {
  if (filter.names != null) conditions.add(`${alias}.name = ANY($?::text[])`, filter.names);
  if (filter.owners != null) conditions.add(`${alias}.owner = ANY($?::uuid[])`, filter.owners);
  if (filter.public != null) conditions.add(`${alias}.public = $?`, filter.public);
}

function listenerConditions(conditions: Conditions, filter: ListenerFilter, alias: string): void {
  if (filter.uuids != null) conditions.add(`${alias}.pk = ANY($?::uuid[])`, filter.uuids);
  if (filter.user_keys != null) conditions.add(`${alias}.user_key = ANY($?::text[])`, filter.user_keys);
  if (filter.owners != null) conditions.add(`${alias}.owner = ANY($?::uuid[])`, filter.owners);
  if (filter.routing_keys != null) {
    conditions.add(`${alias}.routing_key = ANY($?::text[])`, filter.routing_keys);
  }
  if (filter.namespaces != null) {
    const inner = new Conditions(conditions.values);
    namespaceConditions(inner, filter.namespaces, 'n');
    conditions.clauses.push(
      `${alias}.namespace_fk IN (SELECT n.name FROM event_namespace n WHERE ${inner.sql})`,
    );
  }
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A page of rows keyed by `key`, one more asked for to know whether a next page exists. */
function paged<Row, T>(
  rows: Row[],
  limit: number | null | undefined,
  key: (row: Row) => string,
  map: (row: Row) => T,
) {
  const more = limit != null && rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  return {
    objects: kept.map(map),
    nextCursor: more && kept.length > 0 ? key(kept[kept.length - 1]!) : null,
  };
}

function limitClause(values: unknown[], limit: number | null | undefined): string {
  return limit == null ? '' : ` LIMIT $${values.push(limit + 1)}`;
}

function uuidCursor(cursor: string | null | undefined): string | undefined {
  if (cursor == null) return undefined;
  if (!uuidPattern.test(cursor))
    throw new EventRejected('EVENT_BAD_INPUT', 'The cursor is not one this API gave.');
  return cursor;
}

const listenerRow = (row: Record<string, string>): Listener => ({
  uuid: row.pk!,
  owner: row.owner!,
  user_key: row.user_key!,
  routing_key: row.routing_key!,
  namespace: row.namespace_fk!,
});

/**
 * @example
 * const events = createEventStore(database, { retryMinSeconds: 180 });
 * const listener = await events.declareListener(owner, { namespace: 'mo', user_key: 'engagements', routing_key: 'engagement' });
 * const event = await events.fetch(owner, listener.uuid);
 */
export function createEventStore(database: Database, options: EventStoreOptions) {
  const query = <Row extends Record<string, unknown>>(text: string, values?: SqlValues) =>
    database.query<Row>(text, values);

  return {
    /** OS2mo's `event_namespace_declare`: idempotent for its owner; another's name or another `public` is refused. */
    async declareNamespace(owner: string, input: { name: string; public: boolean }): Promise<Namespace> {
      await query(
        'INSERT INTO event_namespace (name, owner, public) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        [input.name, owner, input.public],
      );
      const [namespace] = (
        await query<{ name: string; owner: string; public: boolean }>(
          'SELECT name, owner, public FROM event_namespace WHERE name = $1',
          [input.name],
        )
      ).rows;
      if (namespace!.owner !== owner) {
        throw new EventRejected('EVENT_CONFLICT', `The namespace "${input.name}" belongs to another client.`);
      }
      if (namespace!.public !== input.public) {
        throw new EventRejected(
          'EVENT_CONFLICT',
          `The namespace "${input.name}" exists with public: ${String(namespace!.public)}; declare it so.`,
        );
      }
      return namespace!;
    },

    /**
     * OS2mo's `event_namespace_delete`. OS2mo lets anyone delete any namespace; here only its owner may (and so
     * nobody may delete "mo").
     */
    async deleteNamespace(owner: string, name: string): Promise<boolean> {
      const [namespace] = (
        await query<{ owner: string }>('SELECT owner FROM event_namespace WHERE name = $1', [name])
      ).rows;
      if (namespace === undefined) return true;
      if (namespace.owner !== owner) {
        throw new EventRejected('EVENT_NOT_ALLOWED', `The namespace "${name}" belongs to another client.`);
      }
      const listeners = await query('SELECT 1 FROM event_listener WHERE namespace_fk = $1 LIMIT 1', [name]);
      if (listeners.rowCount! > 0) {
        throw new EventRejected(
          'EVENT_CONFLICT',
          `The namespace "${name}" still has listeners: delete them first with event_listener_delete.`,
        );
      }
      await query('DELETE FROM event_namespace WHERE name = $1', [name]);
      return true;
    },

    /**
     * OS2mo's `event_listener_declare`: idempotent on (namespace, user_key, owner); a private namespace takes
     * listeners of its owner only, and a user_key keeps its routing key.
     */
    async declareListener(
      owner: string,
      input: { namespace: string; user_key: string; routing_key: string },
    ): Promise<Listener> {
      const [namespace] = (
        await query<{ owner: string; public: boolean }>(
          'SELECT owner, public FROM event_namespace WHERE name = $1',
          [input.namespace],
        )
      ).rows;
      if (namespace === undefined) {
        throw new EventRejected(
          'EVENT_NOT_FOUND',
          `There is no namespace "${input.namespace}"; declare it first.`,
        );
      }
      if (!namespace.public && namespace.owner !== owner) {
        throw new EventRejected(
          'EVENT_NOT_ALLOWED',
          `The namespace "${input.namespace}" is not public and belongs to another client.`,
        );
      }
      await query(
        `INSERT INTO event_listener (user_key, owner, namespace_fk, routing_key) VALUES ($1, $2, $3, $4)
         ON CONFLICT ON CONSTRAINT uq_user_key_owner_namespace DO NOTHING`,
        [input.user_key, owner, input.namespace, input.routing_key],
      );
      const [row] = (
        await query<Record<string, string>>(
          `SELECT pk, owner, user_key, routing_key, namespace_fk FROM event_listener
           WHERE user_key = $1 AND owner = $2 AND namespace_fk = $3`,
          [input.user_key, owner, input.namespace],
        )
      ).rows;
      const listener = listenerRow(row!);
      if (listener.routing_key !== input.routing_key) {
        throw new EventRejected(
          'EVENT_CONFLICT',
          `Your listener "${input.user_key}" listens for "${listener.routing_key}"; give another user_key for "${input.routing_key}".`,
        );
      }
      return listener;
    },

    /**
     * OS2mo's `event_listener_delete`: refused while events are pending unless they are deleted too. OS2mo lets
     * anyone delete any listener; here only its owner may.
     */
    async deleteListener(
      owner: string,
      input: { uuid: string; delete_pending_events: boolean },
    ): Promise<boolean> {
      return database.transaction(async (transaction) => {
        const [listener] = (
          await transaction.query<{ owner: string }>(
            'SELECT owner FROM event_listener WHERE pk = $1 FOR UPDATE',
            [input.uuid],
          )
        ).rows;
        if (listener === undefined) return true;
        if (listener.owner !== owner) {
          throw new EventRejected('EVENT_NOT_ALLOWED', 'That listener belongs to another client.');
        }
        if (input.delete_pending_events) {
          await transaction.query('DELETE FROM event WHERE listener_fk = $1', [input.uuid]);
        } else if (
          (await transaction.query('SELECT 1 FROM event WHERE listener_fk = $1 LIMIT 1', [input.uuid]))
            .rowCount
        ) {
          throw new EventRejected(
            'EVENT_CONFLICT',
            'That listener has pending events: handle them first, or delete them with delete_pending_events: true.',
          );
        }
        await transaction.query('DELETE FROM event_listener WHERE pk = $1', [input.uuid]);
        return true;
      });
    },

    /**
     * OS2mo's `event_fetch`: the owner's next due event of one listener, or null. The row is locked and skipped
     * by concurrent fetches (`FOR UPDATE SKIP LOCKED`), so two consumers, on any replicas, never get the same
     * event at once; handing it out pushes it back by OS2mo's back-off, so an unacknowledged event comes again.
     */
    async fetch(owner: string, listener: string): Promise<FetchedEvent | null> {
      const { rows } = await query<
        { pk: string; subject: string; priority: number; generation: string; fetched_count: number } & Omit<
          ListenerLabels,
          'owner'
        >
      >(
        `WITH next AS (
           SELECT e.pk, l.user_key, l.namespace_fk, l.routing_key
           FROM event e JOIN event_listener l ON l.pk = e.listener_fk
           WHERE e.listener_fk = $1 AND l.owner = $2
             AND e.last_tried < now() - greatest(
               make_interval(secs => $3),
               least(make_interval(secs => power(2, least(e.fetched_count, 32))), interval '17 hours'))
           ORDER BY e.silenced, e.priority, e.fetched_count
           LIMIT 1
           FOR UPDATE OF e SKIP LOCKED)
         UPDATE event SET last_tried = now(), fetched_count = event.fetched_count + 1
         FROM next WHERE event.pk = next.pk
         RETURNING event.pk, event.subject, event.priority, event.generation, event.fetched_count,
           next.user_key, next.namespace_fk AS namespace, next.routing_key`,
        [listener, owner, options.retryMinSeconds],
      );
      const [event] = rows;
      if (event === undefined) return null;
      options.metrics?.fetched(
        { owner, user_key: event.user_key, namespace: event.namespace, routing_key: event.routing_key },
        event.fetched_count - 1,
      );
      return {
        subject: event.subject,
        priority: event.priority,
        token: encodeEventToken({ event: event.pk, generation: event.generation }),
      };
    },

    /**
     * OS2mo's `event_acknowledge`: removes the event if the token is its current generation and the caller owns
     * its listener; an older generation (the event was sent again since) leaves it pending. Always true.
     */
    async acknowledge(owner: string, token: string): Promise<boolean> {
      const parsed = decodeEventToken(token);
      if (parsed === undefined) {
        throw new EventRejected(
          'EVENT_BAD_INPUT',
          'The token is not one event_fetch gave; pass it as given.',
        );
      }
      const { rows } = await query<ListenerLabels>(
        `DELETE FROM event e USING event_listener l
         WHERE e.listener_fk = l.pk AND e.pk = $1 AND e.generation = $2 AND l.owner = $3
         RETURNING l.owner, l.user_key, l.namespace_fk AS namespace, l.routing_key`,
        [parsed.event, parsed.generation, owner],
      );
      // As OS2mo counts: only an acknowledgement that removed the event.
      for (const listener of rows) options.metrics?.acknowledged(listener);
      return true;
    },

    /**
     * OS2mo's `add_event`: one event per matching listener and subject; an event already pending for that
     * listener and subject is renewed (new generation, due at once, the higher priority, back-off reset).
     */
    async add(
      namespace: string,
      routingKey: string,
      subjects: readonly string[],
      priority: number = defaultPriority,
      recipients: Recipients = {},
    ): Promise<void> {
      const unique = [...new Set(subjects)];
      if (unique.length === 0) return;
      const conditions = new Conditions([namespace, routingKey, priority, unique]);
      conditions.add('l.namespace_fk = $1');
      conditions.add('l.routing_key = $2');
      if (recipients.listener != null) conditions.add('l.pk = $?', recipients.listener);
      if (recipients.owner != null) conditions.add('l.owner = $?', recipients.owner);
      await query(
        `INSERT INTO event (listener_fk, subject, priority)
         SELECT l.pk, s.subject, $3 FROM event_listener l CROSS JOIN unnest($4::text[]) AS s(subject)
         WHERE ${conditions.sql}
         ON CONFLICT ON CONSTRAINT uq_listener_subject DO UPDATE SET
           generation = gen_random_uuid(),
           last_tried = '1970-01-01'::timestamptz,
           priority = least(excluded.priority, event.priority),
           fetched_count = 0`,
        conditions.values,
      );
      options.metrics?.sent(namespace, routingKey, unique.length);
    },

    /** OS2mo's `event_send`: only the namespace's owner sends in it; a subject is an identifier, not data. */
    async send(
      owner: string,
      input: { namespace: string; routing_key: string; subject: string; priority: number },
    ): Promise<boolean> {
      if (!Number.isInteger(input.priority) || input.priority < 1) {
        throw new EventRejected('EVENT_BAD_INPUT', 'priority must be a whole number from 1 (the highest).');
      }
      if (input.subject.length > 220) {
        throw new EventRejected(
          'EVENT_BAD_INPUT',
          'The subject is longer than 220 characters: send an identifier, not data.',
        );
      }
      const [namespace] = (
        await query<{ owner: string }>('SELECT owner FROM event_namespace WHERE name = $1', [input.namespace])
      ).rows;
      if (namespace === undefined) {
        throw new EventRejected('EVENT_NOT_FOUND', `There is no namespace "${input.namespace}".`);
      }
      if (namespace.owner !== owner) {
        throw new EventRejected(
          'EVENT_NOT_ALLOWED',
          `Only the owner of "${input.namespace}" sends events in it.`,
        );
      }
      await this.add(input.namespace, input.routing_key, [input.subject], input.priority);
      return true;
    },

    /**
     * OS2mo's `event_silence` and `event_unsilence` (which also makes the events due at once). OS2mo silences
     * anyone's events; here only the caller's own listeners' events.
     */
    async silence(
      owner: string,
      input: { listeners: ListenerFilter | null; subjects: string[] | null; priorities?: number[] | null },
      silenced: boolean,
    ): Promise<boolean> {
      const { listeners, subjects, priorities } = input;
      const conditions = new Conditions();
      conditions.add('l.owner = $?', owner);
      if (listeners != null) listenerConditions(conditions, listeners, 'l');
      if (subjects != null) conditions.add('e.subject = ANY($?::text[])', subjects);
      if (priorities != null) conditions.add('e.priority = ANY($?::int[])', priorities);
      const set = silenced ? 'silenced = true' : "silenced = false, last_tried = '1970-01-01'::timestamptz";
      await query(
        `UPDATE event e SET ${set} FROM event_listener l
         WHERE e.listener_fk = l.pk AND ${silenced ? 'true' : 'e.silenced'} AND ${conditions.sql}`,
        conditions.values,
      );
      return true;
    },

    /** OS2mo's `events`: the caller's own pending events, or everyone's with `readAll` (`read_event_all`). */
    async events(
      owner: string | undefined,
      filter: EventFilter,
      page: PageRequest,
    ): Promise<Page<PendingEvent>> {
      const conditions = new Conditions();
      if (owner !== undefined) conditions.add('l.owner = $?', owner);
      if (filter.listeners != null) listenerConditions(conditions, filter.listeners, 'l');
      if (filter.subjects != null) conditions.add('e.subject = ANY($?::text[])', filter.subjects);
      if (filter.priorities != null) conditions.add('e.priority = ANY($?::int[])', filter.priorities);
      if (filter.silenced != null) conditions.add('e.silenced = $?', filter.silenced);
      const after = uuidCursor(page.cursor);
      if (after !== undefined) conditions.add('e.pk > $?', after);
      const { rows } = await query<{
        pk: string;
        subject: string;
        priority: number;
        silenced: boolean;
        listener_fk: string;
      }>(
        `SELECT e.pk, e.subject, e.priority, e.silenced, e.listener_fk FROM event e
         JOIN event_listener l ON l.pk = e.listener_fk WHERE ${conditions.sql} ORDER BY e.pk${limitClause(conditions.values, page.limit)}`,
        conditions.values,
      );
      return paged(
        rows,
        page.limit,
        (row) => row.pk,
        (row) => ({
          subject: row.subject,
          priority: row.priority,
          silenced: row.silenced,
          listener: row.listener_fk,
        }),
      );
    },

    /** OS2mo's `event_listeners`: every client's, as OS2mo shows them (they hold no organisation data). */
    async listeners(filter: ListenerFilter, page: PageRequest): Promise<Page<Listener>> {
      const conditions = new Conditions();
      listenerConditions(conditions, filter, 'l');
      const after = uuidCursor(page.cursor);
      if (after !== undefined) conditions.add('l.pk > $?', after);
      const { rows } = await query<Record<string, string>>(
        `SELECT l.pk, l.owner, l.user_key, l.routing_key, l.namespace_fk FROM event_listener l
         WHERE ${conditions.sql} ORDER BY l.pk${limitClause(conditions.values, page.limit)}`,
        conditions.values,
      );
      return paged(rows, page.limit, (row) => row.pk!, listenerRow);
    },

    /** OS2mo's `event_namespaces`, paged by name. */
    async namespaces(filter: NamespaceFilter, page: PageRequest): Promise<Page<Namespace>> {
      const conditions = new Conditions();
      namespaceConditions(conditions, filter, 'n');
      if (page.cursor != null) {
        conditions.add('n.name > $?', Buffer.from(page.cursor, 'base64url').toString('utf8'));
      }
      const { rows } = await query<{ name: string; owner: string; public: boolean }>(
        `SELECT n.name, n.owner, n.public FROM event_namespace n WHERE ${conditions.sql}
         ORDER BY n.name${limitClause(conditions.values, page.limit)}`,
        conditions.values,
      );
      return paged(
        rows,
        page.limit,
        (row) => Buffer.from(row.name).toString('base64url'),
        (row) => row,
      );
    },
  };
}

export type EventStore = ReturnType<typeof createEventStore>;
