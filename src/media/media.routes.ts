// HLS playlists, segments and thumbnails of streams and videos, under /media. No API key and
// not the API's per-IP limit: a player fetches a playlist and a segment every two seconds, and
// these URLs are as public as the watch pages that use them (private means unlisted). A live
// stream's playlists have a limit of their own per client (playlist-limiter.ts), far above
// what players need. Fetching them counts no viewer: an edge cache answers most of them, so
// players signal presence instead (src/viewers/presence.routes.ts).
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../shared/errors.ts';
import { clientKey } from '../shared/client-address.ts';
import type { MediaCache, MediaFile } from './media-cache.ts';
import {
  openMedia,
  sendFile,
  sendMedia,
  sendStoredMedia,
  videoCacheRule,
  type CacheRule,
} from './media-files.ts';
import type { MediaStorage } from '../storage/media-storage.ts';
import { videoKey } from '../storage/media-keys.ts';
import { THUMBNAIL_FILE, type MediaPaths } from './media-paths.ts';
import { parseMediaPlaylist } from '../hls/hls-playlist.ts';
import type { PlaylistLimiter } from './playlist-limiter.ts';
import type { WithheldMedia } from './withheld-media.ts';

export interface MediaRoutesOptions {
  paths: MediaPaths;
  playlists: PlaylistLimiter;
  cache: MediaCache;
  /** MEDIA_STORAGE=s3: where videos moved off local disk are read from (video-store.ts). */
  stored?: StoredVideos | undefined;
  /** Moderation: a taken-down item's (or a suspended creator's) media answers 404. */
  withheld?: WithheldMedia;
}

/** Videos whose media is in the object store, and the store. */
export interface StoredVideos {
  storage: MediaStorage;
  /** Whether the video's media is in the store (videos.media_location = 'object'). */
  inStore(videoId: string): Promise<boolean>;
}

interface MediaParams {
  id: string;
  '*': string;
}

export async function mediaRoutes(app: FastifyInstance, options: MediaRoutesOptions): Promise<void> {
  const { paths, playlists, cache, stored, withheld } = options;
  const hidden = async (kind: 'stream' | 'video', id: string): Promise<boolean> =>
    withheld !== undefined && !(await withheld.shown(kind, id));
  const config = { access: 'public', rateLimit: false } as const;
  const schema = { hide: true };

  app.get<{ Params: MediaParams }>('/media/streams/:id/*', { config, schema }, async (request, reply) => {
    const { id, '*': name } = request.params;
    const file = paths.streamFile(id, name);
    if (file !== undefined && (await hidden('stream', id))) throw missingMedia();
    const client = clientKey(request.ip);
    // Checked before the playlist is read; names that are no media file are a cheap 404.
    if (file !== undefined && name.endsWith('.m3u8')) limitPlaylistFetches(reply, playlists, client, id);
    let rule: CacheRule = 'immutable';
    const media = await openMedia(reply, cache, file);
    // index.m3u8, or a rendition's playlist of a stream with renditions (whose index.m3u8 is a
    // master, with no segments and never `ended`: it keeps the live-playlist rule).
    if (name.endsWith('.m3u8')) {
      // Parsed once per version of the file, not per fetch (the cache keeps it with the bytes).
      media.playlist ??= parseMediaPlaylist(media.body?.toString('utf8') ?? '');
      const { playlist } = media;
      rule = playlist.ended ? 'finished' : 'live-playlist';
    } else if (name === THUMBNAIL_FILE) {
      rule = 'short';
    }
    return sendMedia(request, reply, cache, media, rule);
  });

  // A video moved to the object store never moves back, so once seen there it is remembered and
  // its files proxied at once. Otherwise the local file is tried first (every video while
  // MEDIA_STORAGE=local, and one still on its way to the store), and only a missing one asks the
  // database: the move records `object` before it removes the folder, so a file gone from disk
  // is in the store (or its video deleted, and the store answers 404).
  const inStore = new Set<string>();
  const IN_STORE_MAX = 100_000;
  app.get<{ Params: MediaParams }>('/media/videos/:id/*', { config, schema }, async (request, reply) => {
    const { id, '*': name } = request.params;
    const rule = videoCacheRule(name);
    const file = paths.videoFile(id, name);
    if (file !== undefined && (await hidden('video', id))) throw missingMedia();
    if (stored === undefined || file === undefined) return sendFile(request, reply, cache, file, rule);
    if (!inStore.has(id)) {
      let media: MediaFile | undefined;
      try {
        media = await openMedia(reply, cache, file);
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'resource_not_found') throw error;
        if (!(await stored.inStore(id))) throw error;
        if (inStore.size >= IN_STORE_MAX) inStore.clear();
        inStore.add(id);
      }
      if (media) return sendMedia(request, reply, cache, media, rule);
    }
    return sendStoredMedia(request, reply, stored.storage, videoKey(id, name), rule);
  });
}

function missingMedia(): AppError {
  return new AppError('resource_not_found', 'No such media file.');
}

function limitPlaylistFetches(
  reply: FastifyReply,
  playlists: PlaylistLimiter,
  client: string,
  streamId: string,
): void {
  const retryAfter = playlists.hit(client, streamId);
  if (retryAfter === 0) return;
  reply.header('Retry-After', retryAfter);
  throw new AppError(
    'rate_limit_exceeded',
    `More than ${playlists.limit} playlist fetches of this stream came from this address this minute ` +
      '(a player needs about 30); retry after the window resets.',
  );
}
