import type { Selectable } from 'kysely';

/** Which ingest process holds a live stream (src/ingest/stream-leases.ts). */
export interface StreamLeaseTable {
  stream_id: string;
  /** The holding ingest process's id (INGEST_ID, or the one kept in its data folder). */
  holder: string;
  /** Where the holder serves the stream's media (INGEST_ORIGIN_URL), for the origin to stream through. */
  origin_url: string | null;
  /** 1 while the holder waits for the encoder to reconnect (any process may take the stream then). */
  waiting: number;
  /** Epoch ms after which any other ingest process may take the stream over. */
  expires_at: number;
  acquired_at: number;
  /**
   * The encoder's health (`ingest.health`, JSON) as the holder last measured it, written with
   * each renewal by holders other API processes reach (INGEST_ORIGIN_URL); null otherwise.
   */
  health: string | null;
}

export type StreamLeaseRow = Selectable<StreamLeaseTable>;
