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
import type { HlsSegment } from '../hls/hls-playlist.ts';
import { ffprobePathFor } from '../ffmpeg/ffmpeg.ts';
import { LivePublish, type PublishEnd } from '../live/live-publish.ts';
import { LiveStream } from '../live/live-stream.ts';
import type { PublishOutput } from '../live/publish-output.ts';
import type { MediaPaths } from '../media/media-paths.ts';
import type { ThumbnailBacklog } from '../media/thumbnail-backlog.ts';
import type { Publisher } from '../rtmp/publisher.ts';
import type { Clock } from '../shared/clock.ts';
import { isStateConflict } from '../shared/errors.ts';
import type { StreamService } from '../streams/stream.service.ts';
import type { StreamRow } from '../streams/stream.table.ts';
import type { TranscodeBudget } from '../transcode/budget.ts';
import type { TranscodeConfig } from '../transcode/ladder.ts';
import type { StreamLadder } from '../transcode/stream-ladder.ts';
import type { VideoService } from '../videos/video.service.ts';
import type { IngestHealthBoard } from './health/health-board.ts';
import type { LiveThumbnails } from './live-thumbnails.ts';
import { recordWithRetries } from './recording.ts';
import { StreamState } from './stream-state.ts';
import type { StreamLeases } from './stream-leases.ts';
import type { LiveMirror } from './live-mirror.ts';

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
  /** Outputs every publish is also sent to (src/live/publish-output.ts), registered by the composition root. */
  outputs?: readonly PublishOutput[];
  /**
   * Many ingest processes (stream-leases.ts): the stream's lease is renewed while this process
   * handles it, marked waiting while it waits for a reconnect (which may land on another process,
   * which may then take it), taken again before the window's end ends it, and released when it
   * is finished or this process drains.
   */
  leases?: StreamLeases | undefined;
  /**
   * Many ingest processes with an object store (live-mirror.ts): segments and playlist state
   * are copied there as they are written, and a stream taken over from a process that died
   * continues from them.
   */
  mirror?: LiveMirror | undefined;
}

/** How long close() lets packagers write their last segment before killing them. */
const PACKAGER_STOP_MS = 5000;

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

  /**
   * Publishes running copy-only for want of CPU room gain their ladder if the budget has room
   * now (one at a time: the next is asked at the next tick, once this one's admission counts).
   */
  offerTranscodingRoom(): void {
    for (const state of this.activeStates()) {
      if (state.publish?.gainLadder()) return;
    }
  }

  /** An admitted publisher: it becomes the stream's (next) publish. Runs without awaiting. */
  publish(stream: StreamRow, connection: Publisher): void {
    let state = this.states.get(stream.id);
    if (!state) {
      state = new StreamState(stream, this.liveStream(stream));
      this.states.set(stream.id, state);
      const { mirror } = this.deps;
      // Live already, yet not here: another ingest process had it (it died, or drained).
      if (mirror && stream.status === 'live') {
        void this.takeOver(state, connection, mirror);
        return;
      }
    }
    this.attach(state, connection);
  }

  /**
   * Continues a stream another process had: its mirrored publishes come first (their files are
   * fetched on the stream's queue, before anything writes its playlists), then this publisher.
   * The publisher's media waits in its connection meanwhile.
   */
  private async takeOver(state: StreamState, connection: Publisher, mirror: LiveMirror): Promise<void> {
    const { logger } = this.deps;
    try {
      const mirrored = await mirror.load(state.streamId);
      if (mirrored) {
        const fetch = mirror.restore(state.media, mirrored);
        void state.media.enqueue(fetch);
        logger.info(
          { streamId: state.streamId, publishes: mirrored.publishes.length },
          'took over a live stream from another ingest process',
        );
      }
    } catch (error) {
      logger.error(
        { err: error, streamId: state.streamId },
        'could not restore a live stream from the store',
      );
    }
    if (connection.closed || state.finishing) {
      if (!state.publish) this.publisherGone(state, 'dropped');
      return;
    }
    this.attach(state, connection);
  }

  /** A stream found live after a restart, with its publishes so far: it gets its reconnect window. */
  adopt(stream: StreamRow, publishes: HlsSegment[][], ladder?: StreamLadder): void {
    const state = new StreamState(stream, this.liveStream(stream));
    state.media.publishes.push(...publishes);
    // A ladder stream keeps its renditions and master; later publishes make the same rungs.
    if (ladder) {
      state.media.layout = 'ladder';
      state.media.ladder = ladder;
    } else if (publishes.some((publish) => publish.length > 0)) {
      state.media.layout = 'single';
    }
    this.states.set(stream.id, state);
    // How the last publish ended is not known after a restart: the whole window, as for a drop.
    this.publisherGone(state, 'dropped');
  }

  private liveStream(stream: StreamRow): LiveStream {
    const rungs = this.deps.transcode?.config.rungs ?? [];
    return new LiveStream({
      streamId: stream.id,
      latencyMode: stream.latency_mode,
      paths: this.deps.paths,
      ffprobePath: ffprobePathFor(this.deps.ffmpegPath),
      rungPeakBps: (name) => {
        const rung = rungs.find((candidate) => `${candidate.height}p` === name);
        return rung && rung.videoKbps * 1100;
      },
      logger: this.deps.logger,
    });
  }

  /** publishing <- reconnecting | stopping | (new): the publisher's media becomes the stream's. */
  private attach(state: StreamState, connection: Publisher): void {
    clearTimeout(state.reconnectTimer);
    state.reconnectTimer = undefined;
    if (state.reconnecting) this.markReconnecting(state, false);
    state.phase = 'publishing';
    const publish = new LivePublish(state.media, connection, {
      ffmpegPath: this.deps.ffmpegPath,
      clock: this.deps.clock,
      logger: this.deps.logger,
      transcode: this.deps.transcode,
      outputs: this.deps.outputs ?? [],
      creatorId: state.creatorId,
      outputsAfter: state.outputsFinished,
    });
    state.outputsFinished = publish.outputsFinished();
    state.publish = publish;
    state.publishes.add(publish);
    publish.on('segments', () => {
      void state.media.enqueue(() => this.segmentsChanged(state));
    });
    publish.on('transcoding', (decision) => {
      this.deps.health?.transcoding(state.streamId, decision);
    });
    publish.on('ended', (end) => {
      this.publishEnded(state, publish, end);
    });
    publish.start();
    this.deps.health?.publishing(state.streamId, connection.meter);
  }

  private publishEnded(state: StreamState, publish: LivePublish, end: PublishEnd): void {
    state.publishes.delete(publish);
    if (end.failure && !this.closingDown) {
      this.deps.logger.warn(
        { streamId: state.streamId, publish: publish.index, error: end.failure.error },
        'packager failed',
      );
    }
    if (state.publish !== publish) return;
    state.publish = undefined;
    if (this.closingDown || state.finishing) return;
    this.publisherGone(state, end.how === 'stopped' ? 'stopped' : 'dropped');
  }

  /** New segments: publish the playlists, then go live on the first one. */
  private async segmentsChanged(state: StreamState): Promise<void> {
    if (state.finishing) return;
    if (!(await state.media.writePlaylists(false))) return;
    this.deps.mirror?.changed(state.media);
    if (state.live) return;
    await this.deps.thumbnails.take(state.media);
    try {
      await this.deps.streams.goLive(state.streamId);
      state.live = true;
      const firstFrame = state.publish?.connection.firstMediaAt;
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

  /**
   * publishing -> reconnecting | stopping. The stream waits for a publish that continues it,
   * then ends. A drop waits the whole reconnect window and the watch page says the broadcaster
   * is reconnecting; a clean stop waits only the grace (never longer than a drop would) and
   * the page keeps showing the stream as live until it ends, which is what it still is.
   */
  private publisherGone(state: StreamState, ended: 'dropped' | 'stopped'): void {
    clearTimeout(state.reconnectTimer);
    if (this.closingDown) return;
    const { reconnectWindowMs, cleanStopGraceMs, health, logger, clock } = this.deps;
    const windowMs = ended === 'stopped' ? Math.min(cleanStopGraceMs, reconnectWindowMs) : reconnectWindowMs;
    const deadline = clock.now() + windowMs;
    if (ended === 'stopped') {
      state.phase = 'stopping';
      logger.info(
        { streamId: state.streamId, seconds: windowMs / 1000 },
        'publisher stopped; the stream ends unless it publishes again',
      );
      health?.stopped(state.streamId, deadline);
    } else {
      state.phase = 'reconnecting';
      logger.info(
        { streamId: state.streamId, seconds: windowMs / 1000 },
        'publisher gone; waiting for a reconnect',
      );
      health?.reconnecting(state.streamId, deadline);
      this.markReconnecting(state, true);
    }
    state.reconnectTimer = setTimeout(() => {
      state.reconnectTimer = undefined;
      if (state.publish) return;
      const { leases } = this.deps;
      if (!leases) {
        this.finish(state, { endStream: true });
        return;
      }
      // The encoder may have reconnected to another ingest process: only the holder ends it.
      void leases.acquire(state.streamId).then(
        (held) => {
          if (state.publish || state.finishing) return;
          if (held) this.finish(state, { endStream: true });
          else this.handOver(state);
        },
        (error: unknown) => {
          logger.error(
            { err: error, streamId: state.streamId },
            'could not take the lease to end the stream',
          );
          this.finish(state, { endStream: true });
        },
      );
    }, windowMs);
  }

  /**
   * Renews the leases of the streams this process handles (those waiting for a reconnect marked
   * so: another process may take them); hands over those another process took, and shares the
   * others' health.
   */
  async renewLeases(): Promise<void> {
    const { leases, logger } = this.deps;
    if (!leases) return;
    const states = [...this.states.values()];
    let lost: string[];
    try {
      lost = await leases.renew(
        states.map((state) => state.streamId),
        states
          .filter((state) => state.reconnecting || state.phase === 'stopping')
          .map((state) => state.streamId),
      );
    } catch (error) {
      logger.warn({ err: error }, 'could not renew stream leases');
      return;
    }
    for (const id of lost) {
      const state = this.states.get(id);
      if (!state || state.finishing) continue;
      logger.warn({ streamId: id }, 'another ingest process took the stream over; letting it go');
      this.handOver(state);
    }
    // Other API processes answer the creator's reads of these streams from what is shared here.
    const { health } = this.deps;
    if (!leases.sharesHealth || !health) return;
    const reports = states.flatMap((state) => {
      const report = lost.includes(state.streamId) ? null : health.report(state.streamId);
      return report === null ? [] : [[state.streamId, report] as const];
    });
    await leases.shareHealth(reports).catch((error: unknown) => {
      logger.warn({ err: error }, "could not share the streams' health");
    });
  }

  /**
   * Many ingest processes with an object store: live streams whose holder died and whose
   * encoder did not come back anywhere within the reconnect window (their lease lapsed longer
   * ago than that) are ended here, their recording made from what the holder copied to the store.
   */
  async endOrphans(): Promise<void> {
    const { leases, mirror, logger, reconnectWindowMs, streams } = this.deps;
    if (!leases || !mirror || this.closingDown) return;
    for (const id of await leases.lapsedSince(reconnectWindowMs)) {
      if (this.states.has(id) || !(await leases.acquire(id))) continue;
      const stream = await streams.get(id);
      if (stream.status !== 'live' || this.states.has(id)) {
        await leases.release([id]);
        continue;
      }
      const state = new StreamState(stream, this.liveStream(stream));
      this.states.set(id, state);
      const mirrored = await mirror.load(id).catch(() => undefined);
      if (mirrored) void state.media.enqueue(mirror.restore(state.media, mirrored));
      logger.warn(
        { streamId: id },
        'ending a live stream whose ingest machine died and whose encoder never came back',
      );
      this.finish(state, { endStream: true });
    }
  }

  /**
   * Another ingest process holds the stream now: stop taking its media here without ending it
   * (the holder ends it and makes its recording).
   */
  private handOver(state: StreamState): void {
    clearTimeout(state.reconnectTimer);
    state.reconnectTimer = undefined;
    state.phase = 'finishing';
    state.publish?.connection.disconnect();
    this.deps.health?.remove(state.streamId);
    this.deps.mirror?.forget(state.streamId);
    const done = state.media
      .enqueue(async () => {
        await Promise.all(runningPackagers(state).map((packager) => packager.finished));
      })
      .finally(() => {
        this.states.delete(state.streamId);
        this.settling.delete(done);
      });
    this.settling.add(done);
  }

  /** Tells the watch page (through the stream's folder), in order with the stream's other steps. */
  private markReconnecting(state: StreamState, reconnecting: boolean): void {
    void state.media.enqueue(() => state.media.folder.setReconnecting(reconnecting));
  }

  /** The stream was ended elsewhere (an operator): stop taking media and wrap up. */
  stopBecauseEnded(state: StreamState): void {
    state.publish?.connection.disconnect();
    clearTimeout(state.reconnectTimer);
    this.finish(state, { endStream: false });
  }

  /** -> finishing: once every packager has written its last, the stream ends and is recorded. */
  private finish(state: StreamState, options: { endStream: boolean }): void {
    if (state.finishing) return;
    const wasReconnecting = state.reconnecting;
    state.phase = 'finishing';
    this.deps.health?.remove(state.streamId);
    if (wasReconnecting) this.markReconnecting(state, false);
    const done = state.media
      .enqueue(async () => {
        await Promise.all(runningPackagers(state).map((packager) => packager.finished));
        await this.wrapUp(state, options.endStream);
        await this.deps.leases?.release([state.streamId]);
      })
      .finally(() => {
        this.states.delete(state.streamId);
        this.settling.delete(done);
      });
    this.settling.add(done);
  }

  private async wrapUp(state: StreamState, endStream: boolean): Promise<void> {
    const { streams, logger, mirror } = this.deps;
    const { media } = state;
    if (!media.hasSegments()) {
      // Never went live: nothing to end or keep.
      await media.folder.remove();
      await mirror?.remove(state.streamId);
      return;
    }
    await media.writePlaylists(true);
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
      await media.folder.removeAllButThumbnail();
      await mirror?.remove(state.streamId);
      return;
    }
    if (await recordWithRetries(this.deps, stream, media, () => this.closingDown))
      await mirror?.remove(state.streamId);
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
   * Shutdown: publishers are disconnected, their last segments written and their outputs
   * stopped, but streams are not ended; the next start gives them their reconnect window
   * (restart recovery).
   */
  async close(): Promise<void> {
    this.closingDown = true;
    for (const state of this.states.values()) {
      clearTimeout(state.reconnectTimer);
      state.publish?.connection.disconnect();
    }
    await this.settle();
    const states = [...this.states.values()];
    const stopping = Promise.all([
      ...states.flatMap(runningPackagers).map((packager) => packager.finished),
      ...states.map((state) => state.outputsFinished),
    ]);
    const force = setTimeout(() => {
      for (const state of states) for (const publish of state.publishes) publish.kill();
    }, PACKAGER_STOP_MS);
    await stopping;
    clearTimeout(force);
    await Promise.all(states.map((state) => state.media.enqueue(async () => undefined)));
    // Their last segments reach the store before another process may take them over.
    const { mirror } = this.deps;
    if (mirror) await Promise.all(states.map((state) => mirror.flush(state.streamId)));
    // Drained: their encoders' reconnects may take the streams on another process at once.
    await this.deps.leases?.release(states.map((state) => state.streamId)).catch((error: unknown) => {
      this.deps.logger.warn({ err: error }, 'could not release stream leases');
    });
  }
}

function runningPackagers(state: StreamState): ReturnType<LivePublish['running']> {
  return [...state.publishes].flatMap((publish) => publish.running());
}
