// One publish: an admitted RTMP publisher from its first byte to its last, and everything its
// media goes to. The media flows one way:
//
//   Publisher -> FlvFanout -+-> FlvRelay -> HlsPackager (then the next, at a keyframe)
//                                   +-> each registered PublishOutput's run (simulcast...)
//
// The HLS is a chain of packagers, one publish folder each: the first, and, when a transcoder
// falls behind, one taking over at the next keyframe with fewer rungs. The publish tells
// whoever owns it (the stream lifecycle in src/ingest/) what happened through typed events and
// never reaches up: it knows the stream's media (LiveStream), not the stream's row or its life.
import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import { datedFrom, type HlsSegment } from '../hls/hls-playlist.ts';
import type { Publisher } from '../rtmp/publisher.ts';
import type { Clock } from '../shared/clock.ts';
import type { TranscodeBudget } from '../transcode/budget.ts';
import type { TranscodeConfig } from '../transcode/ladder.ts';
import type { TranscodingDecision } from '../transcode/transcoding-decision.ts';
import type { TranscodingReason } from '../streams/ingest-health.schemas.ts';
import { FlvFanout } from './flv-fanout.ts';
import { FlvRelay } from './flv-relay.ts';
import {
  HlsPackager,
  LOW_LATENCY_SEGMENT_SECONDS,
  SEGMENT_SECONDS,
  type PackagerExit,
  type PackagerPlan,
} from './hls-packager.ts';
import { fewerRungs, ladderIfRoom, liveLadder } from './live-ladder.ts';
import type { LiveStream } from './live-stream.ts';
import type { OutputRun, PublishOutput } from './publish-output.ts';
import { StreamFolder } from './stream-folder.ts';

/** How a publish ended: the encoder stopped on purpose, the connection dropped, or we refused it. */
export type PublishEndKind = 'stopped' | 'dropped' | 'refused';

export interface PublishEnd {
  how: PublishEndKind;
  /** The last packager's exit, when it failed. */
  failure: PackagerExit | undefined;
}

export interface PublishEvents {
  /** The stream's segment lists grew; emitted on the stream's queue, right after they did. */
  segments: [];
  /** The publish's ladder decision (and each later one), for the creator. */
  transcoding: [TranscodingDecision];
  /** The publisher is gone and the last packager has written its last segment. */
  ended: [PublishEnd];
}

/** A packager taking over from `previous` at a keyframe, with the plan made for it. */
interface PackagerTakeOver {
  plan: PackagerPlan;
  previous: HlsPackager;
  /** Why it has the renditions it has (`fell_behind`), undefined for the whole ladder. */
  reason: TranscodingReason | undefined;
}

export interface LivePublishDeps {
  ffmpegPath: string;
  clock: Clock;
  logger: Logger;
  /** The ladder (src/transcode/); without it, or with TRANSCODE=off, publishes are copied only. */
  transcode?: { config: TranscodeConfig; budget: TranscodeBudget } | undefined;
  /** Registered outputs, opened for every publish (the composition root registers them). */
  outputs: readonly PublishOutput[];
  /** The stream's creator, for the outputs. */
  creatorId: string;
  /**
   * The stream's previous publish's outputs: this publish's open once they have finished, so
   * an output never has two runs for one stream at once (a destination's `stopped` never lands
   * after the next publish's `connecting`). Late outputs join at a keyframe.
   */
  outputsAfter?: Promise<void> | undefined;
}

export class LivePublish extends EventEmitter<PublishEvents> {
  readonly connection: Publisher;
  /** The publish folder of its first packager (p<index>/). */
  readonly index: number;
  private readonly stream: LiveStream;
  private readonly deps: LivePublishDeps;
  private readonly logger: Logger;
  private readonly packagers = new Set<HlsPackager>();
  private readonly runs = new Set<OutputRun>();
  /** Settles once every output has been asked to open (and answered). */
  private outputsOpened: Promise<void> = Promise.resolve();
  private current: HlsPackager | undefined;
  private relay: FlvRelay | undefined;
  /** The wall-clock time of the publish's first media, fixed with its first segment. */
  private mediaStart: number | undefined;
  /** The latest ladder decision: copy-only for want of CPU may be mended later, nothing else is. */
  private decision: TranscodingDecision | undefined;
  /** A switch to another packager is waiting for the next keyframe. */
  private switching = false;
  /** Whether the transcoder ever fell behind in this publish (it is not offered the ladder again). */
  private fellBehind = false;

  constructor(stream: LiveStream, connection: Publisher, deps: LivePublishDeps) {
    super();
    this.stream = stream;
    this.connection = connection;
    this.deps = deps;
    this.index = stream.publishes.length;
    this.logger = deps.logger.child({ streamId: stream.streamId, publish: this.index });
    this.on('transcoding', (decision) => {
      this.decision = decision;
      if (decision.reason === 'fell_behind') this.fellBehind = true;
    });
  }

  /** Starts packaging and the outputs, and admits the publisher. Listen before calling it. */
  start(): void {
    const { connection } = this;
    const first = this.startPackager(undefined);
    this.relay = new FlvRelay(first.input);
    const fanout = new FlvFanout(this.logger);
    fanout.add('hls', this.relay);
    connection.accept(fanout);
    this.outputsOpened = (this.deps.outputsAfter ?? Promise.resolve()).then(() =>
      Promise.all(this.deps.outputs.map((output) => this.openOutput(output, fanout))).then(() => undefined),
    );
    this.logger.info({ remote: connection.remoteAddress }, 'publish started');
    connection.onClose(() => {
      this.closed(fanout);
    });
  }

  /** Packagers still running (each one's `finished` settles when it has written its last). */
  running(): HlsPackager[] {
    return [...this.packagers];
  }

  /**
   * A publish running copy-only because there was no CPU room when it started gains its
   * ladder once the budget admits it: from the next keyframe the media goes to a packager with
   * the rungs (the mirror of the hand-over to fewer rungs: a new publish folder, listed after
   * the copy packager's last segment, a discontinuity). The rungs' playlists, named by the
   * master from the start, go on with encoded segments instead of the source's, so players
   * already playing can switch to them without reloading anything. True when it will.
   */
  gainLadder(): boolean {
    const { transcode } = this.deps;
    const current = this.current;
    if (!transcode || !this.relay || !current || this.connection.closed) return false;
    if (this.switching || this.fellBehind || this.decision?.reason !== 'no_cpu_room') return false;
    const plan = ladderIfRoom({ ...transcode, logger: this.logger }, this.stream, this.connection.meter);
    if (!plan) return false;
    this.switching = true;
    this.relay.switchAtNextKeyframe(
      () => this.startPackager({ plan, previous: current, reason: undefined }).input,
      () => plan.ticket?.release(),
    );
    return true;
  }

  /** Settles once every output of this publish has opened and finished its run. */
  async outputsFinished(): Promise<void> {
    await this.outputsOpened;
    await Promise.all([...this.runs].map((run) => run.finished));
  }

  /** Shutdown: stops every packager and output at once. */
  kill(): void {
    for (const packager of this.packagers) packager.kill();
    for (const run of this.runs) run.stop();
  }

  private async openOutput(output: PublishOutput, fanout: FlvFanout): Promise<void> {
    // The publisher left while an earlier publish's outputs were finishing: nothing to send.
    if (this.connection.closed) return;
    const info = {
      streamId: this.stream.streamId,
      creatorId: this.deps.creatorId,
      latencyMode: this.stream.latencyMode,
      index: this.index,
      logger: this.logger.child({ output: output.name }),
    };
    try {
      const run = await output.open(info);
      if (!run) return;
      this.runs.add(run);
      // Joins at the next keyframe; after the publisher left it is ended at once.
      fanout.add(output.name, run.sink);
    } catch (error) {
      this.logger.error({ err: error, output: output.name }, 'a publish output could not start');
    }
  }

  private closed(fanout: FlvFanout): void {
    const { connection } = this;
    const refusal = connection.refusal;
    // Read now: a clean stop is the encoder's own word, heard before its socket closed.
    const how: PublishEndKind = refusal ? 'refused' : connection.stoppedCleanly ? 'stopped' : 'dropped';
    if (refusal) {
      // Refused after it started (a codec HLS cannot carry): nothing of it is kept.
      this.logger.info({ remote: connection.remoteAddress, reason: refusal.reason }, 'publish refused');
      for (const packager of this.packagers) packager.kill();
      for (const run of this.runs) run.stop();
    }
    fanout.end();
    const last = this.current;
    if (!last) return;
    void last.finished.then((exit) => {
      const failed = exit.code !== 0 && how !== 'refused';
      this.logger.info({ ended: how }, 'publish stopped');
      this.emit('ended', { how, failure: failed ? exit : undefined });
    });
  }

  /**
   * One packager of the publish, in the next publish folder: the first, or one taking over
   * from `after.previous` (which fell behind) with the plan made for it. Segments of a
   * taking-over packager reach the playlists only once the previous one has written its last,
   * so playlists only ever grow at their end.
   */
  private startPackager(after: PackagerTakeOver | undefined): HlsPackager {
    this.switching = false;
    const { stream, deps } = this;
    const index = stream.addPublish();
    const ready = after ? after.previous.finished.then(() => undefined) : Promise.resolve();
    const transcode = deps.transcode;
    const made: { packager?: HlsPackager } = {};
    const ladder =
      transcode && transcode.config.mode === 'auto' && stream.layout !== 'single'
        ? liveLadder({
            ...transcode,
            state: stream,
            index,
            meter: this.connection.meter,
            logger: this.logger,
            changed: () => this.emit('segments'),
            forced: after && { plan: after.plan, reason: after.reason },
            decided: (decision) => this.emit('transcoding', decision),
            clock: deps.clock,
            behind: (plan) => {
              if (made.packager) this.handOver(made.packager, plan);
            },
          })
        : undefined;
    const packager = new HlsPackager({
      ffmpegPath: deps.ffmpegPath,
      dir: stream.folder.publishDir(index),
      onSegments: (segments) => {
        void ready.then(() =>
          stream.enqueue(async () => {
            // A hand-over starts mid-connection: its segments keep ffmpeg's own dates.
            const dated = after ? segments : this.dated(segments);
            stream.publishes[index] = StreamFolder.inPublish(index, dated);
            this.emit('segments');
          }),
        );
      },
      logger: this.logger,
      // A realtime stream's HLS (its fallback) is packaged as a low-latency one.
      segmentSeconds: stream.latencyMode === 'normal' ? SEGMENT_SECONDS : LOW_LATENCY_SEGMENT_SECONDS,
      ladder,
    });
    made.packager = packager;
    this.packagers.add(packager);
    this.current = packager;
    // A packager that dies (unreadable media, a backlog it cannot clear) ends the publish, so
    // the encoder sees the failure and reconnects instead of pushing into nothing; one that
    // handed the publish over to another simply ends.
    void packager.finished.then(() => {
      this.packagers.delete(packager);
      if (packager === this.current && !this.connection.closed) this.connection.disconnect();
    });
    return packager;
  }

  /**
   * A transcoder that fell behind hands the rest of the publish, from a keyframe, to a new
   * packager with fewer rungs (a new publish folder: a discontinuity in every playlist).
   */
  private handOver(previous: HlsPackager, plan: PackagerPlan): void {
    const budget = this.deps.transcode?.budget;
    if (!budget || !this.relay || previous !== this.current) return;
    this.relay.switchAtNextKeyframe(() => {
      const forced = fewerRungs(plan, budget, this.connection.meter.measure().frameRate);
      this.logger.warn(
        { renditions: forced.plan.renditions.map((rendition) => rendition.name) },
        'rungs dropped; the publish goes on with fewer renditions',
      );
      return this.startPackager({ plan: forced, previous, reason: 'fell_behind' }).input;
    });
  }

  /**
   * The publish's segments dated from when their frames reached the ingest (ffmpeg's own dates
   * start when its muxer did, seconds late). Dates are fixed by the first segment: a live
   * playlist only ever grows, so a date once listed never changes.
   */
  private dated(segments: HlsSegment[]): HlsSegment[] {
    if (this.mediaStart === undefined) {
      const origin = this.connection.mediaClockOrigin;
      if (origin === undefined) return segments;
      this.mediaStart = origin + (this.connection.firstMediaTimestamp ?? 0);
    }
    return datedFrom(this.mediaStart, segments);
  }
}
