import pg from 'pg';
import type { Logger } from '../observability/logger.js';
import { migrate, readMigrations, type Migration } from './migrations.js';

export interface DatabaseOptions {
  /** `DATABASE_URL`: `postgres://user:password@host:port/name`. Never logged: it may hold a password. */
  url: string;
  /** Connections this process keeps at most (`DATABASE_POOL_SIZE`). */
  poolSize: number;
  logger?: Logger;
  /** The migrations to apply before the first statement; default the gateway's own (`migrations/`). */
  migrations?: readonly Migration[];
}

/** A statement's values: what node-postgres accepts as parameters `$1`, `$2`, …. */
export type SqlValues = readonly unknown[];

/** The work of one transaction: statements on the one connection that holds it. */
export interface Transaction {
  query<Row extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string,
    values?: SqlValues,
  ): Promise<pg.QueryResult<Row>>;
}

/** Whether the database answers, with its migrations applied; the reason never names the address. */
export type DatabaseHealth = { ok: true } | { ok: false; reason: string };

/**
 * The gateway's own state in Postgres: one pool per process, shared by everything that keeps state (events,
 * the record of the backend, rate limits). Every statement waits for the migrations, which the first use
 * applies; a failed attempt (the database unreachable) is tried again by the next use.
 */
export interface Database {
  /** One statement on a pooled connection, outside any transaction. */
  query<Row extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string,
    values?: SqlValues,
  ): Promise<pg.QueryResult<Row>>;
  /** `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (transaction: Transaction) => Promise<T>): Promise<T>;
  /** Resolves once every migration is applied (the first call applies them). */
  ready(): Promise<void>;
  /** Readiness: the database answers and its migrations are applied; the reason never names the address. */
  check(timeoutMs: number): Promise<DatabaseHealth>;
  /** Closes the pool; statements still running finish first. */
  close(): Promise<void>;
  /**
   * The pool itself, for a library that takes a node-postgres pool (rate-limiter-flexible's
   * `RateLimiterPostgres({ storeClient })`). Its statements do not wait for the migrations: await `ready()` first.
   */
  readonly pool: pg.Pool;
}

/** Node-postgres's error for an unreachable server or a failed statement, as one operator's sentence. */
export function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return `the database answered SQLSTATE ${code}`;
  if (typeof code === 'string') return `the database cannot be reached (${code})`;
  return 'the database cannot be reached';
}

/**
 * @example
 * const database = createDatabase({ url: config.database.url, poolSize: config.database.poolSize, logger });
 * const { rows } = await database.query<{ name: string }>('SELECT name FROM event_namespace');
 * await database.close();
 */
export function createDatabase(options: DatabaseOptions): Database {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    application_name: 'org-gateway',
    // A connection that cannot be made within this is an outage; callers get an error rather than a hang.
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle connection the server drops (a restart) is reported here; unhandled, it would end the process.
  pool.on('error', (error) =>
    options.logger?.warn({ reason: reasonOf(error) }, 'database: an idle connection was lost'),
  );

  let migrated: Promise<void> | undefined;
  const ready = (): Promise<void> => {
    migrated ??= (async () => {
      const migrations = options.migrations ?? (await readMigrations());
      const client = await pool.connect();
      try {
        const applied = await migrate(client, migrations);
        if (applied.length > 0) options.logger?.info({ applied }, 'database: migrations applied');
      } finally {
        client.release();
      }
    })().catch((error: unknown) => {
      migrated = undefined;
      throw error;
    });
    return migrated;
  };

  return {
    async query(text, values) {
      await ready();
      return pool.query(text, values as unknown[] | undefined);
    },
    async transaction(work) {
      await ready();
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work({
          query: (text, values) => client.query(text, values as unknown[] | undefined),
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    ready,
    async check() {
      try {
        await ready();
        await pool.query('SELECT 1');
        return { ok: true };
      } catch (error) {
        return { ok: false, reason: reasonOf(error) };
      }
    },
    close: () => pool.end(),
    pool,
  };
}
