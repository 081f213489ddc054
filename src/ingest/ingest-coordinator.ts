// Live ingest's parts wired together, one job each:
//
// - admission.ts: who may publish (with penalty-box.ts against key guessing);
// - stream-lifecycle.ts: a stream's life from an admitted publish to its end (going live,
//   reconnect windows, the recording), holding each stream's state (stream-state.ts) and
//   writing its folder (stream-folder.ts);
// - upkeep.ts: the periodic tick (operator-ended streams, viewer counts, live-thumbnails.ts);
// - restart-recovery.ts: streams a restart interrupted (recording-recovery.ts: ends under way).
import type { Logger } from 'pino';
import type { ChannelKeyService } from '../channels/channel-key.service.ts';
import { NextStream } from '../channels/next-stream.ts';
import type { Db } from '../db/database.ts';
import type { MediaPaths } from '../media/media-paths.ts';
import type { LiveViewers } from '../viewers/live-viewers.ts';
import type { Clock } from '../shared/clock.ts';
import type { StreamService } from '../streams/stream.service.ts';
import type { VideoService } from '../videos/video.service.ts';
import { Admission } from './admission.ts';
import type { IngestHealthBoard } from './health/health-board.ts';
import { ThumbnailBacklog, type ThumbnailBacklogDeps } from '../media/thumbnail-backlog.ts';
import { LiveThumbnails } from './live-thumbnails.ts';
import { PenaltyBox } from './penalty-box.ts';
import { adoptInterruptedStreams } from './restart-recovery.ts';
import type { Publisher } from '../rtmp/publisher.ts';
import { StreamLifecycle, type LifecycleDeps } from './stream-lifecycle.ts';
import { IngestUpkeep } from './upkeep.ts';
import { ModerationWatch } from './moderation-watch.ts';
import type { StreamLeases } from './stream-leases.ts';
import type { LiveMirror } from './live-mirror.ts';
import { ViewerSamples } from '../streams/viewer-samples.ts';

export interface IngestDeps {
  streams: StreamService;
  videos: VideoService;
  /** Channel keys (src/channels/): what a presented key publishes to. */
  channels: ChannelKeyService;
  /** Why a creator may not go live yet (src/accounts/login.service.ts's unverifiedReason). */
  unverifiedReason?: ((creatorId: string) => Promise<string | undefined>) | undefined;
  /** Where a channel-key publish looks for the creator's next stream. */
  db: Db;
  /** How far a scheduled stream's scheduled_at may be from now for a channel-key publish to pick it. */
  channelKeyWindowMs: number;
  paths: MediaPaths;
  viewers: LiveViewers;
  /** Each stream's encoder health, read by the API. */
  health: IngestHealthBoard;
  clock: Clock;
  logger: Logger;
  ffmpegPath: string;
  reconnectWindowMs: number;
  /** After a clean stop (the encoder unpublished), how long the stream waits before ending. */
  cleanStopGraceMs: number;
  thumbnailIntervalMs: number;
  /** Addresses that tried too many unknown keys (one with default settings unless given). */
  penalties?: PenaltyBox;
  /** The adaptive-bitrate ladder and its CPU budget; copy-only packaging without it. */
  transcode?: LifecycleDeps['transcode'];
  /** Where every publish also goes (simulcast...). */
  outputs?: LifecycleDeps['outputs'];
  /** MEDIA_STORAGE=s3: where a late thumbnail goes when its video has moved to the store. */
  stored?: ThumbnailBacklogDeps['stored'];
  /** Many ingest processes: which one holds each stream (stream-leases.ts); one process needs none. */
  leases?: StreamLeases | undefined;
  /** Many ingest processes with an object store: live media copied there (live-mirror.ts). */
  mirror?: LiveMirror | undefined;
}

export class IngestCoordinator {
  private readonly deps: IngestDeps;
  private readonly lifecycle: StreamLifecycle;
  private readonly admission: Admission;
  private readonly upkeep: IngestUpkeep;
  private readonly moderation: ModerationWatch;
  private readonly thumbnailBacklog: ThumbnailBacklog;

  constructor(deps: IngestDeps) {
    this.deps = deps;
    const { streams, paths, clock, logger, ffmpegPath } = deps;
    const thumbnails = new LiveThumbnails({
      streams,
      paths,
      clock,
      logger,
      ffmpegPath,
      intervalMs: deps.thumbnailIntervalMs,
    });
    this.thumbnailBacklog = new ThumbnailBacklog({
      paths,
      ffmpegPath,
      clock,
      logger,
      stored: deps.stored,
      made: (videoId) => deps.videos.thumbnailMade(videoId),
    });
    this.lifecycle = new StreamLifecycle({
      streams,
      videos: deps.videos,
      paths,
      clock,
      logger,
      ffmpegPath,
      reconnectWindowMs: deps.reconnectWindowMs,
      cleanStopGraceMs: deps.cleanStopGraceMs,
      thumbnails,
      thumbnailBacklog: this.thumbnailBacklog,
      health: deps.health,
      transcode: deps.transcode,
      outputs: deps.outputs ?? [],
      leases: deps.leases,
      mirror: deps.mirror,
    });
    this.moderation = new ModerationWatch({ db: deps.db, streams, lifecycle: this.lifecycle, logger });
    this.admission = new Admission({
      moderation: this.moderation,
      streams,
      channels: deps.channels,
      unverifiedReason: deps.unverifiedReason,
      nextStream: new NextStream({ db: deps.db, streams, clock, windowMs: deps.channelKeyWindowMs }),
      logger,
      penalties: deps.penalties ?? new PenaltyBox({ clock }),
      lifecycle: this.lifecycle,
      leases: deps.leases,
    });
    this.upkeep = new IngestUpkeep({
      streams,
      viewers: deps.viewers,
      logger,
      lifecycle: this.lifecycle,
      thumbnails,
      health: deps.health,
      thumbnailBacklog: this.thumbnailBacklog,
      samples: new ViewerSamples(deps.db, clock),
    });
  }

  /** The RTMP server's handler: decides asynchronously, buffering the publisher meanwhile. */
  handlePublish = (connection: Publisher): void => {
    this.admission.handle(connection, (stream) => {
      this.lifecycle.publish(stream, connection);
    });
  };

  /** Cuts off live streams moderation now withholds (moderation-watch.ts), several times a second. */
  checkModeration(): Promise<void> {
    return this.moderation.check();
  }

  /** Periodic upkeep (upkeep.ts). */
  tick(): Promise<void> {
    return this.upkeep.tick();
  }

  /** After a restart, before the first tick (restart-recovery.ts). */
  adoptInterruptedStreams(): Promise<void> {
    const { streams, videos, paths, logger, ffmpegPath } = this.deps;
    return adoptInterruptedStreams({
      streams,
      paths,
      logger,
      lifecycle: this.lifecycle,
      leases: this.deps.leases,
      recordings: { videos, paths, ffmpegPath, logger, thumbnailBacklog: this.thumbnailBacklog },
    });
  }

  /** Waits for every end in progress (recordings included). */
  settle(): Promise<void> {
    return this.lifecycle.settle();
  }

  /** Refuses new publishers from now on; call before the listener drops its connections. */
  beginShutdown(): void {
    this.lifecycle.beginShutdown();
  }

  /** Disconnects publishers without ending their streams; the next start adopts them. */
  close(): Promise<void> {
    return this.lifecycle.close();
  }

  /** Streams ingest is handling now (publishing or inside their reconnect window). */
  activeStreamIds(): string[] {
    return this.lifecycle.streamIds();
  }
}
