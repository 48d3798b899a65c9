import { Counter, Gauge, type Registry } from 'prom-client';
import type { Database } from '../database/database.js';

/**
 * OS2mo's event metrics (`mora/db/events.py`, HEAD: `os2mo_events`, `os2mo_event_oldest`,
 * `os2mo_event_acknowledged`, `os2mo_event_sent`, read at each scrape of `/metrics`) under the gateway's names,
 * and two OS2mo lacks: events handed out, and handed out again (a consumer that fetched and never acknowledged).
 *
 * The two gauges are read from the database at each scrape, so every replica shows the same figures (take
 * `max`, not `sum`, across replicas); the counters are this replica's own (take `sum`).
 */

/** A listener as the metrics label it (OS2mo's labels; `namespace` is OS2mo's `ns`). */
export type ListenerLabels = {
  owner: string;
  user_key: string;
  namespace: string;
  routing_key: string;
};

const listenerLabels = ['owner', 'user_key', 'namespace', 'routing_key'] as const;

export interface EventMetrics {
  /** `event_fetch` handed an event out; `fetchedBefore`: how often it had been handed out already. */
  fetched(listener: ListenerLabels, fetchedBefore: number): void;
  acknowledged(listener: ListenerLabels): void;
  /** Subjects sent in a namespace with a routing key, however many listeners they reach (as OS2mo counts). */
  sent(namespace: string, routingKey: string, subjects: number): void;
}

type PendingRow = ListenerLabels & {
  active: number;
  silenced: number;
  oldest_active: number | null;
  oldest_silenced: number | null;
};

/**
 * @example
 * const metrics = createEventMetrics(database, registry);
 * const events = createEventStore(database, { retryMinSeconds: 180, metrics });
 */
export function createEventMetrics(
  database: Database,
  registry: Registry,
  onScrapeFailure: (error: unknown) => void = () => undefined,
): EventMetrics {
  const registers = [registry];
  const pendingLabels = [...listenerLabels, 'silenced'] as const;
  const oldest = new Gauge({
    name: 'gateway_event_oldest_timestamp_seconds',
    help: "Creation time (Unix seconds) of each listener's oldest pending event, silenced or not (OS2mo's os2mo_event_oldest).",
    labelNames: pendingLabels,
    registers,
  });
  new Gauge({
    name: 'gateway_events_pending',
    help: "Pending events per listener, silenced or not; 0 for a listener with none (OS2mo's os2mo_events). Read from the database at each scrape.",
    labelNames: pendingLabels,
    registers,
    async collect() {
      this.reset();
      oldest.reset();
      let rows: PendingRow[];
      try {
        // One row per listener (an outer join: a listener without events reads 0, so its series goes to zero).
        ({ rows } = await database.query<PendingRow>(
          `SELECT l.owner, l.user_key, l.namespace_fk AS namespace, l.routing_key,
             (count(e.pk) FILTER (WHERE NOT e.silenced))::int AS active,
             (count(e.pk) FILTER (WHERE e.silenced))::int AS silenced,
             extract(epoch FROM min(e.created_at) FILTER (WHERE NOT e.silenced))::float8 AS oldest_active,
             extract(epoch FROM min(e.created_at) FILTER (WHERE e.silenced))::float8 AS oldest_silenced
           FROM event_listener l LEFT JOIN event e ON e.listener_fk = l.pk
           GROUP BY l.pk`,
        ));
      } catch (error) {
        // The database is down: the scrape still answers the gateway's other metrics.
        onScrapeFailure(error);
        return;
      }
      for (const { active, silenced, oldest_active, oldest_silenced, ...labels } of rows) {
        this.set({ ...labels, silenced: 'false' }, active);
        this.set({ ...labels, silenced: 'true' }, silenced);
        if (oldest_active !== null) oldest.set({ ...labels, silenced: 'false' }, Math.floor(oldest_active));
        if (oldest_silenced !== null)
          oldest.set({ ...labels, silenced: 'true' }, Math.floor(oldest_silenced));
      }
    },
  });
  const fetched = new Counter({
    name: 'gateway_events_fetched_total',
    help: 'Events event_fetch handed out on this replica, per listener.',
    labelNames: listenerLabels,
    registers,
  });
  const redelivered = new Counter({
    name: 'gateway_events_redelivered_total',
    help: 'Events event_fetch handed out again on this replica (an earlier delivery was never acknowledged), per listener.',
    labelNames: listenerLabels,
    registers,
  });
  const acknowledged = new Counter({
    name: 'gateway_events_acknowledged_total',
    help: "Events acknowledged on this replica, per listener (OS2mo's os2mo_event_acknowledged).",
    labelNames: listenerLabels,
    registers,
  });
  const sent = new Counter({
    name: 'gateway_events_sent_total',
    help: "Events sent on this replica, one per subject however many listeners it reaches, per namespace and routing key (OS2mo's os2mo_event_sent).",
    labelNames: ['namespace', 'routing_key'] as const,
    registers,
  });
  return {
    fetched(listener, fetchedBefore) {
      fetched.inc(listener);
      if (fetchedBefore > 0) redelivered.inc(listener);
    },
    acknowledged(listener) {
      acknowledged.inc(listener);
    },
    sent(namespace, routingKey, subjects) {
      if (subjects > 0) sent.inc({ namespace, routing_key: routingKey }, subjects);
    },
  };
}
