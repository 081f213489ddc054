// Two things Kysely's SQLite driver does not do for a file several processes write (`serve`,
// `worker`, `media-worker`, the CLI):
// - It begins transactions DEFERRED: a transaction that reads first holds a snapshot, and when
//   another process commits before it writes, SQLite refuses the write at once with
//   SQLITE_BUSY_SNAPSHOT ("database is locked"), which no waiting can cure. BEGIN IMMEDIATE takes
//   the write lock up front, so a second process waits its turn and then sees the first one's work.
// - Waiting for that turn: SQLite's busy_timeout waits inside the statement, sleeping on the
//   thread that runs it, which here is the event loop: while a CLI command or another process
//   held the write lock, every request of the service stood still (140 ms seen while the bench
//   seeded the file beside a running service). The connection's busy_timeout is 0 instead
//   (node-sqlite.ts), and a statement refused as busy outside a transaction (BEGIN IMMEDIATE
//   itself, or a write on its own) is tried again after a timer, for as long as busy_timeout
//   used to wait; reads and requests go on meanwhile (reads never wait for a writer in WAL).
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type SqliteDialectConfig,
} from 'kysely';

/** How long a statement waits for another process's write lock before it fails as busy. */
export const BUSY_WAIT_MS = 5000;
/** Longest pause between two tries. */
const MAX_PAUSE_MS = 20;

/** SQLITE_BUSY and its extended codes (BUSY_RECOVERY, BUSY_SNAPSHOT, BUSY_TIMEOUT). */
export function isBusy(error: unknown): boolean {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  return typeof code === 'number' && (code & 0xff) === 5;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

class WaitingConnection implements DatabaseConnection {
  private readonly inner: DatabaseConnection;
  private readonly inTransaction: () => boolean;

  constructor(inner: DatabaseConnection, inTransaction: () => boolean) {
    this.inner = inner;
    this.inTransaction = inTransaction;
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // Kysely's SQLite connection runs the statement before it returns: a refusal is thrown here,
    // and the common case costs no extra promise.
    try {
      return this.inner.executeQuery<R>(query);
    } catch (error) {
      // Inside a transaction the lock is ours already; a busy there is not a turn to wait for.
      if (!isBusy(error) || this.inTransaction()) return Promise.reject(asError(error));
      return this.retry<R>(query, performance.now() + BUSY_WAIT_MS);
    }
  }

  private async retry<R>(query: CompiledQuery, deadline: number): Promise<QueryResult<R>> {
    for (let pause = 1; ; pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
      await sleep(pause);
      try {
        return await this.inner.executeQuery<R>(query);
      } catch (error) {
        if (!isBusy(error) || this.inTransaction() || performance.now() >= deadline) throw error;
      }
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  private readonly inTransaction: () => boolean;
  private connection: WaitingConnection | undefined;

  constructor(config: SqliteDialectConfig, inTransaction: () => boolean) {
    super(config);
    this.inTransaction = inTransaction;
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await super.acquireConnection();
    // SQLite has one connection: wrapped once.
    this.connection ??= new WaitingConnection(inner, this.inTransaction);
    return this.connection;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

export class ImmediateSqliteDialect extends SqliteDialect {
  private readonly driverConfig: SqliteDialectConfig;
  private readonly inTransaction: () => boolean;

  /** `inTransaction`: whether the connection is inside a transaction now (node:sqlite's isTransaction). */
  constructor(config: SqliteDialectConfig, inTransaction: () => boolean) {
    super(config);
    this.driverConfig = config;
    this.inTransaction = inTransaction;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.driverConfig, this.inTransaction);
  }
}
