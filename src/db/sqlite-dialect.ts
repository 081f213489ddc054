// Kysely's SQLite driver begins transactions DEFERRED: a transaction that reads first holds a
// snapshot, and when another process (a worker, the CLI) commits before it writes, SQLite
// refuses the write at once with SQLITE_BUSY_SNAPSHOT ("database is locked"), which
// busy_timeout cannot wait out. BEGIN IMMEDIATE takes the write lock up front, so a second
// process waits its turn (busy_timeout) and then sees the first one's work.
import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

export class ImmediateSqliteDialect extends SqliteDialect {
  private readonly driverConfig: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.driverConfig = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.driverConfig);
  }
}
