// The last steps every new video takes, whether it was recorded from a stream or imported
// from a file: its HLS media is assembled in a staging folder, a thumbnail is taken from the
// middle, the folder is renamed into place, and only then is the draft published (which
// emits video.published), so a webhook receiver can play playback_url as soon as it hears.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { VideoService } from '../videos/video.service.ts';
import type { VideoRow } from '../videos/video.table.ts';
import { captureFrame } from './ffmpeg.ts';
import { readPlaylist, segmentAt, totalDuration } from './hls-playlist.ts';
import { PLAYLIST_FILE, THUMBNAIL_FILE, type MediaPaths } from './media-paths.ts';

export interface VideoMediaDeps {
  videos: VideoService;
  paths: MediaPaths;
  ffmpegPath: string;
}

/**
 * `stage` writes the video's playlist (PLAYLIST_FILE) and segments into the folder it is
 * given. On any failure the draft and its files are removed and the error is rethrown.
 */
export async function publishVideoMedia(
  deps: VideoMediaDeps,
  draft: VideoRow,
  stage: (stagingDir: string) => Promise<void>,
): Promise<VideoRow> {
  const stagingDir = deps.paths.videoStagingDir(draft.id);
  const finalDir = deps.paths.videoDir(draft.id);
  try {
    await fs.mkdir(stagingDir, { recursive: true });
    await stage(stagingDir);
    const { segments } = await readPlaylist(path.join(stagingDir, PLAYLIST_FILE));
    const duration = totalDuration(segments);
    const middle = segmentAt(segments, duration / 2);
    if (!middle) throw new Error('the packaged video has no segments');
    // Segments start on a keyframe; well inside the segment there is always a frame to take.
    const segmentFile = path.join(stagingDir, middle.segment.uri);
    const thumbnail = path.join(stagingDir, THUMBNAIL_FILE);
    const offset = Math.min(middle.offset, Math.max(0, middle.segment.duration - 1));
    // No frame at that offset (a segment shorter than its EXTINF) is expected now and then:
    // the segment's first frame, a keyframe, always decodes; its failure is the one reported.
    await captureFrame(deps.ffmpegPath, segmentFile, thumbnail, offset).catch(() =>
      captureFrame(deps.ffmpegPath, segmentFile, thumbnail, 0),
    );
    await fs.mkdir(path.dirname(finalDir), { recursive: true });
    await fs.rename(stagingDir, finalDir);
    return await deps.videos.publishDraft(draft.id, Math.round(duration));
  } catch (error) {
    await fs.rm(stagingDir, { recursive: true, force: true });
    await fs.rm(finalDir, { recursive: true, force: true });
    await deps.videos.discardDraft(draft.id);
    throw error;
  }
}
