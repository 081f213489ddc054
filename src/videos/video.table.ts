import type { Insertable, Selectable } from 'kysely';
import type { Privacy } from '../streams/stream.table.ts';

export interface VideoTable {
  id: string;
  creator_id: string;
  title: string;
  description: string | null;
  category: string;
  duration_seconds: number;
  view_count: number;
  privacy: Privacy;
  source_stream_id: string | null;
  /** Null until the video is publicly available; lists show published videos only. */
  published_at: number | null;
  /** JSON array of { title, start_seconds }. */
  chapters: string;
  /** JSON array of strings. */
  tags: string;
  created_at: number;
  updated_at: number;
}

export type VideoRow = Selectable<VideoTable>;
export type NewVideoRow = Insertable<VideoTable>;
