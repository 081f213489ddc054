import type { Kysely } from 'kysely';

// One migration for both dialects, written with the schema builder. Times are epoch
// milliseconds in bigint columns: exact, compact, and compared the same way everywhere.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('token_hint', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_keys_user').on('api_keys').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('streams')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('creator_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('privacy', 'text', (c) => c.notNull())
    .addColumn('viewer_count', 'integer')
    .addColumn('peak_viewer_count', 'integer')
    .addColumn('started_at', 'bigint')
    .addColumn('scheduled_at', 'bigint')
    .addColumn('ended_at', 'bigint')
    .addColumn('thumbnail_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    // The secret key streaming software publishes with; shown to the creator only.
    .addColumn('stream_key', 'text', (c) => c.notNull().unique())
    // Whether the live recording becomes a video when the stream ends.
    .addColumn('record', 'integer', (c) => c.notNull())
    .execute();
  // Keyset pages walk (created_at, id) descending, optionally narrowed by one filter.
  await db.schema.createIndex('streams_newest').on('streams').columns(['created_at', 'id']).execute();
  for (const column of ['status', 'creator_id', 'category']) {
    await db.schema
      .createIndex(`streams_by_${column}`)
      .on('streams')
      .columns([column, 'created_at', 'id'])
      .execute();
  }

  await db.schema
    .createTable('videos')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('creator_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('duration_seconds', 'integer', (c) => c.notNull())
    .addColumn('view_count', 'integer', (c) => c.notNull())
    .addColumn('privacy', 'text', (c) => c.notNull())
    .addColumn('source_stream_id', 'text', (c) => c.references('streams.id'))
    .addColumn('published_at', 'bigint')
    .addColumn('chapters', 'text', (c) => c.notNull())
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // Also serves the foreign key check when a stream row is deleted.
  await db.schema.createIndex('videos_by_source_stream').on('videos').column('source_stream_id').execute();
  await db.schema.createIndex('videos_newest').on('videos').columns(['published_at', 'id']).execute();
  for (const column of ['creator_id', 'category']) {
    await db.schema
      .createIndex(`videos_by_${column}`)
      .on('videos')
      .columns([column, 'published_at', 'id'])
      .execute();
  }

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('viewer_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('creator_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('cancelled_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('subscriptions_pair')
    .on('subscriptions')
    .columns(['creator_id', 'viewer_id'])
    .execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('dispatched_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('events_pending')
    .on('events')
    .columns(['dispatched_at', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['events', 'subscriptions', 'videos', 'streams', 'api_keys', 'users']) {
    await db.schema.dropTable(table).execute();
  }
}
