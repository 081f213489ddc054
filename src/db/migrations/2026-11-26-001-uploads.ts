import type { Kysely } from 'kysely';

// Uploads (a creator's own video file, sent by tus) and the durable queue of media work that
// turns a finished upload into a video. Each account may get its own storage quota.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('creator_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('received_bytes', 'bigint', (c) => c.notNull())
    .addColumn('processing_percent', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('privacy', 'text', (c) => c.notNull())
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('chapters', 'text', (c) => c.notNull())
    .addColumn('video_id', 'text')
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // The account's list, newest first, keyset-paginated.
  await db.schema
    .createIndex('uploads_by_creator')
    .on('uploads')
    .columns(['creator_id', 'created_at', 'id'])
    .execute();
  // The sweeper finds stalled uploads by status and expiry.
  await db.schema
    .createIndex('uploads_by_status_expiry')
    .on('uploads')
    .columns(['status', 'expires_at'])
    .execute();
  await db.schema.createIndex('uploads_by_video').on('uploads').column('video_id').execute();

  await db.schema
    .createTable('media_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_after', 'bigint', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .addColumn('lease_token', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // One job per subject and kind: enqueueing twice (a retried finish) is a no-op.
  await db.schema
    .createIndex('media_jobs_by_subject')
    .on('media_jobs')
    .columns(['kind', 'subject_id'])
    .unique()
    .execute();
  await db.schema.createIndex('media_jobs_due').on('media_jobs').columns(['status', 'run_after']).execute();

  await db.schema.alterTable('users').addColumn('storage_quota_bytes', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('storage_quota_bytes').execute();
  await db.schema.dropTable('media_jobs').execute();
  await db.schema.dropTable('uploads').execute();
}
