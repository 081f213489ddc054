// Which SQL dialect a database speaks, asked one way: from the Kysely instance or transaction
// in hand, whose adapter knows. Code that needs to branch (PostgreSQL's row locks and NOTIFY,
// SQLite's single writer) calls dialectOf on what it already holds instead of being handed a
// flag. Only src/config.ts reads a database URL to choose the driver.
import { PostgresAdapter } from 'kysely';
import type { Db } from './database.ts';

export type Dialect = 'sqlite' | 'postgres';

export function dialectOf(db: Db): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
