import type { Kysely } from 'kysely';

// Where a video's HLS media is: `local` (DATA_DIR/media/videos/<id>/, every video before this
// and every video while MEDIA_STORAGE=local) or `object` (the object store, under
// videos/<id>/, once the video.store job uploaded and verified it and removed the folder).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('videos')
    .addColumn('media_location', 'text', (c) => c.notNull().defaultTo('local'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('videos').dropColumn('media_location').execute();
}
