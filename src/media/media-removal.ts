// Removing a stream's or a video's files when the resource itself is deleted. The services that
// delete them are handed one MediaRemoval by the composition root (they import only its type,
// so streams/ and videos/ do not depend on media/, which reads them to serve watch pages), and
// whatever later keeps more files per resource adds them here, for every deletion path.
import fs from 'node:fs/promises';
import type { MediaPaths } from './media-paths.ts';

export class MediaRemoval {
  private readonly paths: MediaPaths;

  constructor(paths: MediaPaths) {
    this.paths = paths;
  }

  /**
   * The video's HLS media and thumbnail, anything half-assembled for it in staging, and the
   * original it was made from when it was uploaded.
   */
  async removeVideo(videoId: string): Promise<void> {
    await Promise.all([
      removeFolder(this.paths.videoDir(videoId)),
      removeFolder(this.paths.videoStagingDir(videoId)),
      fs.rm(this.paths.videoOriginal(videoId), { force: true }),
    ]);
  }

  /**
   * A stream's live folder: its publishes' segments, playlists and thumbnail. A video recorded
   * from it keeps playing: its segments were hard-linked (or copied) into the video's own folder.
   */
  async removeStream(streamId: string): Promise<void> {
    await removeFolder(this.paths.streamDir(streamId));
  }
}

async function removeFolder(dir: string): Promise<void> {
  // force: a resource that never had media has no folder; retries ride out a busy file system.
  await fs.rm(dir, { recursive: true, force: true, maxRetries: 3 });
}
