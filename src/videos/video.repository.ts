import { sql, type Updateable } from 'kysely';
import { compiledQuery, literalLimit } from '../db/compiled-query.ts';
import type { Db } from '../db/database.ts';
import type { KeysetPosition } from '../db/keyset.ts';
import { videoShown } from '../accounts/standing.ts';
import type { MediaLocation, NewVideoRow, VideoRow, VideoTable } from './video.table.ts';

// A page reads only what its items show: chapters and tags are the longest columns.
const VIDEO_LIST_COLUMNS = [
  'id',
  'creator_id',
  'title',
  'description',
  'category',
  'duration_seconds',
  'view_count',
  'privacy',
  'source_stream_id',
  'published_at',
  'created_at',
] as const;

const VIDEO_COLUMNS = [...VIDEO_LIST_COLUMNS, 'chapters', 'tags', 'updated_at'] as const;

/** A video as a list reads it. */
export type VideoListRow = Pick<VideoRow, (typeof VIDEO_LIST_COLUMNS)[number]>;

export async function insertVideo(db: Db, row: NewVideoRow): Promise<void> {
  await db.insertInto('videos').values(row).execute();
}

const findVideoQuery = compiledQuery((db, p: { id: string }) =>
  db.selectFrom('videos').select(VIDEO_COLUMNS).where('id', '=', p.id),
);

export async function findVideo(db: Db, id: string): Promise<VideoRow | undefined> {
  const rows = await findVideoQuery.execute(db, { id });
  return rows[0];
}

// What viewers and the API may read (src/accounts/standing.ts); findVideo is the platform's own.
const findShownVideoQuery = compiledQuery((db, p: { id: string }) =>
  db.selectFrom('videos').select(VIDEO_COLUMNS).where('id', '=', p.id).where(videoShown()),
);

export async function findShownVideo(db: Db, id: string): Promise<VideoRow | undefined> {
  const rows = await findShownVideoQuery.execute(db, { id });
  return rows[0];
}

export interface VideoListFilter {
  viewerId: string;
  creatorId?: string | undefined;
  category?: string | undefined;
  after?: KeysetPosition | undefined;
  take: number;
}

const listPublishedVideosQuery = compiledQuery(
  (db, filter: Omit<VideoListFilter, 'take'>, { take }: { take: number }) => {
    let query = db
      .selectFrom('videos')
      .select(VIDEO_LIST_COLUMNS)
      .where('published_at', 'is not', null)
      .where((eb) => eb.or([eb('privacy', '=', sql.lit('public')), eb('creator_id', '=', filter.viewerId)]))
      .where(videoShown());
    if (filter.creatorId !== undefined) query = query.where('creator_id', '=', filter.creatorId);
    if (filter.category !== undefined) query = query.where('category', '=', filter.category);
    const after = filter.after;
    if (after !== undefined) {
      query = query.where((eb) =>
        eb(eb.refTuple('published_at', 'id'), '<', eb.tuple(after.sortKey, after.id)),
      );
    }
    // The page size is written into the SQL (literalLimit), so it is a literal, not a parameter.
    return query.orderBy('published_at', 'desc').orderBy('id', 'desc').limit(literalLimit(take));
  },
);

/** Published videos, newest first by (published_at, id); private ones for their creator only. */
export async function listPublishedVideos(db: Db, filter: VideoListFilter): Promise<VideoListRow[]> {
  const { take, ...parameters } = filter;
  return listPublishedVideosQuery.execute(db, parameters, { take });
}

/** Makes a video that is still being processed public; undefined when it already was or is gone. */
export async function markVideoPublished(
  db: Db,
  id: string,
  durationSeconds: number,
  at: number,
  pictured = true,
): Promise<VideoRow | undefined> {
  return db
    .updateTable('videos')
    .set({
      published_at: at,
      duration_seconds: durationSeconds,
      updated_at: at,
      thumbnail_at: pictured ? at : null,
    })
    .where('id', '=', id)
    .where('published_at', 'is', null)
    .returning(VIDEO_COLUMNS)
    .executeTakeFirst();
}

/** A published video's thumbnail was made on a later try (src/media/thumbnail-backlog.ts). */
export async function markThumbnailMade(db: Db, id: string, at: number): Promise<void> {
  await db.updateTable('videos').set({ thumbnail_at: at }).where('id', '=', id).execute();
}

/** Removes a video that never became public (its processing failed). */
export async function deleteUnpublishedVideo(db: Db, id: string): Promise<void> {
  await db.deleteFrom('videos').where('id', '=', id).where('published_at', 'is', null).execute();
}

/** The videos made from a stream's recording (a draft while its media is being made), oldest first. */
export async function findVideosFromStream(db: Db, streamId: string): Promise<VideoRow[]> {
  return db
    .selectFrom('videos')
    .select(VIDEO_COLUMNS)
    .where('source_stream_id', '=', streamId)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
}

/** Changes a published video's details; undefined when it is gone or still a draft. */
export async function updatePublishedVideo(
  db: Db,
  id: string,
  changes: Updateable<VideoTable>,
): Promise<VideoRow | undefined> {
  return db
    .updateTable('videos')
    .set(changes)
    .where('id', '=', id)
    .where('published_at', 'is not', null)
    .returning(VIDEO_COLUMNS)
    .executeTakeFirst();
}

/** Deletes a published video with its view records; false when it is gone or still a draft. */
export async function deletePublishedVideo(db: Db, id: string): Promise<boolean> {
  await db.deleteFrom('video_views').where('video_id', '=', id).execute();
  const result = await db
    .deleteFrom('videos')
    .where('id', '=', id)
    .where('published_at', 'is not', null)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * The stream is being deleted: its videos stay, no longer linked to it (`source_stream_id`
 * null, the foreign key allows nothing else). Returns the videos as they are now.
 */
export async function detachVideosFromStream(db: Db, streamId: string, at: number): Promise<VideoRow[]> {
  return db
    .updateTable('videos')
    .set({ source_stream_id: null, updated_at: at })
    .where('source_stream_id', '=', streamId)
    .returning(VIDEO_COLUMNS)
    .execute();
}

/** Where the video's media is; undefined when there is no such video. */
export async function findMediaLocation(db: Db, id: string): Promise<MediaLocation | undefined> {
  const row = await db.selectFrom('videos').select('media_location').where('id', '=', id).executeTakeFirst();
  return row?.media_location;
}

/** Where the video's media is and when its thumbnail was made (null: none yet), for its watch page. */
export async function findMediaFacts(
  db: Db,
  id: string,
): Promise<{ media_location: MediaLocation; thumbnail_at: number | null } | undefined> {
  return db
    .selectFrom('videos')
    .select(['media_location', 'thumbnail_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Where the video's media is and who may see it; undefined when there is no such video. */
export async function findMediaPlacement(
  db: Db,
  id: string,
): Promise<{ media_location: MediaLocation; privacy: VideoRow['privacy'] } | undefined> {
  return db
    .selectFrom('videos')
    .select(['media_location', 'privacy'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Records that the video's media moved; false when there is no such video (deleted meanwhile). */
// Not updated_at: where the bytes are is no change of the video as its creator sees it.
export async function setMediaLocation(db: Db, id: string, location: MediaLocation): Promise<boolean> {
  const result = await db
    .updateTable('videos')
    .set({ media_location: location })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Up to `limit` ids of published videos whose media is at `location`, after `afterId` in id
 * order (a keyset walk of the whole library, as `tributary storage migrate` makes it).
 */
export async function findPublishedIdsAt(
  db: Db,
  location: MediaLocation,
  afterId: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('videos')
    .select('id')
    .where('media_location', '=', location)
    .where('published_at', 'is not', null)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}
