import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Database } from '../database/database.js';
import type { LegacyClient } from '../legacy/legacy-client.js';
import { legacyPaths, type DetailType } from '../legacy/legacy-paths.js';
import type { Logger } from '../observability/logger.js';
import {
  byObject,
  objectTypes,
  sighting,
  type BackendVersion,
  type ObjectOwner,
  type ObjectSighting,
} from './backend-objects.js';
import {
  allTime,
  isAbsentPath,
  readOwnerListing,
  readingValidity,
  type BackendGet,
} from './backend-reads.js';
import type { BackendRecord } from './backend-record.js';
import { readTouched } from './object-reads.js';

export interface BackendSweepSettings {
  /** Most legacy calls the sweep makes a minute (`BACKEND_SWEEP_CALLS_PER_MINUTE`). */
  callsPerMinute: number;
  /** The pause between two rounds (`BACKEND_SWEEP_INTERVAL_SECONDS`). */
  intervalMs: number;
  /** How long a replica holds the sweep without renewing it before another may take it over. */
  leaseMs?: number;
}

export interface BackendSweepOptions extends BackendSweepSettings {
  database: Database;
  record: BackendRecord;
  legacy: LegacyClient;
  logger?: Logger;
  registry?: Registry;
  clock?: () => Date;
}

/** What one round did. */
export interface SweepRound {
  /** `reading-api`: `/api/v1/{type}?changed_since=`; `service-api`: every unit's and person's listings. */
  road: 'reading-api' | 'service-api';
  calls: number;
  changes: number;
  boundaries: number;
  durationMs: number;
}

export interface BackendSweep {
  /** Starts the loop: rounds while this replica holds the sweep, a pause between them. */
  start(): void;
  /** One round now, if this replica holds (or can take) the sweep; undefined when another holds it. */
  round(): Promise<SweepRound | undefined>;
  /** Resolves with the next round this replica's loop completes (tests and the bench wait on it). */
  nextRound(): Promise<SweepRound>;
  /** Stops the loop (a call in flight is aborted) and gives the sweep up for another replica. */
  stop(): Promise<void>;
}

/**
 * How far back each `changed_since` looks past the previous round's start: the backend's clock may be behind
 * ours. An object seen twice with the same content is no change, so the overlap costs nothing but a read.
 */
const clockMarginMs = 5 * 60_000;
/** Units or people per page of the Service API walk. */
const pageSize = 200;
/** Objects whose boundary is due, re-read per round at most. */
const boundariesPerRound = 500;

const todayOf = (clock: () => Date) => clock().toISOString().slice(0, 10);

function sweepMetrics(registry: Registry | undefined) {
  const registers = registry ? [registry] : [];
  let lastRoundStart: number | undefined;
  let progress = 0;
  return {
    calls: new Counter({
      name: 'gateway_backend_sweep_calls_total',
      help: 'Legacy calls the sweep of the backend made.',
      registers,
    }),
    changes: new Counter({
      name: 'gateway_backend_record_changes_total',
      help: 'Changes the record of the backend noticed, by source (write, sweep, boundary).',
      labelNames: ['source'] as const,
      registers,
    }),
    rounds: new Counter({
      name: 'gateway_backend_sweep_rounds_total',
      help: 'Sweep rounds, by road (reading-api, service-api) and outcome (done, failed).',
      labelNames: ['road', 'outcome'] as const,
      registers,
    }),
    lag: new Gauge({
      name: 'gateway_backend_sweep_lag_seconds',
      help: 'Age of the start of the last complete sweep round: a change made around the gateway is noticed within it.',
      registers,
      collect() {
        if (lastRoundStart !== undefined) this.set((Date.now() - lastRoundStart) / 1000);
      },
    }),
    progress: new Gauge({
      name: 'gateway_backend_sweep_progress_ratio',
      help: 'How much of the current sweep round is done (0 to 1).',
      registers,
      collect() {
        this.set(progress);
      },
    }),
    roundDone: (startedAt: number) => {
      lastRoundStart = startedAt;
    },
    setProgress: (value: number) => {
      progress = value;
    },
  };
}

/**
 * Source (b) and (c) of the record: a sweep of the backend within `callsPerMinute` legacy calls, run by one
 * replica at a time (a lease in `backend_sweep`, renewed each round), that notes what changed, including what
 * was written around the gateway, and re-reads each object whose validity boundary has come.
 *
 * A round reads, for each kind, `/api/v1/{kind}?changed_since=…` (OS2mo 2.4.0's reading API), all time; the
 * first round of a fresh database reads everything, which is how a lost database is rebuilt. A backend without
 * the reading API is walked instead: every unit's and person's listings of the types it says it has.
 */
export function createBackendSweep(options: BackendSweepOptions): BackendSweep {
  const clock = options.clock ?? (() => new Date());
  const holder = randomUUID();
  const leaseMs = options.leaseMs ?? Math.max(60_000, options.intervalMs * 3);
  const spacingMs = 60_000 / options.callsPerMinute;
  const metrics = sweepMetrics(options.registry);
  const stopping = new AbortController();
  // Every call of a round listens to it; they end with their calls, so the count is bounded by the rate.
  setMaxListeners(0, stopping.signal);
  let loop: Promise<void> | undefined;
  let nextCallAt = 0;
  let calls = 0;
  const waiting: ((round: SweepRound) => void)[] = [];

  /** One GET, no sooner than the rate allows; the gateway's own credential (or none), never a caller's. */
  const get: BackendGet = async <T>(path: string): Promise<T> => {
    const wait = nextCallAt - Date.now();
    nextCallAt = Math.max(nextCallAt, Date.now()) + spacingMs;
    if (wait > 0) await delay(wait, undefined, { signal: stopping.signal });
    calls += 1;
    metrics.calls.inc();
    return options.legacy.json<T>({ method: 'GET', path, signal: stopping.signal });
  };

  const takeLease = async (): Promise<boolean> => {
    const { rowCount } = await options.database.query(
      `UPDATE backend_sweep SET holder = $1, lease_until = now() + make_interval(secs => $2)
        WHERE name = 'backend' AND (holder = $1 OR holder IS NULL OR lease_until < now())`,
      [holder, leaseMs / 1000],
    );
    return rowCount === 1;
  };

  // The first round on an empty record is a baseline: the objects were there before, only the record was not.
  let baseline = false;
  const note = async (sightings: ObjectSighting[]) => {
    const changes = await options.record.note(sightings, 'sweep', { quiet: baseline });
    if (!baseline) metrics.changes.inc({ source: 'sweep' }, changes.length);
    return baseline ? 0 : changes.length;
  };

  /** Source (c): each object whose boundary has come, read again and told as changed. */
  const boundaries = async (today: string): Promise<number> => {
    const due = await options.record.dueBoundaries(today, boundariesPerRound);
    if (due.length === 0) return 0;
    const sightings = await readTouched(get, due, { whereabouts: options.record.whereabouts, today });
    const found = new Set(sightings.map((s) => `${s.type}/${s.uuid}`));
    await options.record.forgetBoundaries(due.filter((o) => !found.has(`${o.type}/${o.uuid}`)));
    const changes = await options.record.note(sightings, 'boundary', { always: true });
    metrics.changes.inc({ source: 'boundary' }, changes.length);
    return changes.length;
  };

  /** Through the reading API: each kind's objects written since the last round. Undefined without it. */
  const readingApiRound = async (today: string, since: Date | null): Promise<number | undefined> => {
    let changes = 0;
    for (const [index, type] of objectTypes.entries()) {
      let versions: BackendVersion[];
      try {
        versions = await get<BackendVersion[]>(
          legacyPaths.readingList(type, {
            at: today,
            validity: readingValidity(allTime),
            changed_since: since?.toISOString(),
          }),
        );
      } catch (error) {
        if (index === 0 && isAbsentPath(error)) return undefined;
        throw error;
      }
      changes += await note(byObject(versions).map((group) => sighting(type, group, today)));
      metrics.setProgress((index + 1) / objectTypes.length);
    }
    return changes;
  };

  /** Every unit's or person's UUID, page by page. */
  const everyOwner = async (kind: 'unit' | 'person', today: string): Promise<string[]> => {
    const organisation = (await get<{ uuid: string }[]>(legacyPaths.organisations()))[0]?.uuid;
    if (organisation === undefined) return [];
    const uuids: string[] = [];
    for (let start = 0; ; start += pageSize) {
      const query = { at: today, start, limit: pageSize };
      const page = await get<{ items: { uuid: string }[]; total: number }>(
        kind === 'unit'
          ? legacyPaths.orgUnitPage(organisation, query)
          : legacyPaths.employeePage(organisation, query),
      );
      uuids.push(...page.items.map((item) => item.uuid));
      if (page.items.length === 0 || start + pageSize >= page.total) return uuids;
    }
  };

  /** Through the Service API: each unit and person, its own versions and each detail type it says it has. */
  const serviceApiRound = async (today: string): Promise<number> => {
    const owners: { kind: 'unit' | 'person'; uuid: string }[] = [
      ...(await everyOwner('unit', today)).map((uuid) => ({ kind: 'unit' as const, uuid })),
      ...(await everyOwner('person', today)).map((uuid) => ({ kind: 'person' as const, uuid })),
    ];
    let changes = 0;
    // An object whose owner changed over time (a manager post held by two people) is in both listings, each with
    // its own versions: the first listing of the walk (always the same one) speaks for it, once a round.
    const noted = new Set<string>();
    for (const [index, { kind, uuid }] of owners.entries()) {
      const owner: ObjectOwner = kind === 'unit' ? { unit: uuid } : { person: uuid };
      const held = await get<Record<string, boolean>>(
        kind === 'unit' ? legacyPaths.unitDetailTypes(uuid) : legacyPaths.employeeDetailTypes(uuid),
      );
      const own = kind === 'unit' ? ('org_unit' as const) : ('employee' as const);
      const types = Object.entries(held)
        .filter(([type, has]) => has && type !== own && (objectTypes as readonly string[]).includes(type))
        .map(([type]) => type as DetailType);
      const found = await Promise.all(
        [own, ...types].map(async (type) => ({
          type,
          versions: await readOwnerListing(get, type, owner, allTime, today),
        })),
      );
      // An object is noted from its owner's listing only: a unit's listing also holds its people's engagements
      // (and a related unit both units'), rendered a little differently, which would read as a change each time.
      const sightings = found
        .flatMap(({ type, versions }) => byObject(versions).map((group) => sighting(type, group, today)))
        .filter((seen) =>
          kind === 'person'
            ? seen.owner.person === uuid
            : seen.owner.person === undefined && seen.owner.unit === uuid,
        );
      const fresh = sightings.filter((seen) => !noted.has(`${seen.type}/${seen.uuid}`));
      for (const seen of fresh) noted.add(`${seen.type}/${seen.uuid}`);
      changes += await note(fresh);
      metrics.setProgress((index + 1) / owners.length);
    }
    return changes;
  };

  const round = async (): Promise<SweepRound | undefined> => {
    if (!(await takeLease())) return undefined;
    const startedAt = clock().getTime();
    const started = performance.now();
    const callsBefore = calls;
    const today = todayOf(clock);
    metrics.setProgress(0);
    const { rows } = await options.database.query<{ changed_since: Date | null; last_round_at: Date | null }>(
      "SELECT changed_since, last_round_at FROM backend_sweep WHERE name = 'backend'",
    );
    const since = rows[0]?.changed_since ?? null;
    baseline = (rows[0]?.last_round_at ?? null) === null;
    let road: SweepRound['road'] = 'reading-api';
    try {
      const dueChanges = baseline ? 0 : await boundaries(today);
      let changes = await readingApiRound(today, since);
      if (changes === undefined) {
        road = 'service-api';
        changes = await serviceApiRound(today);
      }
      await options.database.query(
        `UPDATE backend_sweep SET changed_since = $2, last_round_at = now(), last_round_ms = $3
          WHERE name = 'backend' AND holder = $1`,
        [
          holder,
          road === 'reading-api' ? new Date(startedAt - clockMarginMs) : null,
          Math.round(performance.now() - started),
        ],
      );
      metrics.rounds.inc({ road, outcome: 'done' });
      metrics.roundDone(startedAt);
      const result = {
        road,
        calls: calls - callsBefore,
        changes,
        boundaries: dueChanges,
        durationMs: Math.round(performance.now() - started),
      };
      options.logger?.info(result, 'backend sweep: round done');
      return result;
    } catch (error) {
      metrics.rounds.inc({ road, outcome: 'failed' });
      throw error;
    }
  };

  return {
    start() {
      loop ??= (async () => {
        while (!stopping.signal.aborted) {
          try {
            const done = await round();
            if (done) for (const resolve of waiting.splice(0)) resolve(done);
          } catch (error) {
            if (stopping.signal.aborted) return;
            options.logger?.warn(
              { err: error },
              'backend sweep: the round failed; tried again after the pause',
            );
          }
          try {
            await delay(options.intervalMs, undefined, { signal: stopping.signal });
          } catch {
            return;
          }
        }
      })();
    },
    round,
    nextRound: () => new Promise((resolve) => waiting.push(resolve)),
    async stop() {
      stopping.abort();
      await loop;
      await options.database
        .query(
          "UPDATE backend_sweep SET holder = NULL, lease_until = '1970-01-01' WHERE name = 'backend' AND holder = $1",
          [holder],
        )
        .catch(() => undefined);
    },
  };
}
