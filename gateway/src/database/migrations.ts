import { readdir, readFile } from 'node:fs/promises';
import type { PoolClient } from 'pg';

/** One migration: its file name (which orders it, `0001_event_system.sql`) and its SQL. */
export interface Migration {
  name: string;
  sql: string;
}

/** The folder of the gateway's own migrations, beside this module (copied into `dist/` by the build). */
export const migrationsFolder = new URL('./migrations/', import.meta.url);

const migrationName = /^\d{4}_[a-z0-9_]+\.sql$/;

/**
 * The migrations in `folder`, ordered by name. A file that does not look like `0001_what_it_does.sql` is a
 * mistake (a migration that would never run, or run out of order) and fails at once.
 */
export async function readMigrations(folder: URL = migrationsFolder): Promise<Migration[]> {
  const names = (await readdir(folder)).sort();
  const bad = names.find((name) => !migrationName.test(name));
  if (bad !== undefined) {
    throw new Error(`${bad} in ${folder.pathname} is not named like 0001_what_it_does.sql`);
  }
  return Promise.all(
    names.map(async (name) => ({ name, sql: await readFile(new URL(name, folder), 'utf8') })),
  );
}

/**
 * Any number from the gateway's own: the key of the advisory lock replicas take while migrating, so two
 * replicas starting at once apply each migration once.
 */
const migrationLock = 0x6f73326d6f;

/**
 * Applies, in one transaction, each migration the database has not recorded in `gateway_migrations`, in
 * order, and records it. Replicas wait for each other on an advisory lock; Postgres's DDL is transactional,
 * so a failed migration leaves the database as it was. Answers the names it applied.
 */
export async function migrate(client: PoolClient, migrations: readonly Migration[]): Promise<string[]> {
  const applied: string[] = [];
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [migrationLock]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS gateway_migrations (
         name text PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const done = new Set(
      (await client.query<{ name: string }>('SELECT name FROM gateway_migrations')).rows.map(
        (row) => row.name,
      ),
    );
    for (const migration of migrations) {
      if (done.has(migration.name)) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO gateway_migrations (name) VALUES ($1)', [migration.name]);
      applied.push(migration.name);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  return applied;
}
