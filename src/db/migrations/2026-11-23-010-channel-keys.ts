import type { Kysely } from 'kysely';

// Each creator's channel stream key (src/channels/), stored like a stream's key: a keyed hash the
// ingest looks it up by (unique, so one key names one creator) and a sealed copy for the creator.
// One row per user: the primary key is what makes two first reads racing create one key.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('channel_keys')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('key_ciphertext', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('channel_keys_by_hash')
    .on('channel_keys')
    .column('key_hash')
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('channel_keys').execute();
}
