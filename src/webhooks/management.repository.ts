// What the management API reads and changes of one webhook: the registration itself, its
// delivery log (deliveries with their attempts) and its recoveries. The worker's own queries
// live in delivery/; these are the client's view.
import type { Db } from '../db/database.ts';
import type { KeysetPosition } from '../db/keyset.ts';
import type { EventType } from '../events/event-types.ts';
import { PUBLIC_COLUMNS, type PublicWebhookRow } from './webhook.repository.ts';
import type { WebhookRecoveryRow } from './recovery.table.ts';
import type { DeliveryAttemptRow, DeliveryStatus, WebhookTable } from './webhook.table.ts';

/** The account's webhook, or undefined (another account's is as missing as an unknown one). */
export async function findOwnWebhook(
  db: Db,
  id: string,
  accountId: string,
): Promise<PublicWebhookRow | undefined> {
  return db
    .selectFrom('webhooks')
    .select(PUBLIC_COLUMNS)
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/** Another of the account's webhooks already has this URL. */
export async function urlTakenByOther(db: Db, accountId: string, url: string, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('webhooks')
    .select('id')
    .where('account_id', '=', accountId)
    .where('url', '=', url)
    .where('id', '!=', id)
    .executeTakeFirst();
  return row !== undefined;
}

export async function updateOwnWebhook(
  db: Db,
  id: string,
  accountId: string,
  changes: Partial<Pick<WebhookTable, 'url' | 'events'>> & { updated_at: number },
): Promise<PublicWebhookRow | undefined> {
  return db
    .updateTable('webhooks')
    .set(changes)
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .returning(PUBLIC_COLUMNS)
    .executeTakeFirst();
}

/** Active again, with a fresh count of events failed in a row. Harmless on an active one. */
export async function enableOwnWebhook(
  db: Db,
  id: string,
  accountId: string,
  at: number,
): Promise<PublicWebhookRow | undefined> {
  return db
    .updateTable('webhooks')
    .set({ status: 'active', consecutive_failed_events: 0, disabled_reason: null, updated_at: at })
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .returning(PUBLIC_COLUMNS)
    .executeTakeFirst();
}

export interface DeliveryLogRow {
  id: string;
  event_id: string;
  event_type: EventType;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: number;
  last_attempt_at: number | null;
  created_at: number;
}

function deliveryLogQuery(db: Db, webhookId: string) {
  return db
    .selectFrom('webhook_deliveries')
    .innerJoin('events', 'events.id', 'webhook_deliveries.event_id')
    .select((eb) => [
      'webhook_deliveries.id',
      'webhook_deliveries.event_id',
      'events.type as event_type',
      'webhook_deliveries.status',
      'webhook_deliveries.attempt_count',
      'webhook_deliveries.next_attempt_at',
      'webhook_deliveries.created_at',
      eb
        .selectFrom('webhook_delivery_attempts')
        .select((inner) => inner.fn.max('webhook_delivery_attempts.started_at').as('started_at'))
        .whereRef('webhook_delivery_attempts.delivery_id', '=', 'webhook_deliveries.id')
        .as('last_attempt_at'),
    ])
    .where('webhook_deliveries.webhook_id', '=', webhookId);
}

export interface DeliveryLogFilter {
  webhookId: string;
  status?: DeliveryStatus | undefined;
  eventType?: EventType | undefined;
  after?: KeysetPosition | undefined;
  /** Rows to fetch: the page size plus one, to learn whether more exist. */
  take: number;
}

/** Newest first by (created_at, id); a keyset page never skips or repeats rows. */
export async function listDeliveries(db: Db, filter: DeliveryLogFilter): Promise<DeliveryLogRow[]> {
  let query = deliveryLogQuery(db, filter.webhookId);
  if (filter.status !== undefined) query = query.where('webhook_deliveries.status', '=', filter.status);
  if (filter.eventType !== undefined) query = query.where('events.type', '=', filter.eventType);
  const after = filter.after;
  if (after !== undefined) {
    query = query.where((eb) =>
      eb(
        eb.refTuple('webhook_deliveries.created_at', 'webhook_deliveries.id'),
        '<',
        eb.tuple(after.sortKey, after.id),
      ),
    );
  }
  const rows = await query
    .orderBy('webhook_deliveries.created_at', 'desc')
    .orderBy('webhook_deliveries.id', 'desc')
    .limit(filter.take)
    .execute();
  return rows.map(normalize);
}

export async function findDeliveryOfEvent(
  db: Db,
  webhookId: string,
  eventId: string,
): Promise<DeliveryLogRow | undefined> {
  const row = await deliveryLogQuery(db, webhookId)
    .where('webhook_deliveries.event_id', '=', eventId)
    .executeTakeFirst();
  return row && normalize(row);
}

// max() over bigint comes back as text from some drivers' aggregate paths; one shape for callers.
function normalize<T extends { last_attempt_at: unknown }>(row: T): T & { last_attempt_at: number | null } {
  return {
    ...row,
    last_attempt_at: row.last_attempt_at === null ? null : Number(row.last_attempt_at),
  };
}

export async function findAttempts(
  db: Db,
  deliveryId: string,
): Promise<Omit<DeliveryAttemptRow, 'delivery_id'>[]> {
  return db
    .selectFrom('webhook_delivery_attempts')
    .select(['attempt_number', 'started_at', 'latency_ms', 'status_code', 'error', 'response_excerpt'])
    .where('delivery_id', '=', deliveryId)
    .orderBy('attempt_number', 'asc')
    .execute();
}

/**
 * Makes the delivery due now, whatever its settled status, unless an attempt is in flight
 * (`sending`): one statement, so it cannot slip in between a worker's claim and its record.
 * The attempt numbering continues. False when the delivery was being sent.
 */
export async function scheduleResend(db: Db, deliveryId: string, at: number): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: at, last_error: null, updated_at: at })
    .where('id', '=', deliveryId)
    .where('status', '!=', 'sending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function insertRecovery(db: Db, row: WebhookRecoveryRow): Promise<void> {
  await db.insertInto('webhook_recoveries').values(row).execute();
}

export async function findRecovery(
  db: Db,
  webhookId: string,
  id: string,
): Promise<WebhookRecoveryRow | undefined> {
  return db
    .selectFrom('webhook_recoveries')
    .selectAll()
    .where('id', '=', id)
    .where('webhook_id', '=', webhookId)
    .executeTakeFirst();
}
