import type { Pool } from 'undici';
import { DEFAULT_INTEGRATION_CLIENT_SECRET } from '../idp/src/realm-builder.js';
import { createBackendRecord } from '../gateway/src/backend-record/backend-record.js';
import { createBackendSweep } from '../gateway/src/backend-record/backend-sweep.js';
import { createDatabase } from '../gateway/src/database/database.js';
import { createLegacyClient } from '../gateway/src/legacy/legacy-client.js';
import { startLoopbackProxy } from '../test/loopback-proxy.js';
import { startTestPostgres } from '../test/postgres.js';
import { graphql, json, type BenchToken } from './stack.js';

/**
 * Issue 36's rows: a detail looked up by UUID alone over all time (legacy calls, p50), on whatever data the
 * legacy service holds (the seeded organisation, the 10,000-unit one), and the sweep's cost over the seeded
 * organisation: one round on a fresh database, through OS2mo 2.4.0's reading API and through the Service API
 * (a backend without `/api/v1`), at an unbounded rate, so the time is what the walk itself costs.
 */

const lookupQuery = `query ($uuid: UUID!) {
  addresses(filter: { uuids: [$uuid], from_date: null, to_date: null }) {
    objects { uuid validities { value validity { from to } } }
  }
}`;

export interface UuidLookupFigures {
  /** The legacy calls of one lookup (X-Upstream-Trace). */
  legacy_calls: number;
  p50_ms: number;
  runs: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)]! * 10) / 10;
};

/** An address of the first unit that has one, looked up by UUID over all time, `runs` times one after another. */
export async function measureUuidLookup(
  ours: Pool,
  legacy: Pool,
  token: BenchToken,
  runs = 20,
): Promise<UuidLookupFigures> {
  await token.renew();
  const headers = () => ({ authorization: token.authorization });
  const organisation = (await json(legacy, '/service/o/', { headers: headers() }))[0].uuid as string;
  const page = await json(legacy, `/service/o/${organisation}/ou/?limit=50`, { headers: headers() });
  let uuid: string | undefined;
  for (const unit of page.items as { uuid: string }[]) {
    const addresses = await json(legacy, `/service/ou/${unit.uuid}/details/address`, { headers: headers() });
    uuid = (addresses as { uuid: string }[])[0]?.uuid;
    if (uuid) break;
  }
  if (!uuid) throw new Error('no unit of the first page has an address');
  const body = JSON.stringify({ query: lookupQuery, variables: { uuid } });
  const traced = await json(ours, '/graphql/v30', {
    method: 'POST',
    headers: { ...headers(), 'content-type': 'application/json', 'x-upstream-trace': '1' },
    body,
  });
  if (traced.errors) throw new Error(`the lookup failed: ${JSON.stringify(traced.errors)}`);
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    await graphql(ours, '/graphql/v30', token.authorization, body);
    times.push(performance.now() - started);
  }
  return { legacy_calls: traced.extensions.upstream.requests as number, p50_ms: median(times), runs };
}

export interface SweepFigures {
  road: 'reading-api' | 'service-api';
  /** One round on a fresh database: what rebuilding a lost database costs. */
  calls: number;
  seconds: number;
  calls_per_minute: number;
  /** Objects on record after the round. */
  objects: number;
  /** A second round, nothing changed in between. */
  next_round_calls: number;
  next_round_seconds: number;
}

/** The sweep over the legacy service at `legacyUrl`, through each road, on a Postgres of its own. */
export async function measureSweep(legacyUrl: string, issuer: string): Promise<SweepFigures[]> {
  const postgres = await startTestPostgres();
  // A backend without the reading API: the same service behind a proxy that answers 404 for `/api/v1`.
  const withoutReadingApi = await startLoopbackProxy(legacyUrl, { notFound: /^\/api\/v1\// });
  const figures: SweepFigures[] = [];
  try {
    for (const [road, url] of [
      ['reading-api', legacyUrl],
      ['service-api', withoutReadingApi.url],
    ] as const) {
      const name = road.replace('-', '_');
      const admin = createDatabase({ url: postgres.url, poolSize: 1, migrations: [] });
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.close();
      const database = createDatabase({ url: postgres.url.replace(/\/postgres$/, `/${name}`), poolSize: 4 });
      const legacy = createLegacyClient({
        url: new URL(url),
        connectTimeoutMs: 2_000,
        responseTimeoutMs: 60_000,
        auth: {
          mode: 'client-credentials',
          tokenUrl: new URL(`${issuer}/protocol/openid-connect/token`),
          clientId: 'integration',
          clientSecret: DEFAULT_INTEGRATION_CLIENT_SECRET,
        },
      });
      const record = createBackendRecord({ database });
      const sweep = createBackendSweep({
        database,
        record,
        legacy,
        callsPerMinute: 1_000_000,
        intervalMs: 3_600_000,
      });
      const first = (await sweep.round())!;
      // The first round is a baseline (nothing told): count what it put on record.
      const { rows } = await database.query<{ objects: number }>(
        'SELECT count(*)::int AS objects FROM backend_object',
      );
      const objects = rows[0]!.objects;
      const second = (await sweep.round())!;
      if (first.road !== road) throw new Error(`the sweep took the ${first.road} road, not ${road}`);
      figures.push({
        road,
        calls: first.calls,
        seconds: Math.round(first.durationMs / 100) / 10,
        calls_per_minute: Math.round((first.calls / first.durationMs) * 60_000),
        objects,
        next_round_calls: second.calls,
        next_round_seconds: Math.round(second.durationMs / 100) / 10,
      });
      await sweep.stop();
      await legacy.close();
      await database.close();
    }
  } finally {
    await withoutReadingApi.close();
    await postgres.close();
  }
  return figures;
}
