// HLS playlists, segments and thumbnails of streams and videos, under /media. No API key and
// not the API's per-IP limit: a player fetches a playlist and a segment every two seconds, and
// these URLs are as public as the watch pages that use them (private means unlisted). A live
// stream's playlists have a limit of their own per client (playlist-limiter.ts), far above
// what players need; fetching them is what counts a viewer.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../shared/errors.ts';
import { clientKey } from '../shared/client-address.ts';
import type { MediaCache } from './media-cache.ts';
import { openMedia, sendFile, sendMedia, type CacheRule } from './media-files.ts';
import { THUMBNAIL_FILE, type MediaPaths } from './media-paths.ts';
import { parseMediaPlaylist } from './hls-playlist.ts';
import type { PlaylistLimiter } from './playlist-limiter.ts';
import type { ViewerTracker } from './viewer-tracker.ts';

export interface MediaRoutesOptions {
  paths: MediaPaths;
  viewers: ViewerTracker;
  playlists: PlaylistLimiter;
  cache: MediaCache;
}

interface MediaParams {
  id: string;
  '*': string;
}

/** The watch page tags its player with a random id; other players count by their agent. */
const VIEWER_ID = /^[A-Za-z0-9-]{8,64}$/;

export async function mediaRoutes(app: FastifyInstance, options: MediaRoutesOptions): Promise<void> {
  const { paths, viewers, playlists, cache } = options;
  const config = { access: 'public', rateLimit: false } as const;
  const schema = { hide: true };

  app.get<{ Params: MediaParams }>('/media/streams/:id/*', { config, schema }, async (request, reply) => {
    const { id, '*': name } = request.params;
    const file = paths.streamFile(id, name);
    const client = clientKey(request.ip);
    // Checked before the playlist is read; names that are no media file are a cheap 404.
    if (file !== undefined && name.endsWith('.m3u8')) limitPlaylistFetches(reply, playlists, client, id);
    let rule: CacheRule = 'immutable';
    const media = await openMedia(reply, cache, file);
    // index.m3u8, or a rendition's playlist of a stream with renditions (whose index.m3u8 is a
    // master: no segments, so only rendition fetches count viewers).
    if (name.endsWith('.m3u8')) {
      // Parsed once per version of the file, not per fetch (the cache keeps it with the bytes).
      media.playlist ??= parseMediaPlaylist(media.body?.toString('utf8') ?? '');
      const { playlist } = media;
      // Only players of a stream with live media count (never arbitrary ids someone requests).
      if (!playlist.ended && playlist.segments.length > 0) viewers.seen(id, client, viewerOf(request));
      rule = playlist.ended ? 'finished' : 'live-playlist';
    } else if (name === THUMBNAIL_FILE) {
      rule = 'short';
    }
    return sendMedia(request, reply, cache, media, rule);
  });

  app.get<{ Params: MediaParams }>('/media/videos/:id/*', { config, schema }, async (request, reply) => {
    const { id, '*': name } = request.params;
    const rule: CacheRule = name.endsWith('.m3u8') || name === THUMBNAIL_FILE ? 'finished' : 'immutable';
    return sendFile(request, reply, cache, paths.videoFile(id, name), rule);
  });
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

/** One player at the client: its own id, or else its user agent (players without the page). */
function viewerOf(request: FastifyRequest): string {
  const query = request.query as Record<string, unknown> | undefined;
  const tagged = query?.viewer;
  if (typeof tagged === 'string' && VIEWER_ID.test(tagged)) return `player:${tagged}`;
  const agent = request.headers['user-agent'] ?? '';
  return `agent:${createHash('sha256').update(agent).digest('hex').slice(0, 16)}`;
}
