// The streams anyone may browse (home and channel pages): public only, whoever asks, because
// private means unlisted (decisions.md). The API's own lists live in stream.repository.ts.
import { sql } from 'kysely';
import { compiledQuery, literalLimit } from '../db/compiled-query.ts';
import type { Db } from '../db/database.ts';
import { streamShown } from '../accounts/standing.ts';
import type { StreamRow } from './stream.table.ts';

const BROWSE_COLUMNS = [
  'id',
  'creator_id',
  'title',
  'category',
  'viewer_count',
  'started_at',
  'scheduled_at',
  'thumbnail_at',
] as const;

export type BrowsableStreamRow = Pick<StreamRow, (typeof BROWSE_COLUMNS)[number]> & { creator_name: string };

export interface BrowseFilter {
  creatorId?: string | undefined;
  category?: string | undefined;
  /** Only the creators this viewer has an active subscription to (the home page's feed). */
  followedBy?: string | undefined;
}

const liveQuery = compiledQuery((db, filter: BrowseFilter, { take }: { take: number }) => {
  let query = db
    .selectFrom('streams')
    .innerJoin('users', 'users.id', 'streams.creator_id')
    .select(BROWSE_COLUMNS.map((column) => `streams.${column}` as const))
    .select('users.name as creator_name')
    .where('streams.status', '=', sql.lit('live'))
    .where('streams.privacy', '=', sql.lit('public'))
    .where(streamShown());
  if (filter.category !== undefined) query = query.where('streams.category', '=', filter.category);
  // One creator's few streams, or those of the creators a viewer follows, are sorted by
  // audience; across the platform the newest come first, walking an index, because sorting
  // every live stream by audience is a full scan.
  if (filter.followedBy !== undefined) {
    const followedBy = filter.followedBy;
    return query
      .where('streams.creator_id', 'in', followedCreators(db, followedBy))
      .orderBy('streams.viewer_count', 'desc')
      .orderBy('streams.id', 'desc')
      .limit(literalLimit(take));
  }
  if (filter.creatorId !== undefined) {
    return query
      .where('streams.creator_id', '=', filter.creatorId)
      .orderBy('streams.viewer_count', 'desc')
      .orderBy('streams.id', 'desc')
      .limit(literalLimit(take));
  }
  return query.orderBy('streams.created_at', 'desc').orderBy('streams.id', 'desc').limit(literalLimit(take));
});

/** The creators a viewer has an active subscription to, as a subquery. */
export function followedCreators(db: Db, viewerId: string) {
  return db
    .selectFrom('subscriptions')
    .select('subscriptions.creator_id')
    .where('subscriptions.viewer_id', '=', viewerId)
    .where('subscriptions.status', '=', sql.lit('active'));
}

/** Public live streams: a channel's or a viewer's follows' most watched first, the platform's newest first. */
export async function listLiveStreams(
  db: Db,
  filter: BrowseFilter,
  take: number,
): Promise<BrowsableStreamRow[]> {
  return liveQuery.execute(db, filter, { take });
}

const upcomingQuery = compiledQuery(
  (db, filter: BrowseFilter & { from: number }, { take }: { take: number }) => {
    let query = db
      .selectFrom('streams')
      .innerJoin('users', 'users.id', 'streams.creator_id')
      .select(BROWSE_COLUMNS.map((column) => `streams.${column}` as const))
      .select('users.name as creator_name')
      .where('streams.status', '=', sql.lit('scheduled'))
      .where('streams.privacy', '=', sql.lit('public'))
      .where('streams.scheduled_at', '>=', filter.from)
      .where(streamShown());
    if (filter.category !== undefined) query = query.where('streams.category', '=', filter.category);
    // As for live streams: a channel's are few and sorted by time; the platform's most recently
    // announced are taken walking an index (the caller shows them by time).
    if (filter.creatorId !== undefined) {
      return query
        .where('streams.creator_id', '=', filter.creatorId)
        .orderBy('streams.scheduled_at', 'asc')
        .orderBy('streams.id', 'asc')
        .limit(literalLimit(take));
    }
    return query
      .orderBy('streams.created_at', 'desc')
      .orderBy('streams.id', 'desc')
      .limit(literalLimit(take));
  },
);

/**
 * Public streams scheduled from `from` on: a channel's soonest, the platform's most recently
 * announced. Standby streams (no time) are not upcoming: nobody knows when they start.
 */
export async function listUpcomingStreams(
  db: Db,
  filter: BrowseFilter,
  from: number,
  take: number,
): Promise<BrowsableStreamRow[]> {
  return upcomingQuery.execute(db, { ...filter, from }, { take });
}
