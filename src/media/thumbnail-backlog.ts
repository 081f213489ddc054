// Videos published without a thumbnail because every try at publication failed (an ffmpeg that
// could not run, a full disk): the ingest's upkeep tries them again every few minutes, so a
// passing fault does not leave a video pictureless for good. The first later failure of each
// video is logged at error with its stream id, the rest at debug (the operator hears once, the
// log is not flooded every few minutes); a success is logged at info. Kept in memory: a video
// still without a thumbnail when the process stops stays so (docs/architecture.md).
// With MEDIA_STORAGE=s3 the video's folder may have moved to the object store meanwhile
// (video-store.ts): the segment is then fetched from the store into a scratch folder, the
// picture made there and stored beside the video's other objects.
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import type { Clock } from '../shared/clock.ts';
import type { MediaStorage } from '../storage/media-storage.ts';
import { videoKey } from '../storage/media-keys.ts';
import { cacheControlOf, contentTypeOf, videoCacheRule } from './media-files.ts';
import { THUMBNAIL_FILE, type MediaPaths } from './media-paths.ts';
import { makeThumbnail } from './poster.ts';

/** How long after a failure a thumbnail is tried again. */
export const THUMBNAIL_BACKLOG_RETRY_MS = 5 * 60_000;
/** Tries after publication before a video is left without a thumbnail (about a day). */
export const THUMBNAIL_BACKLOG_TRIES = 288;
/** Videos remembered at most: a fault that lasts does not grow memory without bound. */
const MAX_ENTRIES = 10_000;

interface Entry {
  videoId: string;
  /** The segment the picture is taken from, relative to the video's folder. */
  segment: string;
  offset: number;
  context: Record<string, string>;
  tries: number;
  nextAt: number;
  logged: boolean;
}

export interface ThumbnailBacklogDeps {
  paths: MediaPaths;
  ffmpegPath: string;
  clock: Clock;
  logger: Logger;
  retryMs?: number;
  maxTries?: number;
  /** MEDIA_STORAGE=s3: the store, and whether a video's media was moved there. */
  stored?: { storage: MediaStorage; inStore(videoId: string): Promise<boolean> } | undefined;
  /** Records that the video has its thumbnail now (its cards stop showing the placeholder). */
  made?: (videoId: string) => Promise<void>;
}

export class ThumbnailBacklog {
  private readonly deps: ThumbnailBacklogDeps;
  private readonly entries = new Map<string, Entry>();
  private running = false;

  constructor(deps: ThumbnailBacklogDeps) {
    this.deps = deps;
  }

  /** A video published without its thumbnail; `context` (its stream id) goes into log lines. */
  add(videoId: string, segment: string, offset: number, context: Record<string, string>): void {
    if (this.entries.size >= MAX_ENTRIES) return;
    const nextAt = this.deps.clock.now() + (this.deps.retryMs ?? THUMBNAIL_BACKLOG_RETRY_MS);
    this.entries.set(videoId, { videoId, segment, offset, context, tries: 0, nextAt, logged: false });
  }

  get size(): number {
    return this.entries.size;
  }

  /** Tries every video that is due, one after another (ffmpeg runs one at a time). */
  async retryDue(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (const entry of [...this.entries.values()]) {
        if (entry.nextAt <= this.deps.clock.now()) await this.retry(entry);
      }
    } finally {
      this.running = false;
    }
  }

  private async retry(entry: Entry): Promise<void> {
    const { paths, ffmpegPath, clock, logger } = this.deps;
    const dir = paths.videoDir(entry.videoId);
    const fields = { ...entry.context, videoId: entry.videoId };
    // Made beside the final name and renamed, so a player never reads half a picture. (The
    // leading dot keeps the partial file out of what the media routes serve.)
    const partial = path.join(dir, `.retry-${THUMBNAIL_FILE}`);
    entry.tries++;
    try {
      if (!(await exists(dir)) && (await this.deps.stored?.inStore(entry.videoId)) === true) {
        await this.makeInStore(entry);
      } else {
        await makeThumbnail(ffmpegPath, path.join(dir, entry.segment), partial, entry.offset);
        await fs.rename(partial, path.join(dir, THUMBNAIL_FILE));
        // Moved to the store while the picture was made: it goes there too.
        if ((await this.deps.stored?.inStore(entry.videoId)) === true) await this.storePicture(entry, dir);
      }
      this.entries.delete(entry.videoId);
      await this.deps.made?.(entry.videoId).catch((error: unknown) => {
        logger.error({ err: error, ...fields }, 'video thumbnail made, but not recorded');
      });
      logger.info({ ...fields, tries: entry.tries }, 'video thumbnail made on a later try');
    } catch (error) {
      await fs.rm(partial, { force: true });
      if (
        !(await exists(dir)) &&
        (await this.deps.stored?.inStore(entry.videoId).catch(() => true)) !== true
      ) {
        // The video was deleted meanwhile: nothing to picture.
        this.entries.delete(entry.videoId);
        return;
      }
      const last = entry.tries >= (this.deps.maxTries ?? THUMBNAIL_BACKLOG_TRIES);
      if (last) this.entries.delete(entry.videoId);
      else entry.nextAt = clock.now() + (this.deps.retryMs ?? THUMBNAIL_BACKLOG_RETRY_MS);
      if (!entry.logged) {
        entry.logged = true;
        logger.error(
          { err: error, ...fields, tries: entry.tries },
          'video thumbnail still failing; retrying every few minutes',
        );
      } else {
        logger.debug({ err: error, ...fields, tries: entry.tries, last }, 'video thumbnail still failing');
      }
    }
  }

  /** The picture of a video whose media is in the object store: made in a scratch folder, stored. */
  private async makeInStore(entry: Entry): Promise<void> {
    const { paths, ffmpegPath } = this.deps;
    const storage = this.deps.stored?.storage;
    if (!storage) return;
    await fs.mkdir(paths.stagingRoot, { recursive: true });
    const scratch = await fs.mkdtemp(path.join(paths.stagingRoot, `.thumbnail-${entry.videoId}-`));
    try {
      const object = await storage.get(videoKey(entry.videoId, entry.segment));
      if (!object) throw new Error(`${entry.segment} is not in the object store`);
      const segment = path.join(scratch, 'segment.ts');
      await pipeline(object.body, createWriteStream(segment));
      const picture = path.join(scratch, THUMBNAIL_FILE);
      await makeThumbnail(ffmpegPath, segment, picture, entry.offset);
      await this.storePicture(entry, scratch);
    } finally {
      await fs.rm(scratch, { recursive: true, force: true });
    }
  }

  private async storePicture(entry: Entry, dir: string): Promise<void> {
    await this.deps.stored?.storage.putFile(
      videoKey(entry.videoId, THUMBNAIL_FILE),
      path.join(dir, THUMBNAIL_FILE),
      {
        contentType: contentTypeOf(THUMBNAIL_FILE),
        cacheControl: cacheControlOf(videoCacheRule(THUMBNAIL_FILE)),
      },
    );
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}
