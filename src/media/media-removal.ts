// Removing a stream's or a video's files when the resource itself is deleted. Each is one
// function, so whatever later keeps more files per resource (an upload's original, say) adds
// its folder here and every deletion path removes it too.
import fs from 'node:fs/promises';
import type { MediaPaths } from './media-paths.ts';

/**
 * The video's HLS media and thumbnail, anything half-assembled for it in staging, and the
 * original it was made from when it was uploaded.
 */
export async function removeVideoMedia(paths: MediaPaths, videoId: string): Promise<void> {
  await Promise.all([
    removeFolder(paths.videoDir(videoId)),
    removeFolder(paths.videoStagingDir(videoId)),
    fs.rm(paths.videoOriginal(videoId), { force: true }),
  ]);
}

/**
 * A stream's live folder: its publishes' segments, playlists and thumbnail. A video recorded
 * from it keeps playing: its segments were hard-linked (or copied) into the video's own folder.
 */
export async function removeStreamMedia(paths: MediaPaths, streamId: string): Promise<void> {
  await removeFolder(paths.streamDir(streamId));
}

async function removeFolder(dir: string): Promise<void> {
  // force: a resource that never had media has no folder; retries ride out a busy file system.
  await fs.rm(dir, { recursive: true, force: true, maxRetries: 3 });
}
