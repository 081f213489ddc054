// Bulk rows for tests that need many: inserted in batches straight through Kysely, with the
// same shapes the services write.
import type { Db } from '../../src/db/database.ts';
import { newId, randomBase62 } from '../../src/shared/ids.ts';
import type { NewStreamRow } from '../../src/streams/stream.table.ts';
import type { NewVideoRow } from '../../src/videos/video.table.ts';

const BATCH = 500;

export async function seedStreams(
  db: Db,
  count: number,
  make: (index: number) => Partial<NewStreamRow> & { creator_id: string },
): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += BATCH) {
    const rows: NewStreamRow[] = [];
    for (let i = start; i < Math.min(count, start + BATCH); i++) {
      const at = 1_700_000_000_000 + i * 1000;
      const row: NewStreamRow = {
        id: newId('str'),
        title: `Stream ${i}`,
        description: null,
        status: 'scheduled',
        category: 'talk',
        privacy: 'public',
        viewer_count: null,
        peak_viewer_count: null,
        started_at: null,
        scheduled_at: null,
        ended_at: null,
        thumbnail_at: null,
        created_at: at,
        updated_at: at,
        // A stand-in for the keyed hash the service stores (nothing publishes to seeded streams).
        stream_key_hash: randomBase62(43),
        record: 1,
        ...make(i),
      };
      rows.push(row);
      ids.push(row.id);
    }
    await db.insertInto('streams').values(rows).execute();
  }
  return ids;
}

export async function seedVideos(
  db: Db,
  count: number,
  make: (index: number) => Partial<NewVideoRow> & { creator_id: string },
): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += BATCH) {
    const rows: NewVideoRow[] = [];
    for (let i = start; i < Math.min(count, start + BATCH); i++) {
      const at = 1_700_000_000_000 + i * 1000;
      const row: NewVideoRow = {
        id: newId('vid'),
        title: `Video ${i}`,
        description: null,
        category: 'music',
        duration_seconds: 60 + i,
        view_count: 0,
        privacy: 'public',
        source_stream_id: null,
        published_at: at,
        chapters: '[]',
        tags: '[]',
        created_at: at,
        updated_at: at,
        ...make(i),
      };
      rows.push(row);
      ids.push(row.id);
    }
    await db.insertInto('videos').values(rows).execute();
  }
  return ids;
}
