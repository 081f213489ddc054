import { toIso } from '../shared/clock.ts';
import type { Upload } from './upload.schemas.ts';
import type { UploadRow } from './upload.table.ts';
import type { UploadUrls } from './upload-url.ts';

export function toUpload(row: UploadRow, urls: UploadUrls): Upload {
  const receiving = row.status === 'waiting' || row.status === 'uploading';
  return {
    id: row.id,
    status: row.status,
    upload_url: receiving ? urls.urlFor(row) : null,
    expires_at: toIso(row.expires_at),
    video_id: row.status === 'ready' ? row.video_id : null,
    size: row.size,
    bytes_received: row.received_bytes,
    progress: progressOf(row),
    error:
      row.error_code === null ? null : { code: row.error_code, message: row.error_message ?? row.error_code },
    title: row.title,
    creator_id: row.creator_id,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

function progressOf(row: UploadRow): number {
  switch (row.status) {
    case 'waiting':
    case 'uploading':
      return Math.floor((100 * row.received_bytes) / Math.max(1, row.size));
    case 'processing':
      return row.processing_percent;
    case 'ready':
      return 100;
    default:
      return 0;
  }
}
