// Pruning of delivery history older than WEBHOOK_HISTORY_DAYS, a bounded batch per statement.
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DeliveryStatus } from '../webhook.table.ts';

const SETTLED = [sql<DeliveryStatus>`'succeeded'`, sql<DeliveryStatus>`'failed'`];

/**
 * Deletes up to `limit` settled deliveries (their attempts go with them, by cascade) whose last
 * change is older than `before`. A pending or sending one is never touched, however old.
 * Candidates are found by creation time (indexed; a row is never changed before it is created).
 */
export async function pruneSettledDeliveries(db: Db, before: number, limit: number): Promise<number> {
  const oldest = db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('created_at', '<', before)
    .where('updated_at', '<', before)
    .where('status', 'in', SETTLED)
    .limit(limit);
  const result = await db
    .deleteFrom('webhook_deliveries')
    .where('id', 'in', oldest)
    // Checked again on the row itself: a resend that made it pending meanwhile keeps it (on
    // PostgreSQL a row changed under the delete is re-checked against this, not the subquery).
    .where('status', 'in', SETTLED)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Deletes up to `limit` events created before `before` that nothing needs any more: already
 * fanned out (fan-out reads only undispatched ones) and with no delivery left.
 */
export async function pruneUnusedEvents(db: Db, before: number, limit: number): Promise<number> {
  const unused = db
    .selectFrom('events')
    .select('events.id')
    .where('events.created_at', '<', before)
    .where('events.dispatched_at', 'is not', null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('webhook_deliveries')
            .select('webhook_deliveries.id')
            .whereRef('webhook_deliveries.event_id', '=', 'events.id'),
        ),
      ),
    )
    .limit(limit);
  const result = await db.deleteFrom('events').where('id', 'in', unused).executeTakeFirst();
  return Number(result.numDeletedRows);
}
