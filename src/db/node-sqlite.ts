// Kysely's SQLite dialect expects a better-sqlite3-shaped database. This adapts Node's
// built-in node:sqlite to it, so the embedded mode needs no native add-on.
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

const STATEMENT_CACHE_SIZE = 256;

function toSqliteValue(value: unknown): SQLInputValue {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value as SQLInputValue;
}

function adapt(statement: StatementSync): SqliteStatement {
  const reader = statement.columns().length > 0;
  return {
    reader,
    all: (parameters) => statement.all(...parameters.map(toSqliteValue)),
    run: (parameters) => statement.run(...parameters.map(toSqliteValue)),
    iterate: (parameters) => statement.iterate(...parameters.map(toSqliteValue)),
  };
}

export function openNodeSqlite(location: string): SqliteDatabase & { raw: DatabaseSync } {
  const raw = new DatabaseSync(location);
  // WAL lets the CLI and the server share the file; busy_timeout makes a writer wait for
  // another process's write instead of failing at once.
  raw.exec('PRAGMA journal_mode = WAL');
  raw.exec('PRAGMA synchronous = NORMAL');
  raw.exec('PRAGMA busy_timeout = 5000');
  raw.exec('PRAGMA foreign_keys = ON');
  // Preparing is a large share of a small query's cost; the service issues a handful of
  // distinct statements, so a small cache keyed by SQL text holds them all.
  const cache = new Map<string, SqliteStatement>();
  return {
    raw,
    close: () => {
      raw.close();
    },
    prepare: (sql) => {
      let statement = cache.get(sql);
      if (!statement) {
        statement = adapt(raw.prepare(sql));
        if (cache.size >= STATEMENT_CACHE_SIZE) {
          const oldest = cache.keys().next();
          if (!oldest.done) cache.delete(oldest.value);
        }
        cache.set(sql, statement);
      }
      return statement;
    },
  };
}
