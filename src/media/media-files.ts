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
  } catch {
    throw mediaNotFound();
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
    } catch {
      throw mediaNotFound();
    }
  }
  reply.header('Content-Length', stat.size);
  return reply.send(fs.createReadStream(file));
}
