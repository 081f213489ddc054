import type { ColumnType, Insertable, Selectable } from 'kysely';

export type StreamStatus = 'scheduled' | 'live' | 'ended';
export type Privacy = 'public' | 'private';
/** How close to live viewers sit: `low` packages 1 s segments and tunes the player for the edge. */
export type LatencyMode = 'normal' | 'low' | 'realtime';

export interface StreamTable {
  id: string;
  creator_id: string;
  title: string;
  description: string | null;
  status: StreamStatus;
  category: string;
  privacy: Privacy;
  viewer_count: number | null;
  peak_viewer_count: number | null;
  started_at: number | null;
  scheduled_at: number | null;
  ended_at: number | null;
  /** When the current thumbnail was taken; null while there is none. */
  thumbnail_at: number | null;
  created_at: number;
  updated_at: number;
  /**
   * The stream key, never stored itself (stream-key-vault.ts): its keyed hash, which the ingest
   * looks it up by, and its sealed copy for the creator. Null only on a row from an older
   * version whose key waits in legacy_stream_keys for the start-up conversion.
   */
  stream_key_hash: string | null;
  stream_key_ciphertext: string | null;
  /** The version a derived key was issued at (null for a sealed one); not a secret. */
  stream_key_version: ColumnType<number | null, number | null | undefined, number | null>;
  /**
   * For a derived key: a tag of the master secret it was derived under (not a secret; null on
   * rows from before 2026-11-26-085, and for sealed keys).
   */
  stream_key_secret_tag: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1 when the recording becomes a video at the end (0/1 for both dialects). */
  record: number;
  /** The column defaults to `normal`, so rows written without it (seeds, older code) are normal. */
  latency_mode: ColumnType<LatencyMode, LatencyMode | undefined, LatencyMode>;
}

/** A stream as the API and events see it: everything but the secret stream key's forms. */
export type StreamRow = Omit<
  Selectable<StreamTable>,
  'stream_key_hash' | 'stream_key_ciphertext' | 'stream_key_version' | 'stream_key_secret_tag'
>;
export type NewStreamRow = Insertable<StreamTable>;
