import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
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
  /**
   * Where its media is: `local` (DATA_DIR/media/videos/<id>/) or `object` (the object store,
   * under videos/<id>/; MEDIA_STORAGE=s3, once the video.store job moved it there).
   */
  media_location: Generated<MediaLocation>;
  /** When its thumbnail was made; null while it has none (cards show a placeholder). */
  thumbnail_at: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: number;
  updated_at: number;
}

export type MediaLocation = 'local' | 'object';

/**
 * A video as the API knows it; where its media is (media_location) and whether its thumbnail
 * was made (thumbnail_at, for the pages' cards) are read on their own.
 */
export type VideoRow = Omit<Selectable<VideoTable>, 'media_location' | 'thumbnail_at'>;
export type NewVideoRow = Insertable<VideoTable>;
