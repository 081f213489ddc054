import type { Db } from '../db/database.ts';

export interface AttemptOutcomeRow {
  started_at: number;
  status_code: number | null;
}

/** Every attempt to one webhook since `since`, oldest first (at most `limit`). */
export async function attemptOutcomes(
  db: Db,
  webhookId: string,
  since: number,
  limit: number,
): Promise<AttemptOutcomeRow[]> {
  return db
    .selectFrom('webhook_delivery_attempts')
    .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_delivery_attempts.delivery_id')
    .select(['webhook_delivery_attempts.started_at', 'webhook_delivery_attempts.status_code'])
    .where('webhook_deliveries.webhook_id', '=', webhookId)
    .where('webhook_delivery_attempts.started_at', '>=', since)
    .orderBy('webhook_delivery_attempts.started_at', 'asc')
    .limit(limit)
    .execute();
}
