// The origin of live streams held by other machines (issue 25). With many ingest processes a
// live stream's folder is on the machine that holds it (src/ingest/stream-leases.ts); the origin
// (an API process, or another ingest process) answers the stream's playlists and segments at the
// same playback URL by streaming them through from the holder (never buffered whole), found by
// the stream's lease. One process (`npm start`) has every live folder on its disk and never
// asks: this is only consulted when a file is not there, and only where it is enabled.
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import { renderPlaylist, type HlsSegment } from '../hls/hls-playlist.ts';
import { LIVE_STATE_FILE, MAX_LIVE_STATE_BYTES, parseLiveState, type LiveState } from '../hls/live-state.ts';
import type { MediaStorage } from '../storage/media-storage.ts';
import { streamKey } from '../storage/media-keys.ts';
import { SOURCE_RENDITION } from '../transcode/ladder.ts';
import { cacheControlOf, sendStoredMedia } from './media-files.ts';
import { PLAYLIST_FILE } from './media-paths.ts';

/** A stream's holder is looked up at most this often per stream (players fetch every ~2 s). */
const LOCATE_TTL_MS = 1000;
/** How long the holder may take to answer with headers. */
const PROXY_HEADERS_MS = 10_000;
/** Marks a request the origin sent, so a holder never passes it on again (no loops). */
export const PROXIED_HEADER = 'x-tributary-origin';
const FORWARDED_REQUEST_HEADERS = ['range', 'if-none-match', 'if-modified-since'] as const;
const FORWARDED_RESPONSE_HEADERS = [
  'content-type',
  'content-length',
  'content-range',
  'accept-ranges',
  'cache-control',
  'etag',
  'last-modified',
  'retry-after',
] as const;

export interface LiveHolder {
  /** Where the holder serves its media; null when it did not say (INGEST_ORIGIN_URL unset). */
  originUrl: string | null;
  /** The holder waits for its encoder to reconnect. */
  waiting: boolean;
}

export class LiveOrigins {
  private readonly db: Db;
  private readonly clock: Clock;
  /** This process's own INGEST_ORIGIN_URL: never proxied to. */
  readonly selfUrl: string | undefined;
  private readonly cache = new Map<string, { at: number; holder: LiveHolder | undefined }>();

  constructor(db: Db, clock: Clock, selfUrl?: string) {
    this.db = db;
    this.clock = clock;
    this.selfUrl = selfUrl?.replace(/\/$/, '');
  }

  /** The stream's current holder, or undefined when none holds it (its holder died, or it ended). */
  async locate(streamId: string): Promise<LiveHolder | undefined> {
    const now = this.clock.now();
    const known = this.cache.get(streamId);
    if (known && now - known.at < LOCATE_TTL_MS) return known.holder;
    const row = await this.db
      .selectFrom('stream_leases')
      .select(['origin_url', 'waiting'])
      .where('stream_id', '=', streamId)
      .where('expires_at', '>=', now)
      .executeTakeFirst();
    const holder = row && {
      originUrl: row.origin_url?.replace(/\/$/, '') ?? null,
      waiting: row.waiting === 1,
    };
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(streamId, { at: now, holder });
    return holder;
  }

  /** Where to fetch a stream's file from, or undefined when this process should answer 404. */
  async holderUrl(request: FastifyRequest, streamId: string): Promise<string | undefined> {
    if (request.headers[PROXIED_HEADER] !== undefined) return undefined;
    const holder = await this.locate(streamId);
    if (!holder?.originUrl || holder.originUrl === this.selfUrl) return undefined;
    return holder.originUrl;
  }
}

/**
 * Streams `path` from the holder through to the client: status and caching headers as the
 * holder answered them, the body piped as it arrives. The client's address goes along in
 * X-Forwarded-For (the holder's TRUST_PROXY names the origins, so its playlist limit counts
 * clients, not the origin).
 */
export async function proxyFromHolder(
  request: FastifyRequest,
  reply: FastifyReply,
  holderUrl: string,
  path: string,
): Promise<FastifyReply> {
  const controller = new AbortController();
  const abort = () => {
    controller.abort();
  };
  request.raw.once('close', abort);
  const timer = setTimeout(abort, PROXY_HEADERS_MS);
  const headers: Record<string, string> = { [PROXIED_HEADER]: '1', 'x-forwarded-for': request.ip };
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  let upstream: Response;
  try {
    upstream = await fetch(`${holderUrl}${path}`, { headers, signal: controller.signal, redirect: 'manual' });
  } catch {
    request.raw.off('close', abort);
    throw new AppError(
      'service_unavailable',
      'The ingest machine holding this stream did not answer; try again.',
    );
  } finally {
    clearTimeout(timer);
  }
  if (
    upstream.status >= 500 ||
    (upstream.status >= 300 && upstream.status < 400 && upstream.status !== 304)
  ) {
    await upstream.body?.cancel();
    request.raw.off('close', abort);
    throw new AppError(
      'service_unavailable',
      'The ingest machine holding this stream could not answer; try again.',
    );
  }
  if (upstream.status === 404) {
    await upstream.body?.cancel();
    request.raw.off('close', abort);
    throw new AppError('resource_not_found', 'No such media file.');
  }
  reply.code(upstream.status);
  for (const name of FORWARDED_RESPONSE_HEADERS) {
    const value = upstream.headers.get(name);
    if (value !== null) reply.header(name, value);
  }
  if (upstream.body === null) return reply.send();
  const body = Readable.fromWeb(upstream.body as import('node:stream/web').ReadableStream<Uint8Array>);
  body.once('close', () => request.raw.off('close', abort));
  return reply.send(body);
}

/** The state read from the store is kept this long per stream (players fetch every ~2 s). */
const STATE_TTL_MS = 1000;

/**
 * A live stream no machine holds right now (its holder died; the encoder has not landed on
 * another yet), answered from what the holder copied to the object store: the playlist as it
 * was (EVENT, not ended, so players wait for more) and its segments. Players keep their place
 * and play on once the stream continues elsewhere, at the same URL.
 */
export class StoredLiveStreams {
  private readonly storage: MediaStorage;
  private readonly states = new Map<string, { at: number; state: LiveState | undefined }>();

  constructor(storage: MediaStorage) {
    this.storage = storage;
  }

  /** Answers `name` of the stream from the store (true); false when the store has nothing for it. */
  async send(request: FastifyRequest, reply: FastifyReply, streamId: string, name: string): Promise<boolean> {
    let key: string;
    try {
      key = streamKey(streamId, name);
    } catch {
      return false;
    }
    if (!name.endsWith('.m3u8')) {
      await sendStoredMedia(request, reply, this.storage, key, 'immutable');
      return true;
    }
    const state = await this.state(streamId);
    if (!state) return false;
    const rendition = name.slice(0, -'.m3u8'.length);
    let publishes: HlsSegment[][] | undefined;
    if (!state.ladder) {
      if (name === PLAYLIST_FILE) publishes = state.publishes;
    } else if (name === PLAYLIST_FILE) {
      // A ladder stream's master, copied as it was written.
      await sendStoredMedia(request, reply, this.storage, key, 'live-playlist');
      return true;
    } else if (rendition === SOURCE_RENDITION) {
      publishes = state.publishes;
    } else {
      const made = state.ladder.made[rendition];
      if (made) publishes = state.publishes.map((source, index) => made[index] ?? source);
    }
    if (!publishes) return false;
    await reply
      .header('Content-Type', 'application/vnd.apple.mpegurl')
      .header('Cache-Control', cacheControlOf('live-playlist'))
      .send(renderPlaylist({ publishes, type: 'EVENT', ended: false }));
    return true;
  }

  private async state(streamId: string): Promise<LiveState | undefined> {
    const known = this.states.get(streamId);
    if (known && Date.now() - known.at < STATE_TTL_MS) return known.state;
    const object = await this.storage.get(streamKey(streamId, LIVE_STATE_FILE));
    let state: LiveState | undefined;
    if (object && object.length <= MAX_LIVE_STATE_BYTES) {
      const chunks: Buffer[] = [];
      for await (const chunk of object.body) chunks.push(chunk as Buffer);
      state = parseLiveState(Buffer.concat(chunks).toString('utf8'));
    } else {
      object?.body.destroy();
    }
    if (this.states.size > 10_000) this.states.clear();
    this.states.set(streamId, { at: Date.now(), state });
    return state;
  }
}
