import type { Selectable } from 'kysely';

/** How an author stood in the room when they wrote: shown beside their name. */
export type ChatRole = 'creator' | 'moderator' | 'viewer';
export type RestrictionKind = 'ban' | 'timeout';
export type ModerationAction =
  | 'message.deleted'
  | 'user.timed_out'
  | 'user.banned'
  | 'user.unbanned'
  | 'moderator.added'
  | 'moderator.removed'
  | 'settings.updated'
  | 'blocked_words.updated';

export interface ChatRoomTable {
  stream_id: string;
  /** The sequence number of the room's last message: each new one takes the next. */
  last_seq: number;
  /** Slow mode: seconds a user waits between messages; 0 when off. */
  slow_mode_seconds: number;
  /** 1 when only the creator's subscribers (and the creator and moderators) may post. */
  followers_only: number;
  /** Characters a message may have. */
  max_length: number;
  updated_at: number;
}

export interface ChatMessageTable {
  id: string;
  stream_id: string;
  seq: number;
  user_id: string;
  author_name: string;
  author_role: ChatRole;
  text: string;
  created_at: number;
  /** Milliseconds after the stream started (for the replay beside its recording); null before. */
  offset_ms: number | null;
  deleted_at: number | null;
  deleted_by: string | null;
}

export interface ChatModeratorTable {
  channel_id: string;
  user_id: string;
  created_at: number;
}

export interface ChatRestrictionTable {
  channel_id: string;
  user_id: string;
  kind: RestrictionKind;
  /** When a timeout ends; null for a ban. */
  until: number | null;
  reason: string | null;
  created_by: string;
  created_at: number;
}

export interface ChatChannelTable {
  channel_id: string;
  /** JSON array of lower-case words and phrases. */
  blocked_words: string;
  updated_at: number;
}

export interface ChatModerationActionTable {
  id: string;
  channel_id: string;
  stream_id: string | null;
  actor_id: string;
  action: ModerationAction;
  target_user_id: string | null;
  message_id: string | null;
  detail: string | null;
  created_at: number;
}

export type ChatRoomRow = Selectable<ChatRoomTable>;
export type ChatMessageRow = Selectable<ChatMessageTable>;
export type ChatRestrictionRow = Selectable<ChatRestrictionTable>;
export type ChatModerationActionRow = Selectable<ChatModerationActionTable>;
