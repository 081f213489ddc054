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
import { proxyFromHolder, StoredLiveStreams, type LiveOrigins } from './live-origin.ts';

export interface MediaRoutesOptions {
  paths: MediaPaths;
  playlists: PlaylistLimiter;
  cache: MediaCache;
  /** MEDIA_STORAGE=s3: where videos moved off local disk are read from (video-store.ts). */
  stored?: StoredVideos | undefined;
  /** Moderation: a taken-down item's (or a suspended creator's) media answers 404. */
  withheld?: WithheldMedia;
  /** Many ingest processes: a live stream's files not on this disk come from its holder (live-origin.ts). */
  live?: LiveOrigins | undefined;
}

/** Videos whose media is in the object store, and the store. */
export interface StoredVideos {
  storage: MediaStorage;
  /**
   * Whether the video's media is in the store (videos.media_location = 'object') and whether
   * the video is public; undefined when there is no such video.
   */
  placement(videoId: string): Promise<{ inStore: boolean; isPublic: boolean } | undefined>;
}

/** How long a video's privacy is trusted before it is read again (a redirect's lifetime too). */
const PLACEMENT_TTL_MS = 10_000;
/** Redirects to S3_PUBLIC_URL: cacheable briefly, so a video made private stops being redirected. */
const REDIRECT_CACHE_CONTROL = 'public, max-age=10';

interface MediaParams {
  id: string;
  '*': string;
}

export async function mediaRoutes(app: FastifyInstance, options: MediaRoutesOptions): Promise<void> {
  const { paths, playlists, cache, stored, withheld, live } = options;
  const hidden = async (kind: 'stream' | 'video', id: string): Promise<boolean> =>
    withheld !== undefined && !(await withheld.shown(kind, id));
  const config = { access: 'public', rateLimit: false } as const;
  const schema = { hide: true };
  const storedLive = live && stored ? new StoredLiveStreams(stored.storage) : undefined;

  app.get<{ Params: MediaParams }>('/media/streams/:id/*', { config, schema }, async (request, reply) => {
    const { id, '*': name } = request.params;
    const file = paths.streamFile(id, name);
    if (file !== undefined && (await hidden('stream', id))) throw missingMedia();
    const client = clientKey(request.ip);
    // Checked before the playlist is read; names that are no media file are a cheap 404.
    if (file !== undefined && name.endsWith('.m3u8')) limitPlaylistFetches(reply, playlists, client, id);
    let rule: CacheRule = 'immutable';
    let media: MediaFile;
    try {
      media = await openMedia(reply, cache, file);
    } catch (error) {
      // Not on this machine: held by another ingest process, streamed through from there.
      if (live === undefined || file === undefined || !isNotFound(error)) throw error;
      const holder = await live.holderUrl(request, id);
      if (holder !== undefined)
        return proxyFromHolder(request, reply, holder, `/media/streams/${id}/${name}`);
      // Held by nobody right now (its holder died): what it copied to the store, if anything.
      if (storedLive === undefined || (await live.locate(id)) !== undefined) throw error;
      if (!(await storedLive.send(request, reply, id, name))) throw error;
      return reply;
    }
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

  // A video seen in the object store is remembered (with its privacy, for PLACEMENT_TTL_MS) and
  // its files read from there at once (until one is missing there and the database says it
  // moved back to local disk). Otherwise the local file is tried first (every video while
  // MEDIA_STORAGE=local, and one still on its way to the store), and only a missing one asks the
  // database: a move records `object` before it removes the folder, so a file gone from disk is
  // in the store (or its video deleted, and the store answers 404).
  //
  // From the store: with S3_PUBLIC_URL, a public video's files are redirected there (302,
  // cacheable 10 s); a private or unlisted one's are always proxied, streamed (never a public
  // URL, which anyone could guess from the video's id once they knew it).
  const seen = new Map<string, { isPublic: boolean; at: number }>();
  const SEEN_MAX = 100_000;
  const placementOf = async (id: string) => {
    const known = seen.get(id);
    if (known && Date.now() - known.at < PLACEMENT_TTL_MS) return { inStore: true, isPublic: known.isPublic };
    const placement = await stored?.placement(id);
    if (placement?.inStore === true) {
      if (seen.size >= SEEN_MAX) seen.clear();
      seen.set(id, { isPublic: placement.isPublic, at: Date.now() });
    } else {
      seen.delete(id);
    }
    return placement;
  };
  app.get<{ Params: MediaParams }>('/media/videos/:id/*', { config, schema }, async (request, reply) => {
    const { id, '*': name } = request.params;
    const rule = videoCacheRule(name);
    const file = paths.videoFile(id, name);
    if (file !== undefined && (await hidden('video', id))) throw missingMedia();
    if (stored === undefined || file === undefined) return sendFile(request, reply, cache, file, rule);
    let placement: { inStore: boolean; isPublic: boolean } | undefined;
    if (!seen.has(id)) {
      let media: MediaFile | undefined;
      try {
        media = await openMedia(reply, cache, file);
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'resource_not_found') throw error;
        placement = await placementOf(id);
        if (placement?.inStore !== true) throw error;
      }
      if (media) return sendMedia(request, reply, cache, media, rule);
    }
    placement ??= await placementOf(id);
    const key = videoKey(id, name);
    const publicUrl = placement?.isPublic === true ? stored.storage.publicUrl(key) : undefined;
    if (publicUrl !== undefined) {
      return reply
        .code(302)
        .header('Location', publicUrl)
        .header('Cache-Control', REDIRECT_CACHE_CONTROL)
        .send();
    }
    try {
      return await sendStoredMedia(request, reply, stored.storage, key, rule);
    } catch (error) {
      // Moved back to local disk since (`storage migrate --to local`): read it there from now on.
      if (!(error instanceof AppError) || error.code !== 'resource_not_found') throw error;
      seen.delete(id);
      if ((await placementOf(id))?.inStore !== false) throw error;
      return sendFile(request, reply, cache, file, rule);
    }
  });
}

function isNotFound(error: unknown): boolean {
  return error instanceof AppError && error.code === 'resource_not_found';
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
