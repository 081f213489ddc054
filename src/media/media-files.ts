// Sending media files: content types and cache rules per kind of file, and a JSON 404 for
// anything missing, like every other error of the service.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import { AppError } from '../shared/errors.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.ts': 'video/mp2t',
  '.jpg': 'image/jpeg',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * - a playlist that may still grow (a live stream's): never reused without asking again;
 * - segments never change once listed: cached for good;
 * - a finished video's playlist and thumbnail: cached for a day;
 * - a live stream's thumbnail is replaced every ~20 s (its URL carries a version): briefly.
 */
export type CacheRule = 'live-playlist' | 'immutable' | 'finished' | 'short' | 'asset';

const CACHE_CONTROL: Record<CacheRule, string> = {
  'live-playlist': 'no-cache',
  immutable: 'public, max-age=31536000, immutable',
  finished: 'public, max-age=86400',
  short: 'public, max-age=10',
  asset: 'public, max-age=3600',
};

export function mediaNotFound(): AppError {
  return new AppError('resource_not_found', 'No such media file exists (yet).');
}

export async function sendFile(reply: FastifyReply, file: string | undefined, cache: CacheRule) {
  if (file === undefined) throw mediaNotFound();
  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(file);
  } catch (error) {
    throw notFoundOrLogged(reply, error, file);
  }
  if (!stat.isFile()) throw mediaNotFound();
  reply
    .header('Content-Type', CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream')
    .header('Cache-Control', CACHE_CONTROL[cache])
    .header('Last-Modified', stat.mtime.toUTCString())
    .header('X-Content-Type-Options', 'nosniff');
  if (stat.size < 64 * 1024) {
    // Small files (playlists) are read whole: a playlist replaced mid-send stays consistent.
    try {
      return await reply.send(await fs.promises.readFile(file));
    } catch (error) {
      // Gone since the stat (a stream's files removed as it ends) is the usual reason.
      throw notFoundOrLogged(reply, error, file);
    }
  }
  reply.header('Content-Length', stat.size);
  return reply.send(fs.createReadStream(file));
}

/**
 * Missing files are routine (a segment not written yet, a player guessing); any other failure
 * (permissions, I/O) is the operator's to fix, so it is logged. The player gets a 404 either way.
 */
function notFoundOrLogged(reply: FastifyReply, error: unknown, file: string): AppError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== 'ENOENT' && code !== 'ENOTDIR') reply.log.error({ err: error, file }, 'media file unreadable');
  return mediaNotFound();
}
