import type { Selectable } from 'kysely';

/**
 * idle (never sent, or not since it was added) -> connecting -> live, or failing (with the
 * reason; retried with back-off) -> stopped when the publish ends. The next publish starts at
 * connecting again.
 */
export const SIMULCAST_STATES = ['idle', 'connecting', 'live', 'failing', 'stopped'] as const;
export type SimulcastState = (typeof SIMULCAST_STATES)[number];

export interface SimulcastTargetTable {
  id: string;
  creator_id: string;
  /** The stream it belongs to; null for one of the creator's channel defaults. */
  stream_id: string | null;
  /** The creator's label ("YouTube"), or null. */
  name: string | null;
  /** The destination's server URL, rtmp:// or rtmps://, without the key. */
  url: string;
  /** The destination's stream key, sealed (AES-256-GCM) and bound to this row's id. */
  key_ciphertext: string;
  /** The key's last characters, so the creator can tell keys apart. */
  key_hint: string;
  /** 1 when the stream is sent there (0/1 for both dialects). */
  enabled: number;
  state: SimulcastState;
  /** Why it is failing (never the key); null in other states. */
  state_reason: string | null;
  state_changed_at: number;
  created_at: number;
  updated_at: number;
}

export type SimulcastTargetRow = Selectable<SimulcastTargetTable>;
