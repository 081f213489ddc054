import type { Insertable, Selectable } from 'kysely';

export type StreamStatus = 'scheduled' | 'live' | 'ended';
export type Privacy = 'public' | 'private';

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
  stream_key: string;
  /** 1 when the recording becomes a video at the end (0/1 for both dialects). */
  record: number;
}

/** A stream as the API and events see it: everything but the secret stream key. */
export type StreamRow = Omit<Selectable<StreamTable>, 'stream_key'>;
export type NewStreamRow = Insertable<StreamTable>;
