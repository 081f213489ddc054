// The last steps every new video takes, whether it was recorded from a stream or imported
// from a file: its HLS media is assembled in a staging folder, a thumbnail is taken from the
// middle (a frame, or a waveform poster for audio only), the folder is renamed into place, and
// only then is the draft published (which emits video.published), so a webhook receiver can
// play playback_url as soon as it hears.
//
// The media is the video; the thumbnail is not. A thumbnail that cannot be made is tried a few
// times, each failure logged at error, and then the video is published without one (a
// recording is never dropped for its picture) and handed to the thumbnail backlog, which the
// ingest's upkeep tries again later (thumbnail-backlog.ts).
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { VideoService } from '../videos/video.service.ts';
import type { VideoRow } from '../videos/video.table.ts';
import { readPlaylist, segmentAt, totalDuration } from '../hls/hls-playlist.ts';
import { isMasterPlaylist, parseMasterPlaylist } from '../hls/master-playlist.ts';
import { PLAYLIST_FILE, THUMBNAIL_FILE, type MediaPaths } from './media-paths.ts';
import { makeThumbnail } from './poster.ts';
import { testFault } from '../shared/test-fault.ts';
import type { ThumbnailBacklog } from './thumbnail-backlog.ts';

export interface VideoMediaDeps {
  videos: VideoService;
  paths: MediaPaths;
  ffmpegPath: string;
  /** Hears the auxiliary steps that failed (a thumbnail); without it they fail silently. */
  logger?: Logger;
  /** Where a video published without its thumbnail is tried again later (the ingest's upkeep). */
  thumbnailBacklog?: ThumbnailBacklog;
}

/** Tries at making a video's thumbnail before it is published without one. */
export const THUMBNAIL_ATTEMPTS = 3;
const THUMBNAIL_RETRY_MS = 250;

/**
 * `stage` writes the video's playlist (PLAYLIST_FILE) and segments into the folder it is
 * given. On any failure of the media the draft and its files are removed and the error is
 * rethrown. `logContext` (a stream id) goes into the log lines of failed auxiliary steps.
 */
export async function publishVideoMedia(
  deps: VideoMediaDeps,
  draft: VideoRow,
  stage: (stagingDir: string) => Promise<void>,
  logContext: Record<string, string> = {},
): Promise<VideoRow> {
  const stagingDir = deps.paths.videoStagingDir(draft.id);
  const finalDir = deps.paths.videoDir(draft.id);
  try {
    // A draft finished after a crash may find the half-made folders of the first attempt.
    await fs.rm(stagingDir, { recursive: true, force: true });
    await fs.rm(finalDir, { recursive: true, force: true });
    await fs.mkdir(stagingDir, { recursive: true });
    await stage(stagingDir);
    const { segments } = await readPlaylist(path.join(stagingDir, await mediaPlaylistOf(stagingDir)));
    const duration = totalDuration(segments);
    const middle = segmentAt(segments, duration / 2);
    if (!middle) throw new Error('the packaged video has no segments');
    // Segments start on a keyframe; well inside the segment there is always a frame to take.
    const segmentFile = path.join(stagingDir, middle.segment.uri);
    const offset = Math.min(middle.offset, Math.max(0, middle.segment.duration - 1));
    const pictured = await thumbnailWithRetries(
      deps,
      segmentFile,
      path.join(stagingDir, THUMBNAIL_FILE),
      offset,
      {
        ...logContext,
        videoId: draft.id,
      },
    );
    await fs.mkdir(path.dirname(finalDir), { recursive: true });
    await fs.rename(stagingDir, finalDir);
    // The media is in place and the draft not yet published: where a crash hurts most.
    await testFault('pause-before-video-publish', deps.logger, { ...logContext, videoId: draft.id });
    const published = await deps.videos.publishDraft(draft.id, Math.round(duration), pictured);
    if (!pictured) deps.thumbnailBacklog?.add(draft.id, middle.segment.uri, offset, logContext);
    return published;
  } catch (error) {
    await fs.rm(stagingDir, { recursive: true, force: true });
    await fs.rm(finalDir, { recursive: true, force: true });
    await deps.videos.discardDraft(draft.id);
    throw error;
  }
}

/**
 * The playlist whose segments are the video's timeline: index.m3u8 itself, or, when it is a
 * master (a video with renditions), its first rendition's.
 */
async function mediaPlaylistOf(dir: string): Promise<string> {
  const text = await fs.readFile(path.join(dir, PLAYLIST_FILE), 'utf8');
  if (!isMasterPlaylist(text)) return PLAYLIST_FILE;
  const first = parseMasterPlaylist(text)[0];
  if (!first) throw new Error('the master playlist names no rendition');
  return first.uri;
}

async function thumbnailWithRetries(
  deps: VideoMediaDeps,
  segmentFile: string,
  output: string,
  offset: number,
  logContext: Record<string, string>,
): Promise<boolean> {
  for (let attempt = 1; attempt <= THUMBNAIL_ATTEMPTS; attempt++) {
    try {
      await makeThumbnail(deps.ffmpegPath, segmentFile, output, offset);
      return true;
    } catch (error) {
      const last = attempt === THUMBNAIL_ATTEMPTS;
      deps.logger?.error(
        { err: error, ...logContext, attempt, of: THUMBNAIL_ATTEMPTS },
        last
          ? 'video thumbnail failed; publishing the video without one'
          : 'video thumbnail failed; retrying',
      );
      if (!last) await new Promise((resolve) => setTimeout(resolve, THUMBNAIL_RETRY_MS * attempt));
    }
  }
  return false;
}
