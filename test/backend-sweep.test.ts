import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLegacyService, type LegacyServer } from '../legacy-service/src/server.js';
import { createBackendRecord, type ObjectChange } from '../gateway/src/backend-record/backend-record.js';
import { createBackendSweep } from '../gateway/src/backend-record/backend-sweep.js';
import { createDatabase, type Database } from '../gateway/src/database/database.js';
import { createLegacyClient, type LegacyClient } from '../gateway/src/legacy/legacy-client.js';
import { startLoopbackProxy, type LoopbackProxy } from './loopback-proxy.js';
import { startTestPostgres, type TestPostgres } from './postgres.js';

/**
 * The sweep of the backend on its own, over a small stand-in (5 units, 10 people) and a real Postgres: through
 * the Service API when the backend has no reading API, one replica at a time, within its rate, on /metrics.
 */
let postgres: TestPostgres;
let legacy: LegacyServer;
let dataDir: string;
let proxy: LoopbackProxy;
let client: LegacyClient;
beforeAll(async () => {
  postgres = await startTestPostgres();
  dataDir = await mkdtemp(join(tmpdir(), 'sweep-legacy-'));
  legacy = await startLegacyService({
    dataDir,
    fsync: false,
    fixture: { units: 5, employees: 10, seed: 7 },
  });
  // OS2mo before 2.4.0: no reading API.
  proxy = await startLoopbackProxy(legacy.url, { notFound: /^\/api\/v1\// });
  client = createLegacyClient({
    url: new URL(proxy.url),
    connectTimeoutMs: 2_000,
    responseTimeoutMs: 10_000,
    auth: { mode: 'none' },
  });
});
afterAll(async () => {
  await client?.close();
  await proxy?.close();
  await legacy?.close();
  await rm(dataDir, { recursive: true, force: true });
  await postgres?.close();
});

/** Renames a unit from today on the backend directly, as a client around the gateway would. */
async function legacyEdit(unit: string): Promise<string> {
  const response = await fetch(`${legacy.url}/service/details/edit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      type: 'org_unit',
      uuid: unit,
      data: {
        uuid: unit,
        name: 'Renamed around the gateway',
        validity: { from: new Date().toISOString().slice(0, 10) },
      },
    }),
  });
  const text = await response.text();
  return response.status === 200 ? '200' : `${response.status}: ${text}`;
}

const sweepOf = (database: Database, options: { registry?: Registry; callsPerMinute?: number } = {}) => {
  const record = createBackendRecord({ database });
  const sweep = createBackendSweep({
    database,
    record,
    legacy: client,
    callsPerMinute: options.callsPerMinute ?? 600_000,
    intervalMs: 3_600_000,
    registry: options.registry,
  });
  return { record, sweep };
};

/** A database of the case's own on the one server: each case starts from an empty record. */
async function freshDatabase(name: string): Promise<string> {
  const admin = createDatabase({ url: postgres.url, poolSize: 1, migrations: [] });
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.close();
  return postgres.url.replace(/\/postgres$/, `/${name}`);
}

describe('the sweep of a backend without the reading API', () => {
  it('walks every unit and person through the Service API: a baseline first, then what changed on the backend', async () => {
    const database = createDatabase({ url: await freshDatabase('walk'), poolSize: 2 });
    const registry = new Registry();
    const apiCallsBefore = proxy.count(/^\/api\/v1\//);
    const { record, sweep } = sweepOf(database, { registry });
    const changes: ObjectChange[] = [];
    record.onObjectChanged((change) => {
      changes.push(change);
    });
    const first = await sweep.round();
    // The first round on an empty record is a baseline: everything is noted, nothing told as changed.
    expect(first).toMatchObject({ road: 'service-api', changes: 0 });
    expect(changes).toEqual([]);
    // The reading API is asked once (its first kind), answers 404, and is not asked again in the round.
    expect(proxy.count(/^\/api\/v1\//) - apiCallsBefore).toBe(1);
    const organisation = ((await (await fetch(`${legacy.url}/service/o/`)).json()) as { uuid: string }[])[0]!
      .uuid;
    const page = (await (await fetch(`${legacy.url}/service/o/${organisation}/ou/?limit=100`)).json()) as {
      items: { uuid: string }[];
    };
    const units = page.items.map((unit) => unit.uuid);
    expect((await record.whereabouts('org_unit', units)).size).toBe(units.length);
    const { rows } = await database.query<{ type: string; uuid: string; owner_person: string | null }>(
      "SELECT type, uuid::text, owner_person::text FROM backend_object WHERE type = 'engagement' LIMIT 1",
    );
    expect(rows[0]?.owner_person).toBeTruthy();

    // A change made on the backend is noticed by the next round, and told once.
    const unit = units[0]!;
    expect(await legacyEdit(unit)).toBe('200');
    const again = await sweep.round();
    expect(again).toMatchObject({ road: 'service-api', changes: 1 });
    expect(changes).toEqual([{ type: 'org_unit', uuid: unit, owner: { unit }, source: 'sweep' }]);

    expect(await sweep.round()).toMatchObject({ road: 'service-api', changes: 0 });
    const text = await registry.metrics();
    expect(text).toMatch(/gateway_backend_sweep_calls_total \d+/);
    expect(text).toContain('gateway_backend_sweep_rounds_total{road="service-api",outcome="done"} 3');
    expect(text).toMatch(/gateway_backend_sweep_progress_ratio 1/);
    await sweep.stop();
    await database.close();
  });

  it('runs on one replica at a time: a second replica finds the sweep held until the first gives it up', async () => {
    const url = await freshDatabase('replicas');
    const [one, two] = [1, 2].map(() => createDatabase({ url, poolSize: 2 }));
    const first = sweepOf(one!);
    const second = sweepOf(two!);
    expect(await first.sweep.round()).toBeDefined();
    expect(await second.sweep.round()).toBeUndefined();
    await first.sweep.stop();
    expect(await second.sweep.round()).toBeDefined();
    await second.sweep.stop();
    await Promise.all([one!.close(), two!.close()]);
  });
});
