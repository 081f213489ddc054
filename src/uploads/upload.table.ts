import type { Selectable } from 'kysely';
import type { Privacy } from '../streams/stream.table.ts';

/**
 * waiting (created, no bytes yet) -> uploading -> processing (every byte is in; a media job
 * makes the video) -> ready (the video is published). errored and cancelled are final.
 */
export const UPLOAD_STATUSES = [
  'waiting',
  'uploading',
  'processing',
  'ready',
  'errored',
  'cancelled',
] as const;
export type UploadStatus = (typeof UPLOAD_STATUSES)[number];

export interface UploadTable {
  id: string;
  creator_id: string;
  status: UploadStatus;
  /** Bytes the client declared at creation; the tus resource accepts exactly this many. */
  size: number;
  /** Bytes on disk as last reported by the tus endpoint (about once a second while sending). */
  received_bytes: number;
  /** 0 to 100 while processing; 100 once ready. */
  processing_percent: number;
  // The video's details, given at creation and applied when the video is made.
  title: string;
  description: string | null;
  category: string;
  privacy: Privacy;
  /** JSON array of strings. */
  tags: string;
  /** JSON array of { title, start_seconds }. */
  chapters: string;
  /** The video made from this upload: its draft while processing, then the published video. */
  video_id: string | null;
  error_code: string | null;
  error_message: string | null;
  /** After this the upload URL is refused and unfinished bytes are removed. */
  expires_at: number;
  created_at: number;
  updated_at: number;
}

export type UploadRow = Selectable<UploadTable>;

/** The operator's per-account storage quota (null: UPLOAD_QUOTA_BYTES applies). */
export interface StorageQuotaColumns {
  storage_quota_bytes: number | null;
}
