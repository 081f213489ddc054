import { toIso } from '../shared/clock.ts';
import type { PublicUrls } from '../shared/public-urls.ts';
import type { Chapter, VideoDetail, VideoListItem } from './video.schemas.ts';
import type { VideoListRow } from './video.repository.ts';
import type { VideoRow } from './video.table.ts';

export function toVideoListItem(row: VideoListRow, urls: PublicUrls): VideoListItem {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: row.category as VideoListItem['category'],
    creator_id: row.creator_id,
    duration_seconds: row.duration_seconds,
    view_count: row.view_count,
    privacy: row.privacy,
    thumbnail_url: urls.videoThumbnail(row.id),
    video_url: urls.videoPage(row.id),
    source_stream_id: row.source_stream_id,
    // Only published videos are served; created_at stands in for a video still processing.
    published_at: toIso(row.published_at ?? row.created_at),
    created_at: toIso(row.created_at),
  };
}

export function toVideoDetail(row: VideoRow, urls: PublicUrls): VideoDetail {
  return {
    ...toVideoListItem(row, urls),
    playback_url: urls.videoPlayback(row.id),
    chapters: JSON.parse(row.chapters) as Chapter[],
    tags: JSON.parse(row.tags) as string[],
    updated_at: toIso(row.updated_at),
  };
}
