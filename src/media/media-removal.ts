// Removing a stream's or a video's files when the resource itself is deleted. The services that
// delete them are handed one MediaRemoval by the composition root (they import only its type,
// so streams/ and videos/ do not depend on media/, which reads them to serve watch pages), and
// whatever later keeps more files per resource adds them here, for every deletion path.
import fs from 'node:fs/promises';
import type { MediaPaths } from './media-paths.ts';
import type { MediaStorage } from '../storage/media-storage.ts';
import { videoPrefix } from '../storage/media-keys.ts';
import { withRetry } from '../storage/retry.ts';

export class MediaRemoval {
  private readonly paths: MediaPaths;
  private readonly objectStore: MediaStorage | undefined;

  /** `objectStore`: MEDIA_STORAGE=s3, where videos' media is moved (video-store.ts). */
  constructor(paths: MediaPaths, objectStore?: MediaStorage) {
    this.paths = paths;
    this.objectStore = objectStore;
  }

  /**
   * The video's HLS media and thumbnail, anything half-assembled for it in staging, the
   * original it was made from when it was uploaded, and with an object store every object
   * under its prefix there, at once when the store answers. A store that does not is no
   * failure of the deletion: VideoService.delete has the video's video.store job run again,
   * which finds the video gone and deletes the prefix, retried until the store is back (as does
   * a move still running, once it finds the video gone).
   */
  async removeVideo(videoId: string): Promise<void> {
    const store = this.objectStore;
    await Promise.all([
      removeFolder(this.paths.videoDir(videoId)),
      removeFolder(this.paths.videoStagingDir(videoId)),
      fs.rm(this.paths.videoOriginal(videoId), { force: true }),
    ]);
    if (store) {
      await withRetry(() => store.deletePrefix(videoPrefix(videoId)), { attempts: 2 }).catch(
        () => undefined, // the queued job removes them
      );
    }
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
