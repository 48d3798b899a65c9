import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../gateway/src/database/database.js';
import { readMigrations } from '../gateway/src/database/migrations.js';
import { startTestPostgres, type TestPostgres } from './postgres.js';
import { freePort } from './processes.js';
import { startTestStack } from './stack.js';

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startTestPostgres();
});
afterAll(() => postgres?.close());

describe('the gateway database (Debian Postgres)', () => {
  it('applies each migration once, even when two replicas start at the same moment', async () => {
    const url = postgres.url.replace(/\/postgres$/, '/replicas');
    const admin = createDatabase({ url: postgres.url, poolSize: 1, migrations: [] });
    await admin.query('CREATE DATABASE replicas');
    const replicas = [1, 2].map(() => createDatabase({ url, poolSize: 2 }));
    await Promise.all(replicas.map((replica) => replica.ready()));
    const applied = await replicas[0]!.query<{ name: string }>('SELECT name FROM gateway_migrations');
    expect(applied.rows.map((row) => row.name)).toEqual((await readMigrations()).map((m) => m.name));
    // OS2mo's public namespace for its own objects is there from the start.
    const namespaces = await replicas[1]!.query('SELECT name, public FROM event_namespace');
    expect(namespaces.rows).toEqual([{ name: 'mo', public: true }]);
    await Promise.all([...replicas, admin].map((database) => database.close()));
  });

  it('rolls a transaction back when its work throws', async () => {
    const database = createDatabase({ url: postgres.url, poolSize: 2 });
    await expect(
      database.transaction(async (transaction) => {
        await transaction.query(
          "INSERT INTO event_namespace VALUES ('rolled-back', gen_random_uuid(), false)",
        );
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    const left = await database.query("SELECT 1 FROM event_namespace WHERE name = 'rolled-back'");
    expect(left.rowCount).toBe(0);
    await database.close();
  });

  it(
    'readiness names the database when DATABASE_URL is set, and fails without naming its address',
    { timeout: 120_000 },
    async () => {
      const stack = await startTestStack({ gatewayEnv: { DATABASE_URL: postgres.url } });
      try {
        const ready = await fetch(`${stack.gatewayUrl}/health/ready`);
        expect(ready.status).toBe(200);
        expect(((await ready.json()) as { checks: object }).checks).toMatchObject({
          database: { status: 'ok' },
        });
      } finally {
        await stack.close();
      }
      // A port nothing listens on: one the OS just gave out and took back, as a stopped server leaves its own.
      const downPort = await freePort();
      const unreachable = await startTestStack({
        gatewayEnv: { DATABASE_URL: `postgres://postgres@127.0.0.1:${downPort}/postgres` },
      });
      try {
        const ready = await fetch(`${unreachable.gatewayUrl}/health/ready`);
        expect(ready.status).toBe(503);
        const body = await ready.text();
        expect(JSON.parse(body).checks.database).toEqual({
          status: 'failed',
          reason: 'the database cannot be reached (ECONNREFUSED)',
        });
        expect(body).not.toContain(String(downPort));
        // Everything else answers as before: the organisation is read from the backend.
        const token = await unreachable.token('alice');
        const units = await fetch(`${unreachable.gatewayUrl}/service/o/`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(units.status).toBe(200);
      } finally {
        await unreachable.close();
      }
    },
  );

  it(
    'answers DATABASE_UNAVAILABLE while the database is down, and resumes once it is back, without a restart',
    { timeout: 120_000 },
    async () => {
      const stack = await startTestStack({ gatewayEnv: { DATABASE_URL: postgres.url } });
      const token = await stack.token('alice');
      const namespaces = async () => {
        const response = await fetch(`${stack.gatewayUrl}/graphql/v30`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ event_namespaces { objects { name } } }' }),
        });
        return (await response.json()) as {
          data: unknown;
          errors?: { message: string; extensions: { code: string } }[];
        };
      };
      try {
        expect(await namespaces()).toEqual({ data: { event_namespaces: { objects: [{ name: 'mo' }] } } });
        // A fast shutdown: the server ends every connection, as a restart of the database does.
        await postgres.stop();
        const down = await namespaces();
        expect(down.errors?.[0]?.extensions.code).toBe('DATABASE_UNAVAILABLE');
        expect(JSON.stringify(down)).not.toContain(String(postgres.port));
        expect((await fetch(`${stack.gatewayUrl}/health/ready`)).status).toBe(503);
        await postgres.restart();
        expect(await namespaces()).toEqual({ data: { event_namespaces: { objects: [{ name: 'mo' }] } } });
        expect((await fetch(`${stack.gatewayUrl}/health/ready`)).status).toBe(200);
      } finally {
        await stack.close();
      }
    },
  );
});
