import type { Db } from '../db/database.ts';
import { dialectOf } from '../db/dialect.ts';
import type { SubscriptionRow } from './subscription.table.ts';

const SUBSCRIPTION_COLUMNS = [
  'id',
  'viewer_id',
  'creator_id',
  'status',
  'created_at',
  'cancelled_at',
] as const;

export async function insertSubscription(db: Db, row: SubscriptionRow): Promise<void> {
  await db.insertInto('subscriptions').values(row).execute();
}

export async function findSubscription(db: Db, id: string): Promise<SubscriptionRow | undefined> {
  return db.selectFrom('subscriptions').select(SUBSCRIPTION_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function findActiveSubscription(
  db: Db,
  viewerId: string,
  creatorId: string,
): Promise<SubscriptionRow | undefined> {
  return db
    .selectFrom('subscriptions')
    .select(SUBSCRIPTION_COLUMNS)
    .where('creator_id', '=', creatorId)
    .where('viewer_id', '=', viewerId)
    .where('status', '=', 'active')
    .executeTakeFirst();
}

export async function cancelSubscription(
  db: Db,
  id: string,
  at: number,
): Promise<SubscriptionRow | undefined> {
  return db
    .updateTable('subscriptions')
    .set({ status: 'cancelled', cancelled_at: at })
    .where('id', '=', id)
    .where('status', '=', 'active')
    .returning(SUBSCRIPTION_COLUMNS)
    .executeTakeFirst();
}

/**
 * Serialises subscription changes to one creator until the transaction ends, so two requests
 * racing to subscribe the same viewer make one subscription: on PostgreSQL by locking the
 * creator's row; SQLite has one writer at a time already.
 */
export async function lockCreatorForSubscriptions(trx: Db, creatorId: string): Promise<void> {
  if (dialectOf(trx) !== 'postgres') return;
  await trx.selectFrom('users').select('id').where('id', '=', creatorId).forUpdate().execute();
}

export async function countActiveSubscribers(db: Db, creatorId: string): Promise<number> {
  const row = await db
    .selectFrom('subscriptions')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('creator_id', '=', creatorId)
    .where('status', '=', 'active')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
