import { sql, type Kysely } from 'kysely';

// Managing webhooks: recoveries (re-sending a window of missed events) and the indexes that
// the recovery, the delivery log and the pruning of old history read by.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_recoveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('since', 'bigint', (c) => c.notNull())
    .addColumn('until', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('events_queued', 'integer', (c) => c.notNull())
    // Progress: the last event handled, in (created_at, id) order; null before the first.
    .addColumn('after_created_at', 'bigint')
    .addColumn('after_event_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // Workers look only for running recoveries; finished ones never slow that down.
  await db.schema
    .createIndex('webhook_recoveries_running')
    .on('webhook_recoveries')
    .column('created_at')
    .where(sql.ref('status'), '=', 'running')
    .execute();
  await db.schema
    .createIndex('webhook_recoveries_by_webhook')
    .on('webhook_recoveries')
    .column('webhook_id')
    .execute();

  // A recovery walks one account's events of a time window in creation order.
  await db.schema
    .createIndex('events_by_account')
    .on('events')
    .columns(['account_id', 'created_at', 'id'])
    .execute();
  // Pruning finds events older than the history window.
  await db.schema.createIndex('events_by_age').on('events').column('created_at').execute();
  // Pruning finds deliveries created before the history window (and then checks their last
  // change). Not an index on updated_at: every claim and every settlement changes that column,
  // and the delivery worker would pay for moving the row in the index twice per delivery.
  await db.schema
    .createIndex('webhook_deliveries_by_age')
    .on('webhook_deliveries')
    .column('created_at')
    .execute();
  // The delivery log pages newest first by (created_at, id) within one webhook.
  await db.schema
    .createIndex('webhook_deliveries_log')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'created_at', 'id'])
    .execute();
  await db.schema.dropIndex('webhook_deliveries_webhook_recent').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('webhook_deliveries_webhook_recent')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'created_at'])
    .execute();
  for (const index of [
    'webhook_deliveries_log',
    'webhook_deliveries_by_age',
    'events_by_age',
    'events_by_account',
  ]) {
    await db.schema.dropIndex(index).execute();
  }
  await db.schema.dropTable('webhook_recoveries').execute();
}
