// Delivery rows: created by fan-out from the outbox, claimed by workers under a lease, and
// settled with one attempt row per try.
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { compiledQuery, literalLimit } from '../../db/compiled-query.ts';
import { dialectOf } from '../../db/dialect.ts';
import type { DeliveryAttemptRow, DeliveryStatus, WebhookDeliveryRow } from '../webhook.table.ts';

// Literal, not bound: the partial indexes on live rows (see the migration) are usable only
// when the planner sees the status value.
const PENDING = sql<DeliveryStatus>`'pending'`;
const SENDING = sql<DeliveryStatus>`'sending'`;

// PostgreSQL limits a statement to 65,535 parameters and SQLite to 32,766.
const INSERT_CHUNK_ROWS = 1000;

export type NewDelivery = Pick<WebhookDeliveryRow, 'id' | 'event_id' | 'webhook_id'>;

/** Idempotent: an (event, webhook) pair that already has a delivery is left alone. */
export async function insertDeliveries(trx: Db, rows: readonly NewDelivery[], at: number): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK_ROWS) {
    const chunk = rows.slice(start, start + INSERT_CHUNK_ROWS).map((row) => ({
      ...row,
      status: 'pending' as const,
      attempt_count: 0,
      next_attempt_at: at,
      locked_until: null,
      lease_token: null,
      last_error: null,
      created_at: at,
      updated_at: at,
    }));
    await trx
      .insertInto('webhook_deliveries')
      .values(chunk)
      .onConflict((oc) => oc.columns(['event_id', 'webhook_id']).doNothing())
      .execute();
  }
}

export interface Claim {
  id: string;
  event_id: string;
  webhook_id: string;
  /** The number of the attempt this claim starts (1 for the first). */
  attempt_count: number;
}

/**
 * Active webhooks that have a delivery due now, skipping those this worker already sends to at
 * its per-webhook limit. One index probe per webhook, so the cost does not grow with the
 * backlog of due deliveries.
 */
export async function findWebhooksWithDueDeliveries(
  db: Db,
  now: number,
  skipWebhookIds: readonly string[],
  limit: number,
): Promise<string[]> {
  let query = db
    .selectFrom('webhooks')
    .select('webhooks.id')
    .where('webhooks.status', '=', 'active')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('webhook_deliveries')
          .select('webhook_deliveries.id')
          .whereRef('webhook_deliveries.webhook_id', '=', 'webhooks.id')
          .where('webhook_deliveries.status', '=', PENDING)
          .where('webhook_deliveries.next_attempt_at', '<=', now),
      ),
    )
    .limit(limit);
  if (skipWebhookIds.length > 0) query = query.where('webhooks.id', 'not in', skipWebhookIds);
  const rows = await query.execute();
  return rows.map((row) => row.id);
}

export interface ClaimRequest {
  webhookId: string;
  now: number;
  leaseUntil: number;
  leaseToken: string;
  limit: number;
}

/**
 * Takes up to `limit` due deliveries of one active webhook, most overdue first, under a lease.
 * One statement, so two workers never take the same row: SQLite runs it alone; on PostgreSQL
 * the rows are locked and other workers skip them.
 */
// Compiled once per dialect and claim size (a claim runs for each webhook of every cycle).
const claimQuery = compiledQuery((db, request: Omit<ClaimRequest, 'limit'>, { limit }: { limit: number }) => {
  let due = db
    .selectFrom('webhook_deliveries')
    .select('webhook_deliveries.id')
    .where('webhook_id', '=', request.webhookId)
    .where('status', '=', PENDING)
    .where('next_attempt_at', '<=', request.now)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('webhooks')
          .select('webhooks.id')
          .where('webhooks.id', '=', request.webhookId)
          .where('webhooks.status', '=', sql.lit('active')),
      ),
    )
    .orderBy('next_attempt_at', 'asc')
    .limit(literalLimit(limit));
  if (dialectOf(db) === 'postgres') due = due.forUpdate('webhook_deliveries').skipLocked();
  return (
    db
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        status: sql.lit('sending'),
        attempt_count: eb('attempt_count', '+', sql.lit(1)),
        locked_until: request.leaseUntil,
        lease_token: request.leaseToken,
        updated_at: request.now,
      }))
      // Only the primary key here: a status test would tempt SQLite into scanning by status.
      // The subquery already requires pending (PostgreSQL re-checks it on the locked rows).
      .where('id', 'in', due)
      .returning(['id', 'event_id', 'webhook_id', 'attempt_count'])
  );
});

export async function claimDueDeliveries(db: Db, request: ClaimRequest): Promise<Claim[]> {
  if (request.limit <= 0) return [];
  const { limit, ...parameters } = request;
  return claimQuery.execute(db, parameters, { limit });
}

/**
 * A worker that died (kill -9) leaves its claims in `sending`; once their lease has run out
 * they become pending again, to be claimed and sent by any worker. The attempt they were on
 * stays counted: the receiver may have got it.
 */
export async function recoverExpiredLeases(db: Db, now: number): Promise<number> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', locked_until: null, lease_token: null, next_attempt_at: now, updated_at: now })
    .where('status', '=', SENDING)
    .where('locked_until', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export interface Settlement {
  deliveryId: string;
  leaseToken: string;
  status: Exclude<DeliveryStatus, 'sending'>;
  /** For pending: when to try again. */
  nextAttemptAt: number;
  lastError: string | null;
  at: number;
}

/**
 * Settles a claimed delivery if the claim still holds its lease. Returns false when it does not
 * (the webhook was deleted, or the lease ran out and another worker took over).
 */
export async function settleDelivery(db: Db, settlement: Settlement): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({
      status: settlement.status,
      next_attempt_at: settlement.nextAttemptAt,
      locked_until: null,
      lease_token: null,
      last_error: settlement.lastError,
      updated_at: settlement.at,
    })
    .where('id', '=', settlement.deliveryId)
    .where('lease_token', '=', settlement.leaseToken)
    .where('status', '=', 'sending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Marks many claims succeeded at once; returns the ids whose lease was still held. */
export async function settleSucceeded(
  db: Db,
  ids: readonly string[],
  leaseToken: string,
  at: number,
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'succeeded', locked_until: null, lease_token: null, last_error: null, updated_at: at })
    .where('id', 'in', ids)
    .where('lease_token', '=', leaseToken)
    .where('status', '=', 'sending')
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

export async function insertAttempts(db: Db, attempts: readonly DeliveryAttemptRow[]): Promise<void> {
  for (let start = 0; start < attempts.length; start += INSERT_CHUNK_ROWS) {
    await db
      .insertInto('webhook_delivery_attempts')
      .values(attempts.slice(start, start + INSERT_CHUNK_ROWS))
      .onConflict((oc) => oc.columns(['delivery_id', 'attempt_number']).doNothing())
      .execute();
  }
}

/** A disabled webhook gets nothing more: its waiting deliveries are marked failed. */
export async function dropPendingDeliveries(
  db: Db,
  webhookId: string,
  reason: string,
  at: number,
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', last_error: reason, updated_at: at })
    .where('webhook_id', '=', webhookId)
    .where('status', '=', PENDING)
    .execute();
}

/** When the next pending delivery falls due, so an idle worker can sleep until then. */
export async function nextDueAt(db: Db): Promise<number | undefined> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select('next_attempt_at')
    .where('status', '=', PENDING)
    .orderBy('next_attempt_at', 'asc')
    .limit(1)
    .executeTakeFirst();
  return row?.next_attempt_at;
}
