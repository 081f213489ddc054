// The videos anyone may browse (home and channel pages): published and public only, whoever
// asks, because private means unlisted (decisions.md). The API's list is in video.repository.ts.
import { sql } from 'kysely';
import { compiledQuery, literalLimit } from '../db/compiled-query.ts';
import type { Db } from '../db/database.ts';
import { videoShown } from '../accounts/standing.ts';
import type { KeysetPosition } from '../db/keyset.ts';
import { FEED_CANDIDATES_PER_ROW, followedCreators } from '../streams/stream-listing.repository.ts';
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

// The following feed's videos: the candidates (the newest of the creators a viewer follows)
// come from videos_by_creator_id alone (creator, publication time, id), and only they are read
// and checked (public, shown); the outer query walks them in order and stops at the page. The
// listing's own query reads every video of every followed creator (about 1,000 rows for 20
// creators: 0.4 ms) to sort them.
const followedVideosQuery = compiledQuery(
  (db, filter: { viewerId: string }, { take, candidates }: { take: number; candidates: number }) =>
    db
      .with('candidates', (db) =>
        db
          .selectFrom('subscriptions')
          .innerJoin('videos', 'videos.creator_id', 'subscriptions.creator_id')
          .select(['videos.id', 'videos.published_at'])
          .where('subscriptions.viewer_id', '=', filter.viewerId)
          .where('subscriptions.status', '=', sql.lit('active'))
          .where('videos.published_at', 'is not', null)
          .orderBy('videos.published_at', 'desc')
          .orderBy('videos.id', 'desc')
          .limit(literalLimit(candidates)),
      )
      .selectFrom('candidates')
      .innerJoin('videos', 'videos.id', 'candidates.id')
      .innerJoin('users', 'users.id', 'videos.creator_id')
      .select(BROWSE_COLUMNS.map((column) => `videos.${column}` as const))
      .select(['users.name as creator_name', 'videos.thumbnail_at'])
      .where('videos.privacy', '=', sql.lit('public'))
      .where(videoShown())
      .orderBy('candidates.published_at', 'desc')
      .orderBy('candidates.id', 'desc')
      .limit(literalLimit(take)),
);

/**
 * The home page's following feed: the newest public videos of the creators a viewer has an
 * active subscription to. Fewer than `take` from the candidates (few videos, or some of them
 * private or hidden) reads them all, as the listing's own query does.
 */
export async function listFollowedVideos(
  db: Db,
  viewerId: string,
  take: number,
): Promise<BrowsableVideoRow[]> {
  const candidates = take * FEED_CANDIDATES_PER_ROW;
  const rows = (await followedVideosQuery.execute(
    db,
    { viewerId },
    { take, candidates },
  )) as BrowsableVideoRow[];
  return rows.length === take ? rows : listPublicVideos(db, { followedBy: viewerId }, take);
}
