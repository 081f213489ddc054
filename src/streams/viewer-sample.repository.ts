import type { Db } from '../db/database.ts';
import type { ViewerSampleRow } from './viewer-sample.table.ts';

export async function insertSample(db: Db, row: ViewerSampleRow): Promise<void> {
  // Two processes sampling the same stream in the same millisecond keep the first.
  await db
    .insertInto('stream_viewer_samples')
    .values(row)
    .onConflict((oc) => oc.columns(['stream_id', 'at']).doNothing())
    .execute();
}

/** Oldest first, the most recent `limit` samples of one stream. */
export async function listSamples(
  db: Db,
  streamId: string,
  limit: number,
): Promise<Pick<ViewerSampleRow, 'at' | 'viewer_count'>[]> {
  const rows = await db
    .selectFrom('stream_viewer_samples')
    .select(['at', 'viewer_count'])
    .where('stream_id', '=', streamId)
    .orderBy('at', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse();
}

export async function deleteSamplesBefore(db: Db, before: number): Promise<number> {
  const result = await db.deleteFrom('stream_viewer_samples').where('at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
