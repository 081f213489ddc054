// What operators see of and do to a webhook's deliveries (`tributary webhooks deliveries` and
// `tributary webhooks retry`): reads across deliveries, events and attempts that the worker
// never needs, and the one write an operator may make.
import type { Db } from '../../db/database.ts';
import type { DeliveryAttemptRow, DeliveryStatus, WebhookDeliveryRow } from '../webhook.table.ts';

export async function findDelivery(
  db: Db,
  eventId: string,
  webhookId: string,
): Promise<Pick<WebhookDeliveryRow, 'id' | 'status'> | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .select(['id', 'status'])
    .where('event_id', '=', eventId)
    .where('webhook_id', '=', webhookId)
    .executeTakeFirst();
}

/** One more attempt, now; the attempt number keeps counting from where it stopped. */
export async function scheduleManualRetry(db: Db, deliveryId: string, at: number): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: at, last_error: null, updated_at: at })
    .where('id', '=', deliveryId)
    .where('status', '=', 'failed')
    .execute();
}

export interface DeliveryReport {
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: number;
  lastError: string | null;
  createdAt: number;
  attempts: Omit<DeliveryAttemptRow, 'delivery_id'>[];
}

export async function recentDeliveries(db: Db, webhookId: string, limit: number): Promise<DeliveryReport[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .innerJoin('events', 'events.id', 'webhook_deliveries.event_id')
    .select([
      'webhook_deliveries.id',
      'webhook_deliveries.event_id',
      'events.type',
      'webhook_deliveries.status',
      'webhook_deliveries.attempt_count',
      'webhook_deliveries.next_attempt_at',
      'webhook_deliveries.last_error',
      'webhook_deliveries.created_at',
    ])
    .where('webhook_deliveries.webhook_id', '=', webhookId)
    .orderBy('webhook_deliveries.created_at', 'desc')
    .orderBy('webhook_deliveries.id', 'desc')
    .limit(limit)
    .execute();
  const attempts =
    rows.length === 0
      ? []
      : await db
          .selectFrom('webhook_delivery_attempts')
          .select([
            'delivery_id',
            'attempt_number',
            'started_at',
            'latency_ms',
            'status_code',
            'error',
            'response_excerpt',
          ])
          .where(
            'delivery_id',
            'in',
            rows.map((row) => row.id),
          )
          .orderBy('attempt_number', 'asc')
          .execute();
  return rows.map((row) => ({
    eventId: row.event_id,
    eventType: row.type,
    status: row.status,
    attemptCount: row.attempt_count,
    nextAttemptAt: row.next_attempt_at,
    lastError: row.last_error,
    createdAt: row.created_at,
    attempts: attempts
      .filter((attempt) => attempt.delivery_id === row.id)
      .map(({ delivery_id: _ignored, ...attempt }) => attempt),
  }));
}
