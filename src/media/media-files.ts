// Sending media files: content types and cache rules per kind of file, validators and byte
// ranges, and a JSON 404 for anything missing, like every other error of the service. The
// content comes from the cache (media-cache.ts) or, for large files, streams from disk.
import path from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, serviceUnavailable } from '../shared/errors.ts';
import { notModified, requestedRange } from './http-conditions.ts';
import type { MediaCache, MediaFile } from './media-cache.ts';
import { THUMBNAIL_FILE } from './media-paths.ts';
import type { MediaStorage, ObjectInfo } from '../storage/media-storage.ts';
import { StorageError } from '../storage/storage-errors.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.ts': 'video/mp2t',
  '.jpg': 'image/jpeg',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
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

export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream';
}

export function cacheControlOf(rule: CacheRule): string {
  return CACHE_CONTROL[rule];
}

/** A finished video's file: its playlists and thumbnail for a day, its segments for good. */
export function videoCacheRule(file: string): CacheRule {
  return file.endsWith('.m3u8') || file === THUMBNAIL_FILE ? 'finished' : 'immutable';
}

export function mediaNotFound(): AppError {
  return new AppError('resource_not_found', 'No such media file exists (yet).');
}

/** Chunks of a streamed file: fewer reads and socket writes than the default 64 KiB. */
const STREAM_CHUNK_BYTES = 256 * 1024;

/**
 * Opens a media file through the cache; undefined when there is none. Unreadable files are
 * logged and answered as missing (see notFoundOrLogged).
 */
export async function openMedia(
  reply: FastifyReply,
  cache: MediaCache,
  file: string | undefined,
): Promise<MediaFile> {
  if (file === undefined) throw mediaNotFound();
  let media: MediaFile | undefined;
  try {
    media = await cache.open(file);
  } catch (error) {
    throw notFoundOrLogged(reply, error, file);
  }
  if (media === undefined) throw mediaNotFound();
  return media;
}

/**
 * Sends an opened media file, honouring conditional requests (304) and a byte range (206,
 * or 416 when it starts past the end). `Content-Length` is always the bytes sent.
 */
export async function sendMedia(
  request: FastifyRequest,
  reply: FastifyReply,
  files: MediaCache,
  media: MediaFile,
  cache: CacheRule,
) {
  const { headers } = request;
  const range = request.method === 'GET' ? requestedRange(headers, media) : undefined;
  const unchanged = notModified(headers, media);
  if (unchanged || range?.kind === 'unsatisfiable' || request.method === 'HEAD') await media.handle?.close();
  if (range?.kind === 'unsatisfiable' && !unchanged) {
    reply.header('Content-Range', `bytes */${media.size}`);
    throw new AppError(
      'range_not_satisfiable',
      `The requested range starts past the end of the file (${media.size} bytes).`,
    );
  }
  reply
    .header('Content-Type', CONTENT_TYPES[path.extname(media.path)] ?? 'application/octet-stream')
    .header('Cache-Control', CACHE_CONTROL[cache])
    .header('Last-Modified', media.lastModified)
    .header('ETag', media.etag)
    .header('Accept-Ranges', 'bytes')
    .header('X-Content-Type-Options', 'nosniff');
  if (unchanged) return reply.code(304).send();
  let start = 0;
  let end = media.size - 1;
  if (range?.kind === 'part') {
    ({ start, end } = range);
    reply.code(206).header('Content-Range', `bytes ${start}-${end}/${media.size}`);
  }
  const length = end - start + 1;
  reply.header('Content-Length', length);
  if (request.method === 'HEAD') return reply.send(Readable.from([]));
  if (media.body !== undefined) {
    // The body stays in memory until the response has gone (or the client has gone).
    reply.raw.once('close', files.lend(media));
    return reply.send(length === media.body.length ? media.body : media.body.subarray(start, end + 1));
  }
  const { handle } = media;
  if (handle === undefined || length === 0) {
    await handle?.close();
    return reply.send(Buffer.alloc(0));
  }
  return reply.send(
    handle.createReadStream({ start, end, highWaterMark: STREAM_CHUNK_BYTES, autoClose: true }),
  );
}

/** A file by path, as the routes with nothing to read from it before sending use it. */
export async function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  cache: MediaCache,
  file: string | undefined,
  rule: CacheRule,
) {
  return sendMedia(request, reply, cache, await openMedia(reply, cache, file), rule);
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

/**
 * A strong entity tag for a stored object: its SHA-256 when it was stored with one (every
 * video.store upload is), which head and get agree on; else the store's own.
 */
function storedEtag(info: ObjectInfo): string {
  if (info.sha256 !== undefined) return `"${info.sha256}"`;
  return info.etag !== '' && info.etag !== '""' ? info.etag : `"${info.size}-${info.lastModified.getTime()}"`;
}

/**
 * Sends a media object from the object store (a video whose media was moved there), proxied
 * and streamed: never read whole, a Range asked of the store as a ranged GET, a HEAD as a head.
 * The same headers as a local file's (sendMedia), its validators from the store's. A request
 * with conditions or a range is answered from a head first (a 304 reads no body; a range is
 * worked out against the object's size, If-Range included), the others by one GET.
 */
export async function sendStoredMedia(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: MediaStorage,
  key: string,
  rule: CacheRule,
) {
  const { headers } = request;
  const ranged = request.method === 'GET' && headers.range !== undefined;
  const conditional = headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined;
  const setHeaders = (info: ObjectInfo) =>
    reply
      .header('Content-Type', contentTypeOf(key))
      .header('Cache-Control', CACHE_CONTROL[rule])
      .header('Last-Modified', info.lastModified.toUTCString())
      .header('ETag', storedEtag(info))
      .header('Accept-Ranges', 'bytes')
      .header('X-Content-Type-Options', 'nosniff');
  const fromStore = <T>(operation: () => Promise<T>): Promise<T> =>
    operation().catch((error: unknown) => {
      throw storeFailure(reply, error, key);
    });
  let range: { start: number; end: number } | undefined;
  if (request.method === 'HEAD' || ranged || conditional) {
    const info = await fromStore(() => storage.head(key));
    if (!info) throw mediaNotFound();
    const validators = { etag: storedEtag(info), mtimeMs: info.lastModified.getTime(), size: info.size };
    const unchanged = notModified(headers, validators);
    const answer = request.method === 'GET' ? requestedRange(headers, validators) : undefined;
    if (answer?.kind === 'unsatisfiable' && !unchanged) {
      reply.header('Content-Range', `bytes */${info.size}`);
      throw new AppError(
        'range_not_satisfiable',
        `The requested range starts past the end of the file (${info.size} bytes).`,
      );
    }
    if (unchanged) {
      setHeaders(info);
      return reply.code(304).send();
    }
    if (request.method === 'HEAD') {
      setHeaders(info).header('Content-Length', info.size);
      return reply.send(Readable.from([]));
    }
    if (answer?.kind === 'part') range = { start: answer.start, end: answer.end };
  }
  const object = await fromStore(() => storage.get(key, range ? { range } : {}));
  if (!object) throw mediaNotFound();
  setHeaders(object).header('Content-Length', object.length);
  if (object.range) {
    reply.code(206).header('Content-Range', `bytes ${object.range.start}-${object.range.end}/${object.size}`);
  }
  // Streamed as it arrives; Fastify destroys it when the client goes away.
  return reply.send(object.body);
}

/** Seconds a player is told to wait before asking again while the media store is down. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/**
 * A store's not-found is a 404; any other failure (down, throttling, refused credentials) is
 * logged and answered 503 with Retry-After: the media is there, the store is not answering.
 */
function storeFailure(reply: FastifyReply, error: unknown, key: string): unknown {
  if (!(error instanceof StorageError)) return error;
  if (error.kind === 'not_found') return mediaNotFound();
  reply.log.error({ err: error, key }, 'media object unreadable from the object store');
  return serviceUnavailable(
    'The media store did not answer; this file is there, try again shortly.',
    STORE_RETRY_AFTER_SECONDS,
  );
}
