// The outbox's own queries: what the delivery worker reads from `events`. Fan-out takes the
// events not yet dispatched and marks them dispatched; the sender reads what it puts in an
// envelope. Writing an event is recordEvent (outbox.ts), inside the change it reports.
import type { Db } from '../db/database.ts';
import { dialectOf } from '../db/dialect.ts';
import type { EventRow } from './event.table.ts';

export type PendingEvent = Pick<EventRow, 'id' | 'type' | 'account_id' | 'data'>;

/** Events not yet fanned out, oldest first. On PostgreSQL other workers skip the rows locked here. */
export async function lockUndispatchedEvents(trx: Db, limit: number): Promise<PendingEvent[]> {
  let query = trx
    .selectFrom('events')
    .select(['id', 'type', 'account_id', 'data'])
    .where('dispatched_at', 'is', null)
    .orderBy('created_at', 'asc')
    .limit(limit);
  if (dialectOf(trx) === 'postgres') query = query.forUpdate().skipLocked();
  return query.execute();
}

export async function markEventsDispatched(trx: Db, ids: readonly string[], at: number): Promise<void> {
  if (ids.length === 0) return;
  await trx.updateTable('events').set({ dispatched_at: at }).where('id', 'in', ids).execute();
}

export type EventForSending = Pick<EventRow, 'id' | 'type' | 'created_at' | 'data'>;

export async function findEventsForSending(db: Db, ids: readonly string[]): Promise<EventForSending[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('events')
    .select(['id', 'type', 'created_at', 'data'])
    .where('id', 'in', ids)
    .execute();
}
