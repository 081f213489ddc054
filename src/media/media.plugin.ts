// Everything media adds to the HTTP application, as one plugin for buildApp's `plugins`:
// HLS media and thumbnails under /media, watch pages under /watch, their assets under /assets.
// It serves whatever media exists; without ffmpeg there is simply none yet.
import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../db/database.ts';
import type { Clock } from '../shared/clock.ts';
import type { PublicUrls } from '../shared/public-urls.ts';
import { MediaCache } from './media-cache.ts';
import { MediaPaths } from './media-paths.ts';
import { mediaRoutes } from './media.routes.ts';
import { WithheldMedia } from './withheld-media.ts';
import { PlaylistLimiter } from './playlist-limiter.ts';
import { watchRoutes } from './watch.routes.ts';
import type { MediaStorage } from '../storage/media-storage.ts';
import { findMediaPlacement } from '../videos/video.repository.ts';
import { WatchService } from './watch.service.ts';
import { LiveOrigins } from './live-origin.ts';

export interface MediaPluginOptions {
  services: { database: DatabaseHandle; urls: PublicUrls; clock: Clock };
  /** DATA_DIR: media lives in DATA_DIR/media. */
  dataDir: string;
  /** Live-playlist fetches per client address and stream per minute; see playlist-limiter.ts. */
  playlistFetchesPerMinute?: number;
  /** Bytes of media files kept in memory (MEDIA_CACHE_MB); see media-cache.ts. */
  cacheBytes?: number;
  /** MEDIA_STORAGE=s3: the object store videos' media is moved to, read from there. */
  objectStore?: MediaStorage | undefined;
  /**
   * Many ingest processes (issue 25): live streams held by another machine are streamed through
   * from it, and their watch info says when its holder waits for (or lost) the encoder. `selfUrl`
   * is this process's own INGEST_ORIGIN_URL. Off in one process (`npm start`).
   */
  liveOrigin?: { selfUrl?: string | undefined } | undefined;
}

export function mediaPlugin(options: MediaPluginOptions): (app: FastifyInstance) => Promise<void> {
  const paths = new MediaPaths(options.dataDir);
  const live =
    options.liveOrigin === undefined
      ? undefined
      : new LiveOrigins(options.services.database.db, options.services.clock, options.liveOrigin.selfUrl);
  const watch = new WatchService(options.services.database.db, options.services.urls, paths, live);
  const playlists = new PlaylistLimiter(options.services.clock, options.playlistFetchesPerMinute);
  const cache = new MediaCache(options.cacheBytes);
  return async (app) => {
    const storage = options.objectStore;
    const stored =
      storage === undefined
        ? undefined
        : {
            storage,
            placement: async (id: string) => {
              const row = await findMediaPlacement(options.services.database.db, id);
              return row && { inStore: row.media_location === 'object', isPublic: row.privacy === 'public' };
            },
          };
    const withheld = new WithheldMedia(options.services.database.db, options.services.clock);
    await app.register(mediaRoutes, { paths, playlists, cache, stored, withheld, live });
    await app.register(watchRoutes, { watch, urls: options.services.urls, cache });
  };
}
