import type { Kysely } from 'kysely';

// The home page's following feed reads a viewer's active subscriptions; the only index so far
// leads with the creator (subscriptions_pair), so a viewer's were a full scan.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('subscriptions_by_viewer')
    .on('subscriptions')
    .columns(['viewer_id', 'status', 'creator_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('subscriptions_by_viewer').execute();
}
