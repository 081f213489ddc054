// The videos anyone may browse (home and channel pages): published and public only, whoever
// asks, because private means unlisted (decisions.md). The API's list is in video.repository.ts.
import { sql } from 'kysely';
import { compiledQuery, literalLimit } from '../db/compiled-query.ts';
import type { Db } from '../db/database.ts';
import { videoShown } from '../accounts/standing.ts';
import type { KeysetPosition } from '../db/keyset.ts';
import { followedCreators } from '../streams/stream-listing.repository.ts';
import type { VideoRow } from './video.table.ts';

const BROWSE_COLUMNS = [
  'id',
  'creator_id',
  'title',
  'category',
  'duration_seconds',
  'view_count',
  'published_at',
] as const;

export type BrowsableVideoRow = Pick<VideoRow, (typeof BROWSE_COLUMNS)[number]> & {
  published_at: number;
  creator_name: string;
  /** When its thumbnail was made; null while it has none. */
  thumbnail_at: number | null;
};

export interface VideoBrowseFilter {
  creatorId?: string | undefined;
  category?: string | undefined;
  /** Only the creators this viewer has an active subscription to (the home page's feed). */
  followedBy?: string | undefined;
  after?: KeysetPosition | undefined;
}

const publicVideosQuery = compiledQuery((db, filter: VideoBrowseFilter, { take }: { take: number }) => {
  let query = db
    .selectFrom('videos')
    .innerJoin('users', 'users.id', 'videos.creator_id')
    .select(BROWSE_COLUMNS.map((column) => `videos.${column}` as const))
    .select(['users.name as creator_name', 'videos.thumbnail_at'])
    .where('videos.published_at', 'is not', null)
    .where('videos.privacy', '=', sql.lit('public'))
    .where(videoShown());
  if (filter.creatorId !== undefined) query = query.where('videos.creator_id', '=', filter.creatorId);
  if (filter.category !== undefined) query = query.where('videos.category', '=', filter.category);
  const followedBy = filter.followedBy;
  if (followedBy !== undefined) {
    query = query.where('videos.creator_id', 'in', followedCreators(db, followedBy));
  }
  const after = filter.after;
  if (after !== undefined) {
    query = query.where((eb) =>
      eb(eb.refTuple('videos.published_at', 'videos.id'), '<', eb.tuple(after.sortKey, after.id)),
    );
  }
  return query.orderBy('videos.published_at', 'desc').orderBy('videos.id', 'desc').limit(literalLimit(take));
});

/** Public published videos, newest first by (published_at, id), a keyset page at a time. */
export async function listPublicVideos(
  db: Db,
  filter: VideoBrowseFilter,
  take: number,
): Promise<BrowsableVideoRow[]> {
  return (await publicVideosQuery.execute(db, filter, { take })) as BrowsableVideoRow[];
}
