// The home page's following feed (CatalogueService.following): the newest public videos and
// the most watched public live streams of the creators a viewer has an active subscription to.
// The candidates come from an index alone (videos_by_creator_id: creator, publication time,
// id; streams_by_creator_status: creator, status, viewer count, id, 2026-11-26-105), a few
// per row shown, and only they are read and checked (public, not hidden by moderation); the
// outer query walks them in order and stops at the page, without sorting rows. The listing's
// own query (followedBy) reads every video or live stream of every followed creator to sort
// them: about 1,000 videos for 20 creators, 0.4 ms. When the candidates leave fewer rows than
// asked (few items, or private and hidden ones among them), that query answers instead.
import { sql } from 'kysely';
import { streamShown, videoShown } from '../accounts/standing.ts';
import { compiledQuery, literalLimit } from '../db/compiled-query.ts';
import type { Db } from '../db/database.ts';
import { listLiveStreams, type BrowsableStreamRow } from '../streams/stream-listing.repository.ts';
import { listPublicVideos, type BrowsableVideoRow } from '../videos/video-listing.repository.ts';

/** How many candidates a feed takes from the index for each row it shows. */
export const CANDIDATES_PER_ROW = 2;

type Limits = { take: number; candidates: number };

const STREAM_COLUMNS = [
  'streams.id',
  'streams.creator_id',
  'streams.title',
  'streams.category',
  'streams.viewer_count',
  'streams.started_at',
  'streams.scheduled_at',
  'streams.thumbnail_at',
] as const;

const VIDEO_COLUMNS = [
  'videos.id',
  'videos.creator_id',
  'videos.title',
  'videos.category',
  'videos.duration_seconds',
  'videos.view_count',
  'videos.published_at',
] as const;

const followedLiveQuery = compiledQuery(
  (db, filter: { viewerId: string }, { take, candidates }: Limits) =>
    db
      .with('candidates', (db) =>
        db
          .selectFrom('subscriptions')
          .innerJoin('streams', 'streams.creator_id', 'subscriptions.creator_id')
          .select(['streams.id', 'streams.viewer_count'])
          .where('subscriptions.viewer_id', '=', filter.viewerId)
          .where('subscriptions.status', '=', sql.lit('active'))
          .where('streams.status', '=', sql.lit('live'))
          .orderBy('streams.viewer_count', 'desc')
          .orderBy('streams.id', 'desc')
          .limit(literalLimit(candidates)),
      )
      .selectFrom('candidates')
      .innerJoin('streams', 'streams.id', 'candidates.id')
      .innerJoin('users', 'users.id', 'streams.creator_id')
      .select(STREAM_COLUMNS)
      .select('users.name as creator_name')
      .where('streams.privacy', '=', sql.lit('public'))
      .where(streamShown())
      .orderBy('candidates.viewer_count', 'desc')
      .orderBy('candidates.id', 'desc')
      .limit(literalLimit(take)),
  { mapped: true },
);

/** The followed creators' public live streams, most watched first. */
export async function listFollowedLiveStreams(
  db: Db,
  viewerId: string,
  take: number,
): Promise<BrowsableStreamRow[]> {
  const rows = await followedLiveQuery.execute(
    db,
    { viewerId },
    { take, candidates: take * CANDIDATES_PER_ROW },
  );
  return rows.length === take ? rows : listLiveStreams(db, { followedBy: viewerId }, take);
}

const followedVideosQuery = compiledQuery(
  (db, filter: { viewerId: string }, { take, candidates }: Limits) =>
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
      .select(VIDEO_COLUMNS)
      .select(['users.name as creator_name', 'videos.thumbnail_at'])
      .where('videos.privacy', '=', sql.lit('public'))
      .where(videoShown())
      .orderBy('candidates.published_at', 'desc')
      .orderBy('candidates.id', 'desc')
      .limit(literalLimit(take)),
  { mapped: true },
);

/** The followed creators' newest public videos. */
export async function listFollowedVideos(
  db: Db,
  viewerId: string,
  take: number,
): Promise<BrowsableVideoRow[]> {
  const rows = await followedVideosQuery.execute(
    db,
    { viewerId },
    { take, candidates: take * CANDIDATES_PER_ROW },
  );
  return rows.length === take
    ? (rows as BrowsableVideoRow[])
    : listPublicVideos(db, { followedBy: viewerId }, take);
}
