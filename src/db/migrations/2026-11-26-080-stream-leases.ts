import type { Kysely } from 'kysely';

// Live ingest on many machines (issue 25): which ingest process holds each live stream. One row
// per stream an ingest process handles (publishing or inside its reconnect window); renewed
// while it does, taken over by another process once `expires_at` has passed (or at once while
// `waiting` for a reconnect, which may land on another process), deleted when the
// stream is finished. `origin_url` is where the holder serves the stream's playlists and
// segments (the origin streams them through from there).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('stream_leases')
    .addColumn('stream_id', 'text', (c) => c.primaryKey().references('streams.id').onDelete('cascade'))
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('origin_url', 'text')
    // 1 while the holder waits for its encoder to reconnect: another process may take it then.
    .addColumn('waiting', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('acquired_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stream_leases_holder').on('stream_leases').column('holder').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('stream_leases').execute();
}
