import type { Kysely } from 'kysely';

// One row per viewer, video and UTC day that counted a view (src/viewers/video-views.ts). The
// primary key is what makes two API processes seeing one viewer count one view: only one
// insert wins, and view_count moves in the same transaction only for the winner. Only today's
// rows are needed; older days are pruned.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('video_views')
    .addColumn('video_id', 'text', (c) => c.notNull().references('videos.id').onDelete('cascade'))
    .addColumn('viewer_hash', 'text', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('address_hash', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('video_views_pk', ['video_id', 'viewer_hash', 'day'])
    .execute();
  // The per-address cap counts one address's views of a video today.
  await db.schema
    .createIndex('video_views_address')
    .on('video_views')
    .columns(['video_id', 'address_hash', 'day'])
    .execute();
  // The prune removes whole past days.
  await db.schema.createIndex('video_views_day').on('video_views').column('day').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('video_views').execute();
}
