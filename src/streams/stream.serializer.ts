import { toIso } from '../shared/clock.ts';
import type { PublicUrls } from '../shared/public-urls.ts';
import type { IngestHealth } from './ingest-health.schemas.ts';
import type { StreamDetail, StreamListItem } from './stream.schemas.ts';
import type { StreamListRow } from './stream.repository.ts';
import type { StreamRow } from './stream.table.ts';

export function toStreamListItem(row: StreamListRow, urls: PublicUrls): StreamListItem {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    status: row.status,
    category: row.category as StreamListItem['category'],
    privacy: row.privacy,
    creator_id: row.creator_id,
    viewer_count: row.status === 'live' ? (row.viewer_count ?? 0) : null,
    started_at: toIso(row.started_at),
    scheduled_at: toIso(row.scheduled_at),
    thumbnail_url: row.thumbnail_at === null ? null : urls.streamThumbnail(row.id, row.thumbnail_at),
    stream_url: urls.streamPage(row.id),
    created_at: toIso(row.created_at),
    latency_mode: row.latency_mode,
  };
}

/**
 * The detail object; `streamKey` is passed only to the stream's creator, with a write-scoped
 * key, and `health` (the ingest's measurement) goes with it.
 */
export function toStreamDetail(
  row: StreamRow,
  urls: PublicUrls,
  streamKey?: string,
  health: IngestHealth | null = null,
): StreamDetail {
  return {
    ...toStreamListItem(row, urls),
    peak_viewer_count: row.peak_viewer_count,
    ended_at: toIso(row.ended_at),
    updated_at: toIso(row.updated_at),
    ...(streamKey === undefined
      ? {}
      : { ingest: { rtmp_url: urls.rtmpIngest, stream_key: streamKey, health } }),
  };
}
