import type { Kysely } from 'kysely';

// Simulcast destinations: where a creator's live stream is sent on (another platform's RTMP or
// RTMPS ingest), per stream, plus the channel defaults (stream_id null) copied into every new
// stream. The destination's stream key is kept only sealed (AES-256-GCM, bound to the row's id).
// A stream's destinations go with it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('simulcast_targets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('creator_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('stream_id', 'text', (c) => c.references('streams.id').onDelete('cascade'))
    .addColumn('name', 'text')
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('key_ciphertext', 'text', (c) => c.notNull())
    .addColumn('key_hint', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('state_reason', 'text')
    .addColumn('state_changed_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // A stream's destinations (and the cascade from streams), in the order they were added.
  await db.schema
    .createIndex('simulcast_targets_by_stream')
    .on('simulcast_targets')
    .columns(['stream_id', 'created_at', 'id'])
    .execute();
  // A creator's channel defaults (stream_id null), and the cascade from users.
  await db.schema
    .createIndex('simulcast_targets_by_creator')
    .on('simulcast_targets')
    .columns(['creator_id', 'stream_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('simulcast_targets').execute();
}
