import type { Kysely } from 'kysely';

// A live stream's viewer count over time, for the creator's chart (src/streams/viewer-samples.ts
// writes at most one row per stream per interval). Rows go with their stream, and rows older
// than the retention are pruned, so the table stays bounded.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('stream_viewer_samples')
    .addColumn('stream_id', 'text', (c) => c.notNull().references('streams.id').onDelete('cascade'))
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('viewer_count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('stream_viewer_samples_pk', ['stream_id', 'at'])
    .execute();
  // Pruning finds old samples by age alone.
  await db.schema
    .createIndex('stream_viewer_samples_by_age')
    .on('stream_viewer_samples')
    .column('at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('stream_viewer_samples').execute();
}
