import type { Selectable } from 'kysely';

/**
 * A creator's channel stream key, never stored itself (like a stream's key, see
 * src/streams/stream-key-vault.ts): its keyed hash, which the ingest looks it up by, and its
 * copy sealed to the user id, for the creator to be shown.
 */
export interface ChannelKeyTable {
  user_id: string;
  key_hash: string;
  key_ciphertext: string;
  created_at: number;
  updated_at: number;
}

export type ChannelKeyRow = Selectable<ChannelKeyTable>;
