// The chat tables' queries.
import type { Db } from '../db/database.ts';
import type { KeysetPosition } from '../db/keyset.ts';
import type {
  ChatMessageRow,
  ChatModerationActionRow,
  ChatRestrictionRow,
  ChatRoomRow,
  ChatMessageTable,
} from './chat.table.ts';
import type { Insertable } from 'kysely';

export const DEFAULT_ROOM = { slow_mode_seconds: 0, followers_only: 0, max_length: 500 } as const;

export async function findRoom(db: Db, streamId: string): Promise<ChatRoomRow | undefined> {
  return db.selectFrom('chat_rooms').selectAll().where('stream_id', '=', streamId).executeTakeFirst();
}

export async function ensureRoom(db: Db, streamId: string, now: number): Promise<void> {
  await db
    .insertInto('chat_rooms')
    .values({ stream_id: streamId, last_seq: 0, ...DEFAULT_ROOM, updated_at: now })
    .onConflict((oc) => oc.column('stream_id').doNothing())
    .execute();
}

/**
 * Takes the room's next sequence number. The update holds the room's row lock until the
 * transaction commits, so messages commit in the order of their numbers on every process.
 */
export async function nextSeq(trx: Db, streamId: string): Promise<number> {
  const row = await trx
    .updateTable('chat_rooms')
    .set((eb) => ({ last_seq: eb('last_seq', '+', 1) }))
    .where('stream_id', '=', streamId)
    .returning('last_seq')
    .executeTakeFirstOrThrow();
  return row.last_seq;
}

export async function updateRoom(
  db: Db,
  streamId: string,
  changes: Partial<Pick<ChatRoomRow, 'slow_mode_seconds' | 'followers_only' | 'max_length'>>,
  now: number,
): Promise<ChatRoomRow> {
  return db
    .updateTable('chat_rooms')
    .set({ ...changes, updated_at: now })
    .where('stream_id', '=', streamId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertMessage(trx: Db, row: Insertable<ChatMessageTable>): Promise<void> {
  await trx.insertInto('chat_messages').values(row).execute();
}

export async function findMessage(db: Db, streamId: string, id: string): Promise<ChatMessageRow | undefined> {
  return db
    .selectFrom('chat_messages')
    .selectAll()
    .where('stream_id', '=', streamId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Messages after `afterSeq` (oldest first), deleted ones left out; at most `take`. */
export async function messagesAfter(
  db: Db,
  streamId: string,
  afterSeq: number,
  take: number,
  upToSeq?: number,
): Promise<ChatMessageRow[]> {
  let query = db
    .selectFrom('chat_messages')
    .selectAll()
    .where('stream_id', '=', streamId)
    .where('seq', '>', afterSeq)
    .where('deleted_at', 'is', null);
  if (upToSeq !== undefined) query = query.where('seq', '<=', upToSeq);
  return query.orderBy('seq', 'asc').limit(take).execute();
}

/** The newest `take` messages, oldest first (a late viewer's history). */
export async function latestMessages(db: Db, streamId: string, take: number): Promise<ChatMessageRow[]> {
  const rows = await db
    .selectFrom('chat_messages')
    .selectAll()
    .where('stream_id', '=', streamId)
    .where('deleted_at', 'is', null)
    .orderBy('seq', 'desc')
    .limit(take)
    .execute();
  return rows.reverse();
}

/** Ids of messages after `afterSeq` that were deleted (a resuming client removes them). */
export async function deletedAfter(
  db: Db,
  streamId: string,
  afterSeq: number,
  take: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('chat_messages')
    .select('id')
    .where('stream_id', '=', streamId)
    .where('seq', '>', afterSeq)
    .where('deleted_at', 'is not', null)
    .orderBy('seq', 'desc')
    .limit(take)
    .execute();
  return rows.map((row) => row.id);
}

/** A page of the API's list: oldest first by sequence number, after the cursor's. */
export async function listMessages(
  db: Db,
  streamId: string,
  after: KeysetPosition | undefined,
  take: number,
): Promise<ChatMessageRow[]> {
  let query = db
    .selectFrom('chat_messages')
    .selectAll()
    .where('stream_id', '=', streamId)
    .where('deleted_at', 'is', null);
  if (after) query = query.where('seq', '>', after.sortKey);
  return query.orderBy('seq', 'asc').limit(take).execute();
}

export async function markDeleted(db: Db, id: string, by: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('chat_messages')
    .set({ deleted_at: now, deleted_by: by })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function lastMessageAt(db: Db, streamId: string, userId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('chat_messages')
    .select('created_at')
    .where('stream_id', '=', streamId)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.created_at;
}

export async function isModerator(db: Db, channelId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('chat_moderators')
    .select('user_id')
    .where('channel_id', '=', channelId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/** A user as a channel's chat sees them, in one read: their name, ban or timeout, and moderator. */
export interface ChatStanding {
  name: string;
  restriction: Pick<ChatRestrictionRow, 'kind' | 'until'> | undefined;
  moderator: boolean;
}

export async function findStanding(
  db: Db,
  channelId: string,
  userId: string,
): Promise<ChatStanding | undefined> {
  const row = await db
    .selectFrom('users')
    .leftJoin('chat_restrictions as r', (join) =>
      join.onRef('r.user_id', '=', 'users.id').on('r.channel_id', '=', channelId),
    )
    .leftJoin('chat_moderators as m', (join) =>
      join.onRef('m.user_id', '=', 'users.id').on('m.channel_id', '=', channelId),
    )
    .select(['users.name', 'r.kind', 'r.until', 'm.user_id as moderator_id'])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  return {
    name: row.name,
    restriction: row.kind === null ? undefined : { kind: row.kind, until: row.until },
    moderator: row.moderator_id !== null,
  };
}

export async function listModerators(db: Db, channelId: string): Promise<{ id: string; name: string }[]> {
  return db
    .selectFrom('chat_moderators')
    .innerJoin('users', 'users.id', 'chat_moderators.user_id')
    .select(['users.id', 'users.name'])
    .where('chat_moderators.channel_id', '=', channelId)
    .orderBy('users.name')
    .execute();
}

export async function addModerator(db: Db, channelId: string, userId: string, now: number): Promise<boolean> {
  const result = await db
    .insertInto('chat_moderators')
    .values({ channel_id: channelId, user_id: userId, created_at: now })
    .onConflict((oc) => oc.columns(['channel_id', 'user_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function removeModerator(db: Db, channelId: string, userId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('chat_moderators')
    .where('channel_id', '=', channelId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function findRestriction(
  db: Db,
  channelId: string,
  userId: string,
): Promise<ChatRestrictionRow | undefined> {
  return db
    .selectFrom('chat_restrictions')
    .selectAll()
    .where('channel_id', '=', channelId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function putRestriction(db: Db, row: ChatRestrictionRow): Promise<void> {
  await db
    .insertInto('chat_restrictions')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['channel_id', 'user_id']).doUpdateSet({
        kind: row.kind,
        until: row.until,
        reason: row.reason,
        created_by: row.created_by,
        created_at: row.created_at,
      }),
    )
    .execute();
}

export async function removeRestriction(db: Db, channelId: string, userId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('chat_restrictions')
    .where('channel_id', '=', channelId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function activeRestrictions(
  db: Db,
  channelId: string,
  now: number,
): Promise<(ChatRestrictionRow & { name: string })[]> {
  return db
    .selectFrom('chat_restrictions')
    .innerJoin('users', 'users.id', 'chat_restrictions.user_id')
    .selectAll('chat_restrictions')
    .select('users.name')
    .where('chat_restrictions.channel_id', '=', channelId)
    .where((eb) => eb.or([eb('until', 'is', null), eb('until', '>', now)]))
    .orderBy('chat_restrictions.created_at', 'desc')
    .execute();
}

export async function blockedWords(db: Db, channelId: string): Promise<string[]> {
  const row = await db
    .selectFrom('chat_channels')
    .select('blocked_words')
    .where('channel_id', '=', channelId)
    .executeTakeFirst();
  return row === undefined ? [] : (JSON.parse(row.blocked_words) as string[]);
}

export async function setBlockedWords(
  db: Db,
  channelId: string,
  words: string[],
  now: number,
): Promise<void> {
  const blocked = JSON.stringify(words);
  await db
    .insertInto('chat_channels')
    .values({ channel_id: channelId, blocked_words: blocked, updated_at: now })
    .onConflict((oc) => oc.column('channel_id').doUpdateSet({ blocked_words: blocked, updated_at: now }))
    .execute();
}

export async function recordAction(db: Db, row: ChatModerationActionRow): Promise<void> {
  await db.insertInto('chat_moderation_actions').values(row).execute();
}

export async function recentActions(
  db: Db,
  channelId: string,
  take: number,
): Promise<(ChatModerationActionRow & { actor_name: string | null; target_name: string | null })[]> {
  return db
    .selectFrom('chat_moderation_actions as a')
    .leftJoin('users as actor', 'actor.id', 'a.actor_id')
    .leftJoin('users as target', 'target.id', 'a.target_user_id')
    .selectAll('a')
    .select(['actor.name as actor_name', 'target.name as target_name'])
    .where('a.channel_id', '=', channelId)
    .orderBy('a.created_at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(take)
    .execute();
}

export async function isFollower(db: Db, viewerId: string, creatorId: string): Promise<boolean> {
  const row = await db
    .selectFrom('subscriptions')
    .select('id')
    .where('viewer_id', '=', viewerId)
    .where('creator_id', '=', creatorId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return row !== undefined;
}

export interface ChatStream {
  id: string;
  creator_id: string;
  status: 'scheduled' | 'live' | 'ended';
  started_at: number | null;
}

export async function findStream(db: Db, streamId: string): Promise<ChatStream | undefined> {
  const row = await db
    .selectFrom('streams')
    .select(['id', 'creator_id', 'status', 'started_at'])
    .where('id', '=', streamId)
    .executeTakeFirst();
  return row === undefined ? undefined : { ...row, started_at: row.started_at };
}

export async function findUserName(db: Db, userId: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('name').where('id', '=', userId).executeTakeFirst();
  return row?.name;
}

/** The stream a video was recorded from, when it was. */
export async function sourceStreamOf(
  db: Db,
  videoId: string,
): Promise<{ streamId: string | null } | undefined> {
  const row = await db
    .selectFrom('videos')
    .select('source_stream_id')
    .where('id', '=', videoId)
    .executeTakeFirst();
  return row === undefined ? undefined : { streamId: row.source_stream_id };
}
