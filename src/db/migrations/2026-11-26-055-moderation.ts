import type { Kysely } from 'kysely';

// Moderation (src/moderation/): accounts gain a role (`user` or `operator`, set from the CLI)
// and a suspension (when, and why, which the user reads after signing in); streams and videos
// gain a takedown (when and why). Viewers' reports queue for operators, and every operator
// action is a row of the audit log.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('user'))
    .execute();
  await db.schema.alterTable('users').addColumn('suspended_at', 'bigint').execute();
  await db.schema.alterTable('users').addColumn('suspension_reason', 'text').execute();
  for (const table of ['streams', 'videos']) {
    await db.schema.alterTable(table).addColumn('taken_down_at', 'bigint').execute();
    await db.schema.alterTable(table).addColumn('takedown_reason', 'text').execute();
  }

  await db.schema
    .createTable('reports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('reporter_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('target_kind', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('creator_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('resolved_at', 'bigint')
    .addColumn('resolved_by', 'text')
    .addColumn('resolution', 'text')
    .execute();
  await db.schema.createIndex('reports_by_status').on('reports').columns(['status', 'created_at']).execute();
  // One open report per reporter and target: reporting twice does not queue twice.
  await db.schema
    .createIndex('reports_by_reporter_target')
    .on('reports')
    .columns(['reporter_id', 'target_id', 'status'])
    .execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_kind', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_by_time').on('audit_log').columns(['created_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
  await db.schema.dropTable('reports').execute();
  for (const table of ['videos', 'streams']) {
    await db.schema.alterTable(table).dropColumn('takedown_reason').execute();
    await db.schema.alterTable(table).dropColumn('taken_down_at').execute();
  }
  await db.schema.alterTable('users').dropColumn('suspension_reason').execute();
  await db.schema.alterTable('users').dropColumn('suspended_at').execute();
  await db.schema.alterTable('users').dropColumn('role').execute();
}
