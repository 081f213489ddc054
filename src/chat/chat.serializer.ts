// A chat message and a room's settings as the API, the socket and webhooks show them.
import { toIso } from '../shared/clock.ts';
import type { ChatMessageRow, ChatRole, ChatRoomRow } from './chat.table.ts';

export interface ChatMessage {
  id: string;
  stream_id: string;
  seq: number;
  author: { id: string; name: string; role: ChatRole };
  text: string;
  created_at: string;
  offset_ms: number | null;
}

export interface ChatSettings {
  slow_mode_seconds: number;
  followers_only: boolean;
  max_length: number;
}

export function toChatMessage(row: ChatMessageRow): ChatMessage {
  return {
    id: row.id,
    stream_id: row.stream_id,
    seq: row.seq,
    author: { id: row.user_id, name: row.author_name, role: row.author_role },
    text: row.text,
    created_at: toIso(row.created_at),
    offset_ms: row.offset_ms,
  };
}

export function toChatSettings(
  room: Pick<ChatRoomRow, 'slow_mode_seconds' | 'followers_only' | 'max_length'>,
): ChatSettings {
  return {
    slow_mode_seconds: room.slow_mode_seconds,
    followers_only: room.followers_only === 1,
    max_length: room.max_length,
  };
}
