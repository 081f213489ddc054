// How a delivery worker learns that events were recorded, without polling hard.
// In one process: an in-memory signal, raised as the event row is written. A worker's query
// after it waits for the writing transaction on SQLite (one connection), and finds nothing
// harmlessly on PostgreSQL before the commit, where NOTIFY wakes it after the commit.
// Across processes on PostgreSQL: LISTEN/NOTIFY on this channel, sent inside the transaction
// so it is delivered only if the event is committed.
import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { dialectOf } from '../db/dialect.ts';

export const OUTBOX_CHANNEL = 'tributary_outbox';

const signal = new EventEmitter();
signal.setMaxListeners(0);

export function onOutboxWrite(listener: () => void): () => void {
  signal.on('write', listener);
  return () => signal.off('write', listener);
}

export async function announceOutboxWrite(trx: Db): Promise<void> {
  signal.emit('write');
  if (dialectOf(trx) === 'postgres') await sql`select pg_notify(${OUTBOX_CHANNEL}, '')`.execute(trx);
}
