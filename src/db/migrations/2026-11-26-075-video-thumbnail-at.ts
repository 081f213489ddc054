import { sql, type Kysely } from 'kysely';

// When a video's thumbnail was made (issue 28): null while it has none (every try at
// publication failed, src/media/thumbnail-backlog.ts), so a card shows its placeholder rather
// than an image that is not there. Videos published before this change are taken to have one
// (publication made it, or published without one, rarely).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('videos').addColumn('thumbnail_at', 'bigint').execute();
  await sql`update videos set thumbnail_at = published_at where published_at is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('videos').dropColumn('thumbnail_at').execute();
}
