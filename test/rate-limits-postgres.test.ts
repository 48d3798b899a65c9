import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../gateway/src/database/database.js';
import { GatewayError } from '../gateway/src/errors/gateway-error.js';
import { readRateLimitConfig } from '../gateway/src/rate-limits/rate-limit-config.js';
import { createRateLimits } from '../gateway/src/rate-limits/rate-limits.js';
import { startTestPostgres, type TestPostgres } from './postgres.js';

/**
 * Per-client rate limits shared by replicas through one real Postgres (Debian's): two limiters, each on its own
 * pool as two gateway replicas would be, count one client's requests and legacy calls together.
 */
let postgres: TestPostgres;
const databases: Database[] = [];
beforeAll(async () => {
  postgres = await startTestPostgres();
});
afterAll(async () => {
  await Promise.all(databases.map((database) => database.close().catch(() => undefined)));
  await postgres?.close();
});

function replica(env: Record<string, string>) {
  const database = createDatabase({ url: postgres.url, poolSize: 2 });
  databases.push(database);
  return Object.assign(createRateLimits({ config: readRateLimitConfig(env)!, store: database }), {
    database,
  });
}

describe('rate limits across replicas (Postgres)', () => {
  it('counts a client’s requests on both replicas against one allowance', async () => {
    const env = { RATE_LIMIT_REQUESTS: '4' };
    const [one, two] = [replica(env), replica(env)];
    await one.admit('integration');
    await two.admit('integration');
    await one.admit('integration');
    expect((await two.admit('integration')).RateLimit).toMatch(/^"requests";r=0;t=\d+$/);
    for (const limits of [one, two]) {
      const refused = await limits.admit('integration').catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(GatewayError);
      expect((refused as GatewayError).status).toBe(429);
    }
    // Another client is counted apart, on either replica.
    await expect(two.admit('payroll')).resolves.toMatchObject({ RateLimit: expect.stringMatching(/r=3;/) });
    const rows = await one.database.query<{ key: string; points: number }>(
      "SELECT key, points FROM gateway_rate_limits WHERE key IN ('requests:integration', 'requests:payroll') ORDER BY key",
    );
    expect(rows.rows).toEqual([
      { key: 'requests:integration', points: 6 },
      { key: 'requests:payroll', points: 1 },
    ]);
  });

  it('charges legacy calls made through one replica against requests on the other', async () => {
    const env = { RATE_LIMIT_LEGACY_CALLS: '50' };
    const [one, two] = [replica(env), replica(env)];
    await one.admit('bulk-export');
    await one.charge('bulk-export', 30);
    await two.admit('bulk-export');
    await two.charge('bulk-export', 25);
    const refused = await one.admit('bulk-export').catch((error: unknown) => error as GatewayError);
    expect(refused).toBeInstanceOf(GatewayError);
    expect((refused as GatewayError).context).toMatchObject({ limit: 'legacy_calls', quota: 50 });
  });

  it('keeps admitting on the replica’s own count while the database is down', async () => {
    // A Postgres of this case's own, killed as a crash would: the other cases keep theirs.
    const lost = await startTestPostgres();
    const database = createDatabase({ url: lost.url, poolSize: 2 });
    databases.push(database);
    const limits = createRateLimits({
      config: readRateLimitConfig({ RATE_LIMIT_REQUESTS: '2' })!,
      store: database,
    });
    try {
      await limits.admit('during-outage');
      await lost.stop('SIGKILL');
      // The replica's memory takes over: the client is still limited, and not refused for the database's sake.
      // (A backend of the killed server may answer one more statement before it notices.)
      const outcomes: string[] = [];
      while (!outcomes.includes('refused') && outcomes.length < 4) {
        outcomes.push(
          await limits.admit('during-outage').then(
            () => 'admitted',
            (error: unknown) =>
              error instanceof GatewayError && error.status === 429 ? 'refused' : String(error),
          ),
        );
      }
      expect(outcomes.slice(0, 2)).toEqual(['admitted', 'admitted']);
      expect(outcomes.at(-1)).toBe('refused');
    } finally {
      await lost.close();
    }
  });
});
