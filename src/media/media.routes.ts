// HLS playlists, segments and thumbnails of streams and videos, under /media. No API key and
// no rate limit: a player fetches a playlist and a segment every two seconds, and these URLs
// are as public as the watch pages that use them (private means unlisted).
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendFile, type CacheRule } from './media-files.ts';
import { PLAYLIST_FILE, THUMBNAIL_FILE, type MediaPaths } from './media-paths.ts';
import { readPlaylist } from './hls-playlist.ts';
import type { ViewerTracker } from './viewer-tracker.ts';

export interface MediaRoutesOptions {
  paths: MediaPaths;
  viewers: ViewerTracker;
}

interface MediaParams {
  id: string;
  '*': string;
}

/** The watch page tags its player with a random id; other players count by address and agent. */
const VIEWER_ID = /^[A-Za-z0-9-]{8,64}$/;

export async function mediaRoutes(app: FastifyInstance, options: MediaRoutesOptions): Promise<void> {
  const { paths, viewers } = options;
  const config = { auth: 'none', rateLimit: false } as const;
  const schema = { hide: true };

  app.get<{ Params: MediaParams }>('/media/streams/:id/*', { config, schema }, async (request, reply) => {
    const { id, '*': name } = request.params;
    const file = paths.streamFile(id, name);
    let cache: CacheRule = 'immutable';
    if (name === PLAYLIST_FILE && file !== undefined) {
      const playlist = await readPlaylist(file);
      // Only players of a stream with live media count (never arbitrary ids someone requests).
      if (!playlist.ended && playlist.segments.length > 0) viewers.seen(id, viewerOf(request));
      cache = playlist.ended ? 'finished' : 'live-playlist';
    } else if (name === THUMBNAIL_FILE) {
      cache = 'short';
    }
    return sendFile(reply, file, cache);
  });

  app.get<{ Params: MediaParams }>('/media/videos/:id/*', { config, schema }, async (request, reply) => {
    const { id, '*': name } = request.params;
    const cache: CacheRule = name === PLAYLIST_FILE || name === THUMBNAIL_FILE ? 'finished' : 'immutable';
    return sendFile(reply, paths.videoFile(id, name), cache);
  });
}

function viewerOf(request: FastifyRequest): string {
  const query = request.query as Record<string, unknown> | undefined;
  const tagged = query?.viewer;
  if (typeof tagged === 'string' && VIEWER_ID.test(tagged)) return `player:${tagged}`;
  const agent = request.headers['user-agent'] ?? '';
  return `client:${createHash('sha256').update(`${request.ip}\n${agent}`).digest('hex').slice(0, 24)}`;
}
