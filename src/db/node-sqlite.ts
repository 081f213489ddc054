// Kysely's SQLite dialect expects a better-sqlite3-shaped database. This adapts Node's
// built-in node:sqlite to it, so the embedded mode needs no native add-on.
import fs from 'node:fs';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { LruCache } from '../shared/lru.ts';

const STATEMENT_CACHE_SIZE = 512;

function toSqliteValue(value: unknown): SQLInputValue {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value as SQLInputValue;
}

// node:sqlite builds each row object one property at a time, which leaves it in V8's slow
// dictionary mode: reading a page of 100 such rows back out cost more than the query. Rows
// are fetched as arrays instead and built by a function compiled once per statement, an
// object literal with the statement's column names, so every row shares one fast shape.
type RowBuilder = (values: unknown[]) => Record<string, unknown>;

function compileRowBuilder(columns: readonly string[]): RowBuilder {
  // Only column names reach the source, each as a JSON string literal.
  const fields = columns.map((name, index) => `${JSON.stringify(name)}: values[${index}]`);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function('values', `'use strict'; return { ${fields.join(', ')} };`) as RowBuilder;
}

function toRows(build: RowBuilder, arrays: unknown[]): Record<string, unknown>[] {
  const rows = new Array<Record<string, unknown>>(arrays.length);
  for (let r = 0; r < arrays.length; r++) rows[r] = build(arrays[r] as unknown[]);
  return rows;
}

function adapt(statement: StatementSync): SqliteStatement {
  const columns = statement.columns().map((column) => column.name);
  const reader = columns.length > 0;
  if (reader) statement.setReturnArrays(true);
  const build = compileRowBuilder(columns);
  return {
    reader,
    all: (parameters) => toRows(build, statement.all(...parameters.map(toSqliteValue))),
    run: (parameters) => statement.run(...parameters.map(toSqliteValue)),
    *iterate(parameters) {
      for (const values of statement.iterate(...parameters.map(toSqliteValue))) {
        yield build(values as unknown as unknown[]);
      }
    },
  };
}

/** Whether `location` names a database file by its path (not in memory, temporary or a URI). */
export function isFilePath(location: string): boolean {
  return location !== ':memory:' && location !== '' && !location.startsWith('file:');
}

export function openNodeSqlite(location: string): SqliteDatabase & { raw: DatabaseSync } {
  // A new database file is created owner-only; SQLite gives its -wal and -shm files the same
  // mode. (An existing file keeps its mode: runtime.ts tightens it.)
  if (isFilePath(location)) {
    fs.closeSync(fs.openSync(location, 'a', 0o600));
  }
  const raw = new DatabaseSync(location);
  // WAL lets the CLI and the server share the file. A writer that finds another process's write
  // lock does not wait inside SQLite (busy_timeout 0), which would stop the event loop: the
  // driver tries again after a timer (sqlite-dialect.ts).
  // (Opening may meet another process recovering the log: that short wait stays in SQLite.)
  raw.exec('PRAGMA busy_timeout = 5000');
  raw.exec('PRAGMA journal_mode = WAL');
  raw.exec('PRAGMA synchronous = NORMAL');
  raw.exec('PRAGMA foreign_keys = ON');
  raw.exec('PRAGMA busy_timeout = 0');
  // Preparing is a large share of a small query's cost. The service issues a few dozen
  // distinct statements, plus one per list filter shape and page size that clients use;
  // a cache keyed by SQL text holds them, the least recently used making room when it is full.
  const cache = new LruCache<string, SqliteStatement>(STATEMENT_CACHE_SIZE);
  return {
    raw,
    close: () => {
      raw.close();
    },
    prepare: (sql) => {
      let statement = cache.get(sql);
      if (!statement) {
        statement = adapt(raw.prepare(sql));
        cache.set(sql, statement);
      }
      return statement;
    },
  };
}

/**
 * Bytes of the database file a mapped reader maps (SQLite maps at most this much of the file's
 * start; past it, pages are read as usual). Address space, not memory: the pages touched are the
 * kernel's page cache, shared and reclaimable, though they count in the process's RSS.
 */
const MAPPED_BYTES = 1 << 30;

/**
 * A second, read-only connection to the file at `location` that reads it through a memory map
 * (database.ts, mappedReaderOf). WAL lets it read while the main connection writes.
 */
export function openMappedReader(location: string): {
  read: (sql: string, parameters: readonly unknown[]) => unknown[];
  close: () => void;
} {
  const connection = openNodeSqlite(location);
  connection.raw.exec('PRAGMA query_only = ON');
  // A read waits for nothing in WAL but a log being recovered: rare and short, waited out here.
  connection.raw.exec('PRAGMA busy_timeout = 5000');
  connection.raw.exec(`PRAGMA mmap_size = ${MAPPED_BYTES}`);
  return {
    read: (sql, parameters) => connection.prepare(sql).all(parameters),
    close: () => {
      if (connection.raw.isOpen) connection.close();
    },
  };
}
