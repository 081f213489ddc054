import fs from 'node:fs';
import path from 'node:path';
import { Kysely, Migrator, PostgresDialect, type LogConfig, type MigrationResultSet } from 'kysely';
import type pg from 'pg';
import { loadPg } from '../shared/optional-drivers.ts';
import { migrations } from './migrations/index.ts';
import { openNodeSqlite } from './node-sqlite.ts';
import { ImmediateSqliteDialect } from './sqlite-dialect.ts';
import type { Tables } from './schema.ts';

/** A `postgres://` or `postgresql://` URL; anything else is a SQLite file path. */
export function isPostgresUrl(url: string): boolean {
  return url.startsWith('postgres://') || url.startsWith('postgresql://');
}

export type Db = Kysely<Tables>;
export type { Dialect } from './dialect.ts';

/** Which dialect it speaks is asked of `db` (dialectOf in dialect.ts), not of the URL. */
export interface DatabaseHandle {
  db: Db;
  close(): Promise<void>;
  /** PostgreSQL's pool now (the metrics endpoint); absent for SQLite, one connection. */
  poolUse?: () => { total: number; idle: number; waiting: number; max: number };
}

function postgresTypes(driver: typeof pg): pg.CustomTypesConfig {
  // Timestamps are epoch milliseconds in bigint columns: well inside Number's exact range.
  const types = new driver.TypeOverrides();
  types.setTypeParser(driver.types.builtins.INT8, Number);
  return types;
}

export interface OpenDatabaseOptions {
  poolSize?: number;
  /** Hears every query run (tests count them); nothing is logged unless given. */
  log?: LogConfig;
}

export function openDatabase(url: string, options: OpenDatabaseOptions = {}): DatabaseHandle {
  const log = options.log === undefined ? {} : { log: options.log };
  if (isPostgresUrl(url)) {
    const driver = loadPg();
    const pool = new driver.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      types: postgresTypes(driver),
    });
    // An idle pooled connection that the server drops (a restart, a failover) is discarded by
    // the pool and replaced on the next query; without a listener its error would end the process.
    pool.on('error', () => undefined);
    const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }), ...log });
    const max = options.poolSize ?? 10;
    return {
      db,
      close: () => db.destroy(),
      poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
    };
  }
  if (url !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(url)), { recursive: true, mode: 0o700 });
  const db = new Kysely<Tables>({
    dialect: new ImmediateSqliteDialect({ database: openNodeSqlite(url) }),
    ...log,
  });
  return { db, close: () => db.destroy() };
}

function migrator(db: Db): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
  });
}

function applied({ error, results }: MigrationResultSet): string[] {
  if (error) throw error instanceof Error ? error : new Error('migration failed', { cause: error });
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  return applied(await migrator(db).migrateToLatest());
}

/** Migrates up or down to the named migration (tests build older schemas with it). */
export async function migrateTo(db: Db, name: string): Promise<string[]> {
  return applied(await migrator(db).migrateTo(name));
}
