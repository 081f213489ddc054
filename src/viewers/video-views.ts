// Views of videos: the first presence of a viewer for a video in a UTC day counts one view,
// across API processes, through the database (the video_views primary key). A view is only
// written once per viewer, video and day; the rows of past days are pruned, since only
// today's are needed to tell a first presence from a later one.
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

export const DAY_MS = 86_400_000;

/**
 * Views one client address adds to one video per day at most: a household or an office is
 * counted, a script inventing viewer ids or cookies is not.
 */
export const VIEWS_PER_ADDRESS_PER_DAY = 20;

export interface ViewRecord {
  videoId: string;
  viewerHash: string;
  addressHash: string;
  day: number;
}

/** Days since the Unix epoch, UTC. */
export function utcDay(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** Counts the view unless this viewer already has today's; true when it counted. */
export async function countView(
  db: Db,
  view: ViewRecord,
  perAddress = VIEWS_PER_ADDRESS_PER_DAY,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const fromAddress = await trx
      .selectFrom('video_views')
      .select((eb) => eb.fn.countAll<number | string>().as('views'))
      .where('video_id', '=', view.videoId)
      .where('address_hash', '=', view.addressHash)
      .where('day', '=', view.day)
      .executeTakeFirstOrThrow();
    if (Number(fromAddress.views) >= perAddress) return false;
    const inserted = await trx
      .insertInto('video_views')
      .values({
        video_id: view.videoId,
        viewer_hash: view.viewerHash,
        day: view.day,
        address_hash: view.addressHash,
      })
      .onConflict((oc) => oc.columns(['video_id', 'viewer_hash', 'day']).doNothing())
      .returning('video_id')
      .executeTakeFirst();
    if (!inserted) return false;
    await trx
      .updateTable('videos')
      .set({ view_count: sql<number>`view_count + 1` })
      .where('id', '=', view.videoId)
      .execute();
    return true;
  });
}

/** Removes the rows of days before `today`; the number removed. */
export async function pruneViews(db: Db, today: number): Promise<number> {
  const result = await db.deleteFrom('video_views').where('day', '<', today).executeTakeFirst();
  return Number(result.numDeletedRows);
}
