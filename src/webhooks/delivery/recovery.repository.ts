// What a worker reads and writes to run a recovery: the recovery row (claimed by one worker at
// a time), the window's events in creation order, and this webhook's deliveries of them.
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { dialectOf } from '../../db/dialect.ts';
import type { EventRow } from '../../events/event.table.ts';
import type { RecoveryStatus, WebhookRecoveryRow } from '../recovery.table.ts';
import type { DeliveryStatus, WebhookRow } from '../webhook.table.ts';

// Literal, not bound: the partial index on running recoveries is usable only when the planner
// sees the value.
const RUNNING = sql<RecoveryStatus>`'running'`;

/** A read through the partial index, so an idle worker opens no write transaction each cycle. */
export async function hasRunningRecovery(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_recoveries')
    .select('id')
    .where('status', '=', RUNNING)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Takes the oldest running recovery for the rest of the transaction. The statement writes, so
 * on SQLite it holds the write lock from the start (a second process waits, then sees the
 * progress made); on PostgreSQL the row stays locked and other workers skip it.
 */
export async function claimRunningRecovery(trx: Db, now: number): Promise<WebhookRecoveryRow | undefined> {
  let oldest = trx
    .selectFrom('webhook_recoveries')
    .select('id')
    .where('status', '=', RUNNING)
    .orderBy('created_at', 'asc')
    .limit(1);
  if (dialectOf(trx) === 'postgres') oldest = oldest.forUpdate().skipLocked();
  return trx
    .updateTable('webhook_recoveries')
    .set({ updated_at: now })
    .where('id', '=', oldest)
    .where('status', '=', 'running')
    .returningAll()
    .executeTakeFirst();
}

export type RecoveringWebhook = Pick<WebhookRow, 'id' | 'account_id' | 'events' | 'created_at'>;

export async function findRecoveringWebhook(db: Db, id: string): Promise<RecoveringWebhook | undefined> {
  return db
    .selectFrom('webhooks')
    .select(['id', 'account_id', 'events', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export type WindowEvent = Pick<EventRow, 'id' | 'type' | 'account_id' | 'data' | 'created_at'>;

/** The account's events of [from, until) after the given position, oldest first. */
export async function findWindowEvents(
  db: Db,
  request: {
    accountId: string;
    from: number;
    until: number;
    after: { createdAt: number; id: string } | undefined;
    limit: number;
  },
): Promise<WindowEvent[]> {
  let query = db
    .selectFrom('events')
    .select(['id', 'type', 'account_id', 'data', 'created_at'])
    .where('account_id', '=', request.accountId)
    .where('created_at', '>=', request.from)
    .where('created_at', '<', request.until);
  const after = request.after;
  if (after !== undefined) {
    query = query.where((eb) =>
      eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(after.createdAt, after.id)),
    );
  }
  return query.orderBy('created_at', 'asc').orderBy('id', 'asc').limit(request.limit).execute();
}

export async function findDeliveriesOfEvents(
  db: Db,
  webhookId: string,
  eventIds: readonly string[],
): Promise<Map<string, { id: string; status: DeliveryStatus }>> {
  if (eventIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select(['id', 'event_id', 'status'])
    .where('webhook_id', '=', webhookId)
    .where('event_id', 'in', eventIds)
    .execute();
  return new Map(rows.map((row) => [row.event_id, { id: row.id, status: row.status }]));
}

/** A delivery that failed or still waits becomes due at `dueAt`; false if it changed meanwhile. */
export async function requeueDelivery(db: Db, id: string, dueAt: number, at: number): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: dueAt, last_error: null, updated_at: at })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'failed'])
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** A delivery that was never made (the webhook was disabled then); false if one exists by now. */
export async function insertRecoveredDelivery(
  db: Db,
  row: { id: string; event_id: string; webhook_id: string; dueAt: number; at: number },
): Promise<boolean> {
  const inserted = await db
    .insertInto('webhook_deliveries')
    .values({
      id: row.id,
      event_id: row.event_id,
      webhook_id: row.webhook_id,
      status: 'pending',
      attempt_count: 0,
      next_attempt_at: row.dueAt,
      locked_until: null,
      lease_token: null,
      last_error: null,
      created_at: row.at,
      updated_at: row.at,
    })
    .onConflict((oc) => oc.columns(['event_id', 'webhook_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function recordRecoveryProgress(
  db: Db,
  id: string,
  progress: {
    queued: number;
    after: { createdAt: number; id: string } | undefined;
    done: boolean;
    at: number;
  },
): Promise<void> {
  await db
    .updateTable('webhook_recoveries')
    .set((eb) => ({
      events_queued: eb('events_queued', '+', progress.queued),
      ...(progress.after === undefined
        ? {}
        : { after_created_at: progress.after.createdAt, after_event_id: progress.after.id }),
      status: progress.done ? 'done' : 'running',
      updated_at: progress.at,
    }))
    .where('id', '=', id)
    .execute();
}

/** The start of the oldest running recovery's window: events from then on are still needed. */
export async function oldestRunningRecoverySince(db: Db): Promise<number | undefined> {
  const row = await db
    .selectFrom('webhook_recoveries')
    .select((eb) => eb.fn.min<number | string | null>('since').as('since'))
    .where('status', '=', RUNNING)
    .executeTakeFirst();
  const since = row?.since ?? null;
  return since === null ? undefined : Number(since);
}
