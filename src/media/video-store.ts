// The media job `video.store` (MEDIA_STORAGE=s3): moves a published video's media from its
// folder DATA_DIR/media/videos/<id>/ to the object store, under videos/<id>/ (media-keys.ts).
// Every file is uploaded (streamed, multipart when large) and verified by size and SHA-256
// against the local file; only once every file is there is the video recorded as `object`
// (videos.media_location), and only then is the folder removed. Until that moment the origin
// serves the local files, so the video plays all along. An uploaded video's original
// (DATA_DIR/media/originals/<id>) goes with it, as videos/<id>/original, and is removed from
// disk with the folder; the job waits while the upload is still finishing.
//
// Any failure (the store down, throttling, a mismatch) throws: the queue tries the job again
// after a back-off (RETRY_DELAYS_MS, VIDEO_STORE_ATTEMPTS attempts), each failure logged, and
// nothing is lost, as the local folder stays until the store holds a verified copy. An attempt
// skips the objects an earlier one already stored and verified. A video deleted meanwhile has
// what was uploaded of it removed from the store; deleting a video runs its job once more for
// that, so its objects go even when the store is down at the time.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { JobHandler } from '../jobs/job-runner.ts';
import type { MediaJobRow } from '../jobs/job.table.ts';
import { digestFile } from '../storage/digest.ts';
import type { MediaStorage } from '../storage/media-storage.ts';
import { ORIGINAL_FILE, videoKey, videoPrefix } from '../storage/media-keys.ts';
import { verifyStored } from '../storage/verify.ts';
import { VIDEO_STORE_JOB, type VideoService } from '../videos/video.service.ts';
import { contentTypeOf, videoCacheRule, cacheControlOf } from './media-files.ts';
import type { MediaPaths } from './media-paths.ts';

/** Delays before attempts 2..n: 5 s doubling to 5 minutes, so 20 attempts span about 1.5 h. */
export const VIDEO_STORE_RETRY_DELAYS_MS = [5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000];

export interface VideoStoreDeps {
  videos: Pick<VideoService, 'findAny' | 'mediaLocation' | 'setMediaLocation'>;
  paths: MediaPaths;
  storage: MediaStorage;
  logger?: Logger | undefined;
  /** The queue's delays before each retry (tests shorten them). */
  retryDelaysMs?: number[] | undefined;
  /**
   * Whether the video's upload is still finishing (its original not yet kept beside it): the
   * job is then tried again shortly, so the original goes to the store with the rest.
   */
  originalPending?: ((videoId: string) => Promise<boolean>) | undefined;
}

/**
 * Every file under `dir`, as paths relative to it with `/` between folders, in a stable order;
 * hidden ones (a thumbnail being retried, `.retry-thumbnail.jpg`) are no media and stay behind.
 */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((file) => !file.split('/').some((segment) => segment.startsWith('.')))
    .sort();
}

export function videoStoreHandler(deps: VideoStoreDeps): JobHandler {
  const { videos, paths, storage, logger } = deps;
  return {
    kind: VIDEO_STORE_JOB,
    retryDelaysMs: deps.retryDelaysMs ?? VIDEO_STORE_RETRY_DELAYS_MS,
    async run(job: MediaJobRow, { signal }) {
      const videoId = job.subject_id;
      const dir = paths.videoDir(videoId);
      const location = await videos.mediaLocation(videoId);
      if (location === undefined) {
        // Deleted (VideoService.delete runs this job again for that), or deleted while an earlier
        // attempt stored it: leave nothing behind.
        const removed = await storage.deletePrefix(videoPrefix(videoId));
        logger?.info({ videoId, removed }, 'video deleted; its objects removed from the object store');
        return;
      }
      if (location === 'object') {
        // A crash between recording the move and removing the folder.
        await fs.rm(dir, { recursive: true, force: true, maxRetries: 3 });
        await fs.rm(paths.videoOriginal(videoId), { force: true });
        return;
      }
      // Published a moment before its upload keeps the original beside it: wait for that (a
      // rename), or, when it takes long (the upload's job was interrupted), try again later.
      for (let waited = 0; (await deps.originalPending?.(videoId)) === true; waited += 250) {
        if (waited >= 30_000) {
          throw new Error(
            `video ${videoId}: its upload is still finishing; its original is not in place yet`,
          );
        }
        signal.throwIfAborted();
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const files = await filesUnder(dir);
      if (files.length === 0) throw new Error(`video ${videoId} has no media folder to store (${dir})`);
      let uploaded = 0;
      let bytes = 0;
      for (const file of files) {
        signal.throwIfAborted();
        const key = videoKey(videoId, file);
        const local = await digestFile(path.join(dir, file));
        const there = await storage.head(key);
        if (there?.size === local.size && there.sha256 === local.sha256) continue;
        await storage.putFile(key, path.join(dir, file), {
          sha256: local.sha256,
          contentType: contentTypeOf(file),
          cacheControl: cacheControlOf(videoCacheRule(file)),
          signal,
        });
        await verifyStored(storage, key, local);
        uploaded++;
        bytes += local.size;
      }
      // The upload's original, kept on local disk beside the folder (media-paths.ts).
      const original = paths.videoOriginal(videoId);
      const originalDigest = await digestFile(original).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      });
      if (originalDigest) {
        const key = videoKey(videoId, ORIGINAL_FILE);
        const there = await storage.head(key);
        if (there?.size !== originalDigest.size || there.sha256 !== originalDigest.sha256) {
          await storage.putFile(key, original, { sha256: originalDigest.sha256, signal });
          uploaded++;
          bytes += originalDigest.size;
        }
        await verifyStored(storage, key, originalDigest);
      }
      if (!(await videos.setMediaLocation(videoId, 'object'))) {
        // Deleted while its files went up: the deletion may have run before they arrived.
        await storage.deletePrefix(videoPrefix(videoId));
        return;
      }
      await fs.rm(dir, { recursive: true, force: true, maxRetries: 3 });
      await fs.rm(original, { force: true });
      logger?.info(
        { videoId, files: files.length, uploaded, bytes, storage: storage.description },
        'video media stored in the object store; local folder removed',
      );
    },
    async failed(job: MediaJobRow, error: unknown) {
      // The video still plays from its local folder; an operator can enqueue the move again.
      logger?.error(
        { err: error, videoId: job.subject_id, attempts: job.attempts },
        'storing video media in the object store failed on every attempt; it stays on local disk',
      );
      await Promise.resolve();
    },
  };
}
