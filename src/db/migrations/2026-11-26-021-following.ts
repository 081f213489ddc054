import type { Kysely } from 'kysely';

// The home page's following feed reads a viewer's active subscriptions (the only index so far
// led with the creator, so a viewer's were a full scan), then the live streams of those
// creators (without an index by creator and status, every live stream was read).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('streams_by_creator_status')
    .on('streams')
    .columns(['creator_id', 'status'])
    .execute();
  await db.schema
    .createIndex('subscriptions_by_viewer')
    .on('subscriptions')
    .columns(['viewer_id', 'status', 'creator_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('subscriptions_by_viewer').execute();
  await db.schema.dropIndex('streams_by_creator_status').execute();
}
