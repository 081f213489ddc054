// A stream's life in ingest, from an admitted publish to its end:
//
// - The stream goes live when the first segment is playable (then stream.started).
// - When the publisher drops, a reconnect window opens; publishing again inside it continues
//   the same stream (the playlist gets a discontinuity); when it closes the stream ends
//   (stream.ended) and, unless the stream was created with record: false, its recording
//   becomes a video (video.published).
// - When the publisher stops cleanly (it unpublished: Stop Streaming, or ffmpeg at the end of
//   its input), the same happens after a short grace instead of the whole window: the creator
//   meant to stop, so viewers should not wait a minute for an encoder that is not coming back,
//   yet one who presses Start again at once still continues the stream. Viewers are not told
//   the broadcaster lost their connection (no reconnecting marker), and the health board
//   raises no publisher_disconnected warning.
// - A stream ended elsewhere (an operator) is stopped: its publisher is cut off and its
//   recording kept.
//
// This class holds the state of every stream ingest is handling; admission asks it whether a
// stream may take a publisher, upkeep and restart recovery act through it.
import type { Logger } from 'pino';
import { datedFrom, type HlsSegment } from '../hls/hls-playlist.ts';
import type { MediaPaths } from '../media/media-paths.ts';
import type { Clock } from '../shared/clock.ts';
import { isStateConflict } from '../shared/errors.ts';
import type { StreamService } from '../streams/stream.service.ts';
import type { StreamRow } from '../streams/stream.table.ts';
import type { VideoService } from '../videos/video.service.ts';
import type { IngestHealthBoard } from './health/health-board.ts';
import { ffprobePathFor } from '../ffmpeg/ffmpeg.ts';
import type { TranscodeBudget } from '../transcode/budget.ts';
import type { TranscodeConfig } from '../transcode/ladder.ts';
import type { StreamLadder } from '../transcode/stream-ladder.ts';
import { FlvRelay } from '../live/flv-relay.ts';
import { fewerRungs, liveLadder } from '../live/live-ladder.ts';
import {
  HlsPackager,
  LOW_LATENCY_SEGMENT_SECONDS,
  SEGMENT_SECONDS,
  type PackagerPlan,
} from '../live/hls-packager.ts';
import type { LiveThumbnails } from './live-thumbnails.ts';
import { recordStreamAsVideo } from './recording.ts';
import type { PublishConnection } from '../rtmp/rtmp-server.ts';
import type { ThumbnailBacklog } from '../media/thumbnail-backlog.ts';
import { StreamFolder } from '../live/stream-folder.ts';
import { StreamState } from './stream-state.ts';

export interface LifecycleDeps {
  streams: StreamService;
  videos: VideoService;
  paths: MediaPaths;
  clock: Clock;
  logger: Logger;
  ffmpegPath: string;
  reconnectWindowMs: number;
  /** After a clean stop, how long the stream waits before ending (at most reconnectWindowMs). */
  cleanStopGraceMs: number;
  thumbnails: LiveThumbnails;
  /** Recordings published without a thumbnail are tried again by the upkeep. */
  thumbnailBacklog?: ThumbnailBacklog;
  /** Told when a publish starts, its encoder goes away, and the stream ends. */
  health?: IngestHealthBoard;
  /** The ladder (src/transcode/); without it, or with TRANSCODE=off, publishes are copied only. */
  transcode?: { config: TranscodeConfig; budget: TranscodeBudget } | undefined;
}

/** How long close() lets packagers write their last segment before killing them. */
const PACKAGER_STOP_MS = 5000;
/** Tries at publishing a recording before it is left to the next start's recovery. */
export const RECORDING_ATTEMPTS = 3;
const RECORDING_RETRY_MS = 1000;

export class StreamLifecycle {
  private readonly deps: LifecycleDeps;
  private readonly states = new Map<string, StreamState>();
  /** Ends in progress, awaited on close so no half-made video is left behind. */
  private readonly settling = new Set<Promise<void>>();
  private closingDown = false;

  constructor(deps: LifecycleDeps) {
    this.deps = deps;
  }

  /** True once shutdown began: no new publisher, no new reconnect window. */
  get closing(): boolean {
    return this.closingDown;
  }

  /** The stream's state while ingest handles it (publishing or inside its reconnect window). */
  state(streamId: string): StreamState | undefined {
    return this.states.get(streamId);
  }

  streamIds(): string[] {
    return [...this.states.keys()];
  }

  /** Live streams still taking media, for upkeep. */
  activeStates(): StreamState[] {
    return [...this.states.values()].filter((state) => state.active);
  }

  /** An admitted publisher: it becomes the stream's (next) publish. Runs without awaiting. */
  publish(stream: StreamRow, connection: PublishConnection): void {
    let state = this.states.get(stream.id);
    if (!state) {
      state = new StreamState(stream);
      this.states.set(stream.id, state);
    }
    this.attach(state, connection);
  }

  /** A stream found live after a restart, with its publishes so far: it gets its reconnect window. */
  adopt(stream: StreamRow, publishes: StreamState['publishes'], ladder?: StreamLadder): void {
    const state = new StreamState(stream);
    state.publishes.push(...publishes);
    // A ladder stream keeps its renditions and master; later publishes make the same rungs.
    if (ladder) {
      state.layout = 'ladder';
      state.ladder = ladder;
    } else if (publishes.some((publish) => publish.length > 0)) {
      state.layout = 'single';
    }
    this.states.set(stream.id, state);
    // How the last publish ended is not known after a restart: the whole window, as for a drop.
    this.openReconnectWindow(state, 'dropped');
  }

  private attach(state: StreamState, connection: PublishConnection): void {
    const { logger } = this.deps;
    clearTimeout(state.reconnectTimer);
    state.reconnectTimer = undefined;
    state.publisher = connection;
    if (state.reconnecting) this.markReconnecting(state, false);
    const index = state.publishes.length;
    // Set once the first packager exists; the hand-over below switches it.
    const link: { relay?: FlvRelay } = {};
    // A packager that dies (unreadable media, a backlog it cannot clear) ends the publish, so
    // the encoder sees the failure and reconnects instead of pushing into nothing; one that
    // handed the publish over to another simply ends.
    const watch = (started: HlsPackager) => {
      void started.finished.then(() => {
        state.packagers.delete(started);
        if (started === packager && !connection.closed) connection.disconnect();
      });
      return started;
    };
    // A transcoder that falls behind hands the rest of the publish, from a keyframe, to a new
    // packager with fewer rungs (a new publish folder: a discontinuity in every playlist).
    const handOver = (previous: HlsPackager, plan: PackagerPlan) => {
      const budget = this.deps.transcode?.budget;
      if (!budget || !link.relay) return;
      link.relay.switchAtNextKeyframe(() => {
        const forced = fewerRungs(plan, budget, connection.meter.measure().frameRate);
        logger.warn(
          {
            streamId: state.streamId,
            renditions: forced.plan.renditions.map((rendition) => rendition.name),
          },
          'rungs dropped; the publish goes on with fewer renditions',
        );
        packager = watch(this.startPackager(state, connection, handOver, { plan: forced, previous }));
        return packager.input;
      });
    };
    let packager = watch(this.startPackager(state, connection, handOver, undefined));
    const relay = new FlvRelay(packager.input);
    link.relay = relay;
    connection.accept(relay);
    this.deps.health?.publishing(state.streamId, connection.meter);
    logger.info(
      { streamId: state.streamId, publish: index, remote: connection.remoteAddress },
      'publish started',
    );

    connection.onClose(() => {
      if (state.publisher === connection) state.publisher = undefined;
      const refusal = connection.refusal;
      if (refusal) {
        // Refused after it started (a codec HLS cannot carry): nothing of it is kept.
        logger.info(
          {
            streamId: state.streamId,
            publish: index,
            remote: connection.remoteAddress,
            reason: refusal.reason,
          },
          'publish refused',
        );
        packager.kill();
      } else {
        relay.end();
      }
      const last = packager;
      // Read now: a clean stop is the encoder's own word, heard before its socket closed.
      const ended = connection.stoppedCleanly && !refusal ? 'stopped' : 'dropped';
      void last.finished.then((exit) => {
        if (exit.code !== 0 && !this.closingDown && !refusal) {
          logger.warn({ streamId: state.streamId, publish: index, error: exit.error }, 'packager failed');
        }
        logger.info({ streamId: state.streamId, publish: index, ended }, 'publish stopped');
        if (!state.publisher && !this.closingDown && !state.finishing) this.openReconnectWindow(state, ended);
      });
    });
  }

  /**
   * One packager of a publish, in the next publish folder: the publish's first, or one taking
   * over from `after.previous` (which fell behind) with the plan made for it. Segments of a
   * taking-over packager reach the playlists only once the previous one has written its last,
   * so playlists only ever grow at their end.
   */
  private startPackager(
    state: StreamState,
    connection: PublishConnection,
    handOver: (previous: HlsPackager, plan: PackagerPlan) => void,
    after: { plan: PackagerPlan; previous: HlsPackager } | undefined,
  ): HlsPackager {
    const { logger } = this.deps;
    const index = state.publishes.length;
    state.publishes.push([]);
    const folder = new StreamFolder(this.deps.paths, state.streamId);
    const publishLogger = logger.child({ streamId: state.streamId, publish: index });
    const transcode = this.deps.transcode;
    const ready = after ? after.previous.finished.then(() => undefined) : Promise.resolve();
    // The packager made below, for the ladder's hand-over callback.
    const made: { packager?: HlsPackager } = {};
    const ladder =
      transcode && transcode.config.mode === 'auto' && state.layout !== 'single'
        ? liveLadder({
            ...transcode,
            state,
            index,
            meter: connection.meter,
            logger: publishLogger,
            changed: () => this.segmentsChanged(state),
            forced: after?.plan,
            health: this.deps.health,
            clock: this.deps.clock,
            behind: (plan) => {
              if (made.packager) handOver(made.packager, plan);
            },
          })
        : undefined;
    const packager = new HlsPackager(
      this.deps.ffmpegPath,
      folder.publishDir(index),
      (segments) => {
        void ready.then(() =>
          state.enqueue(async () => {
            // A hand-over starts mid-connection: its segments keep ffmpeg's own dates.
            const dated = after ? segments : dateSegments(connection, segments);
            state.publishes[index] = StreamFolder.inPublish(index, dated);
            await this.segmentsChanged(state);
          }, logger),
        );
      },
      publishLogger,
      state.latencyMode === 'low' ? LOW_LATENCY_SEGMENT_SECONDS : SEGMENT_SECONDS,
      ladder,
    );
    made.packager = packager;
    state.packagers.add(packager);
    return packager;
  }

  /** New segments: publish the playlist, then go live on the first one. */
  private async segmentsChanged(state: StreamState): Promise<void> {
    if (state.finishing) return;
    if (!(await this.writePlaylists(state, false))) return;
    if (state.live) return;
    await this.deps.thumbnails.take(state);
    try {
      await this.deps.streams.goLive(state.streamId);
      state.live = true;
      const firstFrame = state.publisher?.firstMediaAt;
      this.deps.logger.info(
        { streamId: state.streamId, msSinceFirstFrame: firstFrame && this.deps.clock.now() - firstFrame },
        'stream is live',
      );
    } catch (error) {
      if (!isStateConflict(error)) throw error;
      // goLive lost a race (an operator moved the stream): follow what the database says.
      const current = await this.deps.streams.get(state.streamId);
      if (current.status === 'live') state.live = true;
      else if (current.status === 'ended') this.stopBecauseEnded(state);
    }
  }

  /** The stream's playlists; false while a ladder stream's master is not there yet. */
  private async writePlaylists(state: StreamState, ended: boolean): Promise<boolean> {
    const folder = new StreamFolder(this.deps.paths, state.streamId);
    if (!state.ladder) {
      await folder.writePlaylist(state.publishes, ended);
      return true;
    }
    const rungs = this.deps.transcode?.config.rungs ?? [];
    return folder.writeLadderPlaylists(
      state.publishes,
      state.ladder,
      ended,
      ffprobePathFor(this.deps.ffmpegPath),
      (name) => {
        const rung = rungs.find((candidate) => `${candidate.height}p` === name);
        return rung && rung.videoKbps * 1100;
      },
    );
  }

  /**
   * The publisher is gone: the stream waits for a publish that continues it, then ends. A drop
   * waits the whole reconnect window and the watch page says the broadcaster is reconnecting;
   * a clean stop waits only the grace (never longer than a drop would) and the page keeps
   * showing the stream as live until it ends, which is what it still is.
   */
  private openReconnectWindow(state: StreamState, ended: 'dropped' | 'stopped'): void {
    clearTimeout(state.reconnectTimer);
    if (this.closingDown) return;
    const { reconnectWindowMs, cleanStopGraceMs, health, logger, clock } = this.deps;
    const windowMs = ended === 'stopped' ? Math.min(cleanStopGraceMs, reconnectWindowMs) : reconnectWindowMs;
    const deadline = clock.now() + windowMs;
    if (ended === 'stopped') {
      logger.info(
        { streamId: state.streamId, seconds: windowMs / 1000 },
        'publisher stopped; the stream ends unless it publishes again',
      );
      health?.stopped(state.streamId, deadline);
    } else {
      logger.info(
        { streamId: state.streamId, seconds: windowMs / 1000 },
        'publisher gone; waiting for a reconnect',
      );
      health?.reconnecting(state.streamId, deadline);
      this.markReconnecting(state, true);
    }
    state.reconnectTimer = setTimeout(() => {
      state.reconnectTimer = undefined;
      if (!state.publisher) this.finish(state, { endStream: true });
    }, windowMs);
  }

  /** Tells the watch page (through the stream's folder), in order with the stream's other steps. */
  private markReconnecting(state: StreamState, reconnecting: boolean): void {
    state.reconnecting = reconnecting;
    void state.enqueue(
      () => new StreamFolder(this.deps.paths, state.streamId).setReconnecting(reconnecting),
      this.deps.logger,
    );
  }

  /** The stream was ended elsewhere (an operator): stop taking media and wrap up. */
  stopBecauseEnded(state: StreamState): void {
    state.publisher?.disconnect();
    clearTimeout(state.reconnectTimer);
    this.finish(state, { endStream: false });
  }

  private finish(state: StreamState, options: { endStream: boolean }): void {
    if (state.finishing) return;
    state.finishing = true;
    this.deps.health?.remove(state.streamId);
    if (state.reconnecting) this.markReconnecting(state, false);
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
    const { streams, logger } = this.deps;
    const folder = new StreamFolder(this.deps.paths, state.streamId);
    if (!state.hasSegments()) {
      // Never went live: nothing to end or keep.
      await folder.remove();
      return;
    }
    await this.writePlaylists(state, true);
    let stream: StreamRow;
    if (endStream && state.live) {
      try {
        stream = await streams.end(state.streamId);
        logger.info({ streamId: state.streamId }, 'stream ended');
      } catch (error) {
        // Ended by an operator meanwhile: the recording is kept all the same.
        if (!isStateConflict(error)) throw error;
        stream = await streams.get(state.streamId);
      }
    } else {
      stream = await streams.get(state.streamId);
    }
    if (stream.record !== 1) {
      await folder.removeAllButThumbnail();
      return;
    }
    await this.recordWithRetries(stream, state);
  }

  /**
   * The recording is what must not be lost: a failed attempt is logged at error with the
   * stream id and tried again; after the last one, restart recovery tries at the next start
   * (the folder's playlist is finished and the stream has no video).
   */
  private async recordWithRetries(stream: StreamRow, state: StreamState): Promise<void> {
    const { logger } = this.deps;
    for (let attempt = 1; ; attempt++) {
      try {
        const video = await recordStreamAsVideo(this.deps, stream, state.publishes, state.ladder);
        logger.info({ streamId: stream.id, videoId: video.id }, 'recording published as a video');
        await new StreamFolder(this.deps.paths, stream.id).markRecorded();
        return;
      } catch (error) {
        const last = attempt >= RECORDING_ATTEMPTS || this.closingDown;
        logger.error(
          { err: error, streamId: stream.id, attempt, of: RECORDING_ATTEMPTS },
          last ? 'recording failed; it is tried again at the next start' : 'recording failed; retrying',
        );
        if (last) return;
        await new Promise((resolve) => setTimeout(resolve, RECORDING_RETRY_MS * attempt));
      }
    }
  }

  /** Waits for every end in progress (recordings included). */
  async settle(): Promise<void> {
    while (this.settling.size > 0) await Promise.all([...this.settling]);
  }

  /** Refuses new publishers from now on; call before the listener drops its connections. */
  beginShutdown(): void {
    this.closingDown = true;
  }

  /**
   * Shutdown: publishers are disconnected and their last segments written, but streams are
   * not ended; the next start gives them their reconnect window (restart recovery).
   */
  async close(): Promise<void> {
    this.closingDown = true;
    for (const state of this.states.values()) {
      clearTimeout(state.reconnectTimer);
      state.publisher?.disconnect();
    }
    await this.settle();
    const packagers = [...this.states.values()].flatMap((state) => [...state.packagers]);
    const stopping = Promise.all(packagers.map((packager) => packager.finished));
    const force = setTimeout(() => {
      for (const packager of packagers) packager.kill();
    }, PACKAGER_STOP_MS);
    await stopping;
    clearTimeout(force);
    await Promise.all(
      [...this.states.values()].map((state) => state.enqueue(async () => undefined, this.deps.logger)),
    );
  }
}

/**
 * A publish's segments dated from when their frames reached the ingest (ffmpeg's own dates
 * start when its muxer did, seconds late). Dates are fixed by the first segment: a live
 * playlist only ever grows, so a date once listed never changes.
 */
function dateSegments(connection: PublishConnection, segments: HlsSegment[]): HlsSegment[] {
  let start = publishStarts.get(connection);
  if (start === undefined) {
    const origin = connection.mediaClockOrigin;
    if (origin === undefined) return segments;
    start = origin + (connection.firstMediaTimestamp ?? 0);
    publishStarts.set(connection, start);
  }
  return datedFrom(start, segments);
}

/** The wall-clock start of each publish's first segment, fixed when it is first listed. */
const publishStarts = new WeakMap<PublishConnection, number>();
