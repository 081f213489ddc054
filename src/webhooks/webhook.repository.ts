import type { Db } from '../db/database.ts';
import { dialectOf } from '../db/dialect.ts';
import type { WebhookRow, WebhookStatus } from './webhook.table.ts';

// The columns the API may show. The secrets' ciphertexts are read only by the sender's query.
export const PUBLIC_COLUMNS = ['id', 'account_id', 'url', 'events', 'status', 'created_at'] as const;

export type PublicWebhookRow = Pick<WebhookRow, (typeof PUBLIC_COLUMNS)[number]>;

/**
 * Serialises registrations of one account, so the limit of webhooks per account holds under
 * races: on PostgreSQL by locking the account's row until the transaction ends; SQLite has one
 * writer at a time already.
 */
export async function lockAccountForRegistration(trx: Db, accountId: string): Promise<void> {
  if (dialectOf(trx) !== 'postgres') return;
  await trx.selectFrom('users').select('id').where('id', '=', accountId).forUpdate().execute();
}

export async function insertWebhook(db: Db, row: WebhookRow): Promise<void> {
  await db.insertInto('webhooks').values(row).execute();
}

export async function countWebhooks(db: Db, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function urlTaken(db: Db, accountId: string, url: string): Promise<boolean> {
  const row = await db
    .selectFrom('webhooks')
    .select('id')
    .where('account_id', '=', accountId)
    .where('url', '=', url)
    .executeTakeFirst();
  return row !== undefined;
}

/** Oldest first: the order they were registered in. */
export async function listWebhooks(db: Db, accountId: string): Promise<PublicWebhookRow[]> {
  return db
    .selectFrom('webhooks')
    .select(PUBLIC_COLUMNS)
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
}

export async function findWebhook(db: Db, id: string): Promise<PublicWebhookRow | undefined> {
  return db.selectFrom('webhooks').select(PUBLIC_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** Deletes the registration with its deliveries and attempts (cascade). False when not the account's. */
export async function deleteWebhook(db: Db, id: string, accountId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('webhooks')
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export interface SendingWebhook {
  id: string;
  url: string;
  status: WebhookStatus;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: number | null;
}

export async function findWebhooksForSending(db: Db, ids: readonly string[]): Promise<SendingWebhook[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('webhooks')
    .select([
      'id',
      'url',
      'status',
      'secret_ciphertext',
      'previous_secret_ciphertext',
      'previous_secret_expires_at',
    ])
    .where('id', 'in', ids)
    .execute();
}

/** Active webhooks of these accounts, for fan-out. */
export async function findActiveWebhooksOf(
  db: Db,
  accountIds: readonly string[],
): Promise<Pick<WebhookRow, 'id' | 'account_id' | 'events'>[]> {
  if (accountIds.length === 0) return [];
  return db
    .selectFrom('webhooks')
    .select(['id', 'account_id', 'events'])
    .where('account_id', 'in', accountIds)
    .where('status', '=', 'active')
    .execute();
}

export async function findWebhookStatuses(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, WebhookStatus>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('webhooks').select(['id', 'status']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.status]));
}

/**
 * Updates the count of events failed in a row: `reset` (a success happened) starts it again
 * from `failed`, otherwise `failed` is added. Returns the new count, or undefined when the
 * webhook is gone.
 */
export async function recordFailedEvents(
  db: Db,
  id: string,
  reset: boolean,
  failed: number,
  at: number,
): Promise<number | undefined> {
  if (reset && failed === 0) {
    await db
      .updateTable('webhooks')
      .set({ consecutive_failed_events: 0 })
      .where('id', '=', id)
      .where('consecutive_failed_events', '>', 0)
      .execute();
    return 0;
  }
  const row = await db
    .updateTable('webhooks')
    .set((eb) => ({
      consecutive_failed_events: reset ? failed : eb('consecutive_failed_events', '+', failed),
      updated_at: at,
    }))
    .where('id', '=', id)
    .returning('consecutive_failed_events')
    .executeTakeFirst();
  return row?.consecutive_failed_events;
}

/** Returns true when this call disabled it (it was active). */
export async function disableWebhook(db: Db, id: string, reason: string, at: number): Promise<boolean> {
  const result = await db
    .updateTable('webhooks')
    .set({ status: 'disabled', disabled_reason: reason, updated_at: at })
    .where('id', '=', id)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Replaces the signing secret in one statement, so two rotations at once cannot lose a secret
 * that was handed out: the current ciphertext becomes the previous one (any older one is
 * dropped), still bound to the webhook's id. Undefined when the webhook is not the account's.
 */
export async function rotateSecret(
  db: Db,
  id: string,
  accountId: string,
  sealedSecret: string,
  previousExpiresAt: number,
  at: number,
): Promise<PublicWebhookRow | undefined> {
  return db
    .updateTable('webhooks')
    .set((eb) => ({
      previous_secret_ciphertext: eb.ref('secret_ciphertext'),
      previous_secret_expires_at: previousExpiresAt,
      secret_ciphertext: sealedSecret,
      updated_at: at,
    }))
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .returning(PUBLIC_COLUMNS)
    .executeTakeFirst();
}
