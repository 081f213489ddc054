import fs from 'node:fs';
import path from 'node:path';
import { Kysely, Migrator, PostgresDialect, type LogConfig, type MigrationResultSet } from 'kysely';
import type pg from 'pg';
import { loadPg } from '../shared/optional-drivers.ts';
import { migrations } from './migrations/index.ts';
import { isFilePath, openMappedReader, openNodeSqlite } from './node-sqlite.ts';
import { ImmediateSqliteDialect, isBusy } from './sqlite-dialect.ts';
import type { Tables } from './schema.ts';
import { startWalCheckpointer } from './wal-checkpointer.ts';

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
  /**
   * SQLite: checkpoint the write-ahead log from a thread of its own (wal-checkpointer.ts), so no
   * commit waits for a checkpoint. For long-running roles; a short CLI command needs no thread.
   */
  checkpointThread?: boolean;
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
  const sqlite = openNodeSqlite(url);
  const db = new Kysely<Tables>({
    dialect: new ImmediateSqliteDialect({ database: sqlite }, () => sqlite.raw.isTransaction),
    ...log,
  });
  // Queries a log must hear go through Kysely.
  if (options.log === undefined) {
    directReaders.set(db, (text, parameters) => {
      if (sqlite.raw.isTransaction || !sqlite.raw.isOpen) return undefined;
      try {
        return sqlite.prepare(text).all(parameters);
      } catch (error) {
        // Busy (a log being recovered by another process): Kysely's path waits its turn.
        if (isBusy(error)) return undefined;
        throw error;
      }
    });
  }
  const checkpointer =
    options.checkpointThread === true && url !== ':memory:'
      ? startWalCheckpointer(sqlite.raw, path.resolve(url))
      : undefined;
  // The mapped connection opens on its first read (only a process that searches pays for it).
  let mapped: ReturnType<typeof openMappedReader> | undefined;
  let closed = false;
  if (options.log === undefined && isFilePath(url)) {
    mappedReaders.set(db, (text, parameters) => {
      if (closed) return undefined;
      mapped ??= openMappedReader(url);
      return mapped.read(text, parameters);
    });
  }
  return {
    db,
    close: async () => {
      closed = true;
      mapped?.close();
      await checkpointer?.close();
      await db.destroy();
    },
  };
}

/** Runs a read now, or says (undefined) that it must go through Kysely. */
type DirectReader = (sql: string, parameters: readonly unknown[]) => unknown[] | undefined;

const directReaders = new WeakMap<Db, DirectReader>();

/**
 * A SQLite database's reader that skips Kysely's driver: its connection mutex, executor and
 * promise hops cost about 4 µs of a detail read's 100 (issue 29's profile), more than the
 * statement itself on a hot page. Safe only outside a transaction: node:sqlite runs the
 * statement synchronously on the one connection, so nothing can interleave with it, but while
 * a transaction is open (held across awaits by another flow) a read on that connection would
 * see its uncommitted writes, so it then answers undefined and the query takes Kysely's path,
 * which waits for the transaction. Undefined too for PostgreSQL, a transaction's own handle,
 * a closed database, and a database opened with a query log.
 */
export function directReaderOf(db: Db): DirectReader | undefined {
  return directReaders.get(db);
}

const mappedReaders = new WeakMap<Db, DirectReader>();

/**
 * A SQLite database's reader for reads that walk many pages (search's full-text doclists and the
 * rows they lead to), on a second, read-only connection that maps the file into memory
 * (node-sqlite.ts, openMappedReader): pages are read in place instead of copied through SQLite's
 * page cache, which halved a distinct search's SQLite time at 100,000 videos (issue 28). It sees
 * what is committed, never a transaction's uncommitted writes, so it needs no transaction check.
 * Undefined for PostgreSQL, an in-memory database, and a database opened with a query log.
 */
export function mappedReaderOf(db: Db): DirectReader | undefined {
  return mappedReaders.get(db);
}

/** The mapped reader where there is one, else the direct reader (an in-memory database's). */
export function scanReaderOf(db: Db): DirectReader | undefined {
  return mappedReaders.get(db) ?? directReaders.get(db);
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
