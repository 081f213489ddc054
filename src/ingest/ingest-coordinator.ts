// The rules of live ingest, per stream: who may publish, when the stream goes live, what a
// dropped connection means, and what happens when it is over.
//
// - A key of a scheduled (standby) or live stream may publish; an unknown key, an ended
//   stream's key or a second publisher is refused at once and changes nothing.
// - The stream goes live when the first segment is playable (then stream.started).
// - When the publisher drops, a reconnect window opens; publishing again inside it continues
//   the same stream (the playlist gets a discontinuity); when it closes the stream ends
//   (stream.ended) and, unless the stream was created with record: false, its recording
//   becomes a video (video.published).
//
// All work for one stream runs in order on that stream's queue, so the playlist and the
// stream's row are never written by two steps at once.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { HlsSegment } from '../media/hls-playlist.ts';
import { readPlaylist, renderPlaylist, writeFileAtomic } from '../media/hls-playlist.ts';
import { captureFrame } from '../media/ffmpeg.ts';
import { PLAYLIST_FILE, publishFolder, THUMBNAIL_FILE, type MediaPaths } from '../media/media-paths.ts';
import type { ViewerTracker } from '../media/viewer-tracker.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError, isStateConflict } from '../shared/errors.ts';
import type { StreamService } from '../streams/stream.service.ts';
import type { StreamRow } from '../streams/stream.table.ts';
import type { VideoService } from '../videos/video.service.ts';
import { HlsPackager, PUBLISH_PLAYLIST } from './hls-packager.ts';
import { PenaltyBox } from './penalty-box.ts';
import { recordStreamAsVideo } from './recording.ts';
import type { PublishConnection } from './rtmp-server.ts';

/** The RTMP application name in the ingest URL (rtmp://host:port/live). */
export const INGEST_APP = 'live';

export interface IngestDeps {
  streams: StreamService;
  videos: VideoService;
  paths: MediaPaths;
  viewers: ViewerTracker;
  clock: Clock;
  logger: Logger;
  ffmpegPath: string;
  reconnectWindowMs: number;
  thumbnailIntervalMs: number;
  /** Addresses that tried too many unknown keys (one with default settings unless given). */
  penalties?: PenaltyBox;
}

/** What ingest knows about one stream between its first publish and its end. */
class StreamState {
  readonly streamId: string;
  /** Segments of each publish, URIs relative to the stream's folder. */
  readonly publishes: HlsSegment[][] = [];
  live: boolean;
  record: boolean;
  publisher: PublishConnection | undefined;
  readonly packagers = new Set<HlsPackager>();
  reconnectTimer: NodeJS.Timeout | undefined;
  finishing = false;
  thumbnailTakenAt = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(stream: StreamRow) {
    this.streamId = stream.id;
    this.live = stream.status === 'live';
    this.record = stream.record === 1;
  }

  /** Runs `step` after every step queued before it; a failing step is logged, not fatal. */
  enqueue(step: () => Promise<void>, logger: Logger): Promise<void> {
    this.queue = this.queue.then(step).catch((error: unknown) => {
      logger.error({ err: error, streamId: this.streamId }, 'ingest step failed');
    });
    return this.queue;
  }

  hasSegments(): boolean {
    return this.publishes.some((publish) => publish.length > 0);
  }

  latestSegment(): HlsSegment | undefined {
    for (let i = this.publishes.length - 1; i >= 0; i--) {
      const segment = this.publishes[i]?.at(-1);
      if (segment) return segment;
    }
    return undefined;
  }
}

export class IngestCoordinator {
  private readonly deps: IngestDeps;
  private readonly states = new Map<string, StreamState>();
  /** Ends in progress, awaited on close so no half-made video is left behind. */
  private readonly settling = new Set<Promise<void>>();
  /** The viewer count last written per stream, so unchanged counts are not rewritten. */
  private readonly flushedCounts = new Map<string, number>();
  private closing = false;
  private readonly penalties: PenaltyBox;

  constructor(deps: IngestDeps) {
    this.deps = deps;
    this.penalties = deps.penalties ?? new PenaltyBox({ clock: deps.clock });
  }

  /** The RTMP server's handler: decides asynchronously, buffering the publisher meanwhile. */
  handlePublish = (connection: PublishConnection): void => {
    void this.admit(connection).catch((error: unknown) => {
      this.deps.logger.error({ err: error }, 'could not admit a publisher');
      connection.reject('The server could not start the stream.');
    });
  };

  private async admit(connection: PublishConnection): Promise<void> {
    // An address locked out for guessing keys is refused without a database lookup.
    const lockedForMs = this.penalties.lockedFor(connection.remoteAddress);
    const stream =
      this.closing || connection.app !== INGEST_APP || lockedForMs > 0
        ? undefined
        : await this.deps.streams.findByStreamKey(connection.streamKey);
    if (connection.closed) return;
    // From here on nothing awaits, so two publishers of one key cannot both get through.
    const refusal = this.refusal(connection, stream, lockedForMs);
    if (refusal) {
      if (refusal.reason === 'unknown_key') this.penalties.recordFailure(connection.remoteAddress);
      this.deps.logger.info(
        { streamId: stream?.id, remote: connection.remoteAddress, reason: refusal.reason },
        'publish refused',
      );
      connection.reject(refusal.message);
      return;
    }
    if (!stream) return;
    let state = this.states.get(stream.id);
    if (!state) {
      state = new StreamState(stream);
      this.states.set(stream.id, state);
    }
    this.attach(state, connection);
  }

  private refusal(
    connection: PublishConnection,
    stream: StreamRow | undefined,
    lockedForMs: number,
  ): { reason: string; message: string } | undefined {
    if (this.closing) return { reason: 'shutting_down', message: 'The server is shutting down.' };
    if (lockedForMs > 0) {
      return {
        reason: 'too_many_unknown_keys',
        message: `Too many invalid stream keys from this address; try again in ${Math.ceil(lockedForMs / 1000)} s.`,
      };
    }
    if (connection.app !== INGEST_APP) {
      return {
        reason: 'unknown_app',
        message: `Publish to rtmp://<host>:<port>/${INGEST_APP} with the stream key.`,
      };
    }
    if (!stream) return { reason: 'unknown_key', message: 'The stream key is not valid.' };
    const state = this.states.get(stream.id);
    if (stream.status === 'ended' || state?.finishing) {
      return { reason: 'stream_ended', message: 'This stream has ended.' };
    }
    if (state?.publisher && !state.publisher.closed) {
      return { reason: 'already_publishing', message: 'Another encoder is already publishing this stream.' };
    }
    return undefined;
  }

  private attach(state: StreamState, connection: PublishConnection): void {
    const { logger, paths } = this.deps;
    clearTimeout(state.reconnectTimer);
    state.reconnectTimer = undefined;
    state.publisher = connection;
    const index = state.publishes.length;
    state.publishes.push([]);
    const prefix = `${publishFolder(index)}/`;
    const packager = new HlsPackager(
      this.deps.ffmpegPath,
      paths.publishDir(state.streamId, index),
      (segments) => {
        void state.enqueue(async () => {
          state.publishes[index] = segments.map((segment) => ({ ...segment, uri: prefix + segment.uri }));
          await this.segmentsChanged(state);
        }, logger);
      },
    );
    state.packagers.add(packager);
    connection.accept(packager.input);
    logger.info(
      { streamId: state.streamId, publish: index, remote: connection.remoteAddress },
      'publish started',
    );

    // A packager that dies (unreadable media, a backlog it cannot clear) ends the publish, so
    // the encoder sees the failure and reconnects instead of pushing into nothing.
    void packager.finished.then(() => {
      if (!connection.closed) connection.disconnect();
    });
    connection.onClose(() => {
      if (state.publisher === connection) state.publisher = undefined;
      packager.input.end();
      void packager.finished.then((exit) => {
        state.packagers.delete(packager);
        if (exit.code !== 0 && !this.closing) {
          logger.warn({ streamId: state.streamId, publish: index, error: exit.error }, 'packager failed');
        }
        logger.info({ streamId: state.streamId, publish: index }, 'publish stopped');
        if (!state.publisher && !this.closing && !state.finishing) this.openReconnectWindow(state);
      });
    });
  }

  /** New segments: publish the playlist, then go live on the first one. */
  private async segmentsChanged(state: StreamState): Promise<void> {
    if (state.finishing) return;
    await this.writePlaylist(state, false);
    if (!state.live) {
      await this.refreshThumbnail(state);
      try {
        await this.deps.streams.goLive(state.streamId);
        state.live = true;
        const firstFrame = state.publisher?.firstMediaAt;
        this.deps.logger.info(
          { streamId: state.streamId, msSinceFirstFrame: firstFrame && this.deps.clock.now() - firstFrame },
          'stream is live',
        );
      } catch (error) {
        await this.resolveConflict(state, error);
      }
    }
  }

  /** goLive lost a race (an operator moved the stream): follow what the database says. */
  private async resolveConflict(state: StreamState, error: unknown): Promise<void> {
    if (!isStateConflict(error)) throw error;
    const current = await this.deps.streams.get(state.streamId);
    if (current.status === 'live') state.live = true;
    else if (current.status === 'ended') this.stopBecauseEnded(state);
  }

  private openReconnectWindow(state: StreamState): void {
    clearTimeout(state.reconnectTimer);
    if (this.closing) return;
    this.deps.logger.info(
      { streamId: state.streamId, seconds: this.deps.reconnectWindowMs / 1000 },
      'publisher gone; waiting for a reconnect',
    );
    state.reconnectTimer = setTimeout(() => {
      state.reconnectTimer = undefined;
      if (!state.publisher) this.finish(state, { endStream: true });
    }, this.deps.reconnectWindowMs);
  }

  /** The stream was ended elsewhere (an operator): stop taking media and wrap up. */
  private stopBecauseEnded(state: StreamState): void {
    state.publisher?.disconnect();
    clearTimeout(state.reconnectTimer);
    this.finish(state, { endStream: false });
  }

  private finish(state: StreamState, options: { endStream: boolean }): void {
    if (state.finishing) return;
    state.finishing = true;
    const done = state
      .enqueue(async () => {
        await Promise.all([...state.packagers].map((packager) => packager.finished));
        await this.wrapUp(state, options.endStream);
      }, this.deps.logger)
      .finally(() => {
        this.states.delete(state.streamId);
        this.settling.delete(done);
      });
    this.settling.add(done);
  }

  private async wrapUp(state: StreamState, endStream: boolean): Promise<void> {
    const { streams, logger, paths } = this.deps;
    const streamDir = paths.streamDir(state.streamId);
    if (!state.hasSegments()) {
      // Never went live: nothing to end or keep.
      await fs.rm(streamDir, { recursive: true, force: true });
      return;
    }
    await this.writePlaylist(state, true);
    let stream: StreamRow;
    if (endStream && state.live) {
      try {
        stream = await streams.end(state.streamId);
        logger.info({ streamId: state.streamId }, 'stream ended');
      } catch (error) {
        if (!isStateConflict(error)) throw error;
        stream = await streams.get(state.streamId);
      }
    } else {
      stream = await streams.get(state.streamId);
    }
    if (stream.record !== 1) {
      // record: false keeps no recording; the thumbnail stays for the stream's thumbnail_url.
      const entries = await fs.readdir(streamDir);
      await Promise.all(
        entries
          .filter((entry) => entry !== THUMBNAIL_FILE)
          .map((entry) => fs.rm(path.join(streamDir, entry), { recursive: true, force: true })),
      );
      return;
    }
    const video = await recordStreamAsVideo(this.deps, stream, state.publishes);
    logger.info({ streamId: state.streamId, videoId: video.id }, 'recording published as a video');
  }

  private async writePlaylist(state: StreamState, ended: boolean): Promise<void> {
    await writeFileAtomic(
      path.join(this.deps.paths.streamDir(state.streamId), PLAYLIST_FILE),
      renderPlaylist({ publishes: state.publishes, type: 'EVENT', ended }),
    );
  }

  private async refreshThumbnail(state: StreamState): Promise<void> {
    const segment = state.latestSegment();
    if (!segment) return;
    const streamDir = this.deps.paths.streamDir(state.streamId);
    try {
      await captureFrame(
        this.deps.ffmpegPath,
        path.join(streamDir, segment.uri),
        path.join(streamDir, THUMBNAIL_FILE),
      );
      const now = this.deps.clock.now();
      state.thumbnailTakenAt = now;
      await this.deps.streams.recordThumbnail(state.streamId, now);
    } catch (error) {
      // A missed thumbnail is retried on the next tick; it never holds up the stream.
      state.thumbnailTakenAt = this.deps.clock.now();
      this.deps.logger.warn({ err: error, streamId: state.streamId }, 'thumbnail failed');
    }
  }

  /**
   * Periodic upkeep: viewer counts into the database, thumbnails about every 20 s, and
   * noticing a stream an operator ended while it was being published.
   */
  async tick(): Promise<void> {
    const { streams, viewers, logger } = this.deps;
    for (const state of [...this.states.values()]) {
      if (!state.live || state.finishing) continue;
      const current = await streams.get(state.streamId).catch(() => undefined);
      if (current?.status === 'ended') {
        void state.enqueue(async () => {
          this.stopBecauseEnded(state);
        }, logger);
      }
    }
    const ids = new Set([...this.states.keys(), ...viewers.streamIds(), ...this.flushedCounts.keys()]);
    for (const id of ids) {
      const state = this.states.get(id);
      if (state && (!state.live || state.finishing)) continue;
      const count = viewers.count(id);
      if (this.flushedCounts.get(id) === count) {
        if (count === 0 && !state) this.flushedCounts.delete(id);
        continue;
      }
      this.flushedCounts.set(id, count);
      try {
        await streams.setViewerCount(id, count);
      } catch (error) {
        // A stream that is not live (any more) has no viewer count to keep.
        if (!(error instanceof AppError)) logger.error({ err: error, streamId: id }, 'viewer count failed');
      }
    }
    for (const state of this.states.values()) {
      if (!state.live || state.finishing || !state.publisher) continue;
      const now = this.deps.clock.now();
      if (now - state.thumbnailTakenAt < this.deps.thumbnailIntervalMs) continue;
      state.thumbnailTakenAt = now;
      void state.enqueue(() => this.refreshThumbnail(state), logger);
    }
  }

  /**
   * After a restart: a stream that was live with media on disk gets its reconnect window, so
   * an encoder that reconnects continues it and one that does not ends it.
   */
  async adoptInterruptedStreams(): Promise<void> {
    const { paths, streams, logger } = this.deps;
    let entries: string[];
    try {
      entries = await fs.readdir(paths.streamsRoot);
    } catch {
      return;
    }
    for (const id of entries) {
      if (!id.startsWith('str_') || this.states.has(id)) continue;
      const playlist = await readPlaylist(path.join(paths.streamDir(id), PLAYLIST_FILE));
      if (playlist.ended) continue;
      let stream: StreamRow;
      try {
        stream = await streams.get(id);
      } catch {
        continue;
      }
      if (stream.status !== 'live') continue;
      const state = new StreamState(stream);
      for (let index = 0; ; index++) {
        const dir = paths.publishDir(id, index);
        const exists = await fs.stat(dir).then(
          () => true,
          () => false,
        );
        if (!exists) break;
        const { segments } = await readPlaylist(path.join(dir, PUBLISH_PLAYLIST));
        const prefix = `${publishFolder(index)}/`;
        state.publishes.push(segments.map((segment) => ({ ...segment, uri: prefix + segment.uri })));
      }
      this.states.set(id, state);
      logger.info({ streamId: id }, 'resuming a stream interrupted by a restart');
      this.openReconnectWindow(state);
    }
  }

  /** Waits for every end in progress (recordings included). */
  async settle(): Promise<void> {
    while (this.settling.size > 0) await Promise.all([...this.settling]);
  }

  /**
   * Shutdown: publishers are disconnected and their last segments written, but streams are
   * not ended; the next start gives them their reconnect window (adoptInterruptedStreams).
   */
  /** Refuses new publishers from now on; call before the listener drops its connections. */
  beginShutdown(): void {
    this.closing = true;
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const state of this.states.values()) {
      clearTimeout(state.reconnectTimer);
      state.publisher?.disconnect();
    }
    await this.settle();
    const packagers = [...this.states.values()].flatMap((state) => [...state.packagers]);
    const stopping = Promise.all(packagers.map((packager) => packager.finished));
    const force = setTimeout(() => {
      for (const packager of packagers) packager.kill();
    }, 5000);
    await stopping;
    clearTimeout(force);
    await Promise.all(
      [...this.states.values()].map((state) => state.enqueue(async () => undefined, this.deps.logger)),
    );
  }

  /** Streams ingest is handling now (publishing or inside their reconnect window). */
  activeStreamIds(): string[] {
    return [...this.states.keys()];
  }
}
