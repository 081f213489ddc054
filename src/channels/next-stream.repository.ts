// The creator's streams a channel-key publish may go to (next-stream.ts picks one). Each query
// reads one creator's streams in one state, newest first, and at most a page of them: a creator
// with more candidates than that has the newest considered.
import type { Db } from '../db/database.ts';

/** More candidates than a creator plausibly keeps open at once. */
const CANDIDATES = 50;

export interface Candidate {
  id: string;
  scheduled_at: number | null;
}

/** Live streams, latest started first. */
export async function liveStreamsOf(db: Db, creatorId: string): Promise<Candidate[]> {
  return db
    .selectFrom('streams')
    .select(['id', 'scheduled_at'])
    .where('creator_id', '=', creatorId)
    .where('status', '=', 'live')
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(CANDIDATES)
    .execute();
}

/**
 * Scheduled streams whose scheduled_at lies in [from, to], nearest to `from` first when
 * `order` is 'asc' (the future side of now), nearest to `to` first when 'desc' (the past side).
 */
export async function scheduledStreamsOf(
  db: Db,
  creatorId: string,
  range: { from: number; to: number; order: 'asc' | 'desc' },
): Promise<Candidate[]> {
  return db
    .selectFrom('streams')
    .select(['id', 'scheduled_at'])
    .where('creator_id', '=', creatorId)
    .where('status', '=', 'scheduled')
    .where('scheduled_at', '>=', range.from)
    .where('scheduled_at', '<=', range.to)
    .orderBy('scheduled_at', range.order)
    .orderBy('id', range.order)
    .limit(CANDIDATES)
    .execute();
}

/** Streams in standby (scheduled, without a scheduled_at), newest first. */
export async function standbyStreamsOf(db: Db, creatorId: string): Promise<Candidate[]> {
  return db
    .selectFrom('streams')
    .select(['id', 'scheduled_at'])
    .where('creator_id', '=', creatorId)
    .where('status', '=', 'scheduled')
    .where('scheduled_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(CANDIDATES)
    .execute();
}
