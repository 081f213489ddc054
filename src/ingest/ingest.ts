// Live ingest as one unit the server starts beside the HTTP API: the RTMP listener, the
// packagers it spawns, reconnect windows, recordings, thumbnails and viewer counts. Without a
// working ffmpeg it stays off and says why; the API runs either way.
import type { LoginService } from '../accounts/login.service.ts';
import type { MediaStorage } from '../storage/media-storage.ts';
import type { Logger } from 'pino';
import type { ChannelKeyService } from '../channels/channel-key.service.ts';
import type { Db } from '../db/database.ts';
import type { Config } from '../config.ts';
import { detectFfmpeg } from '../ffmpeg/ffmpeg.ts';
import { MediaPaths } from '../media/media-paths.ts';
import type { LiveViewers } from '../viewers/live-viewers.ts';
import type { Clock } from '../shared/clock.ts';
import type { StreamService } from '../streams/stream.service.ts';
import type { VideoService } from '../videos/video.service.ts';
import type { IngestHealthBoard } from './health/health-board.ts';
import type { PublishOutput } from '../live/publish-output.ts';
import type { Publisher } from '../rtmp/publisher.ts';
import { IngestCoordinator } from './ingest-coordinator.ts';
import { MODERATION_WATCH_MS } from './moderation-watch.ts';
import { TranscodeBudget } from '../transcode/budget.ts';
import { RtmpIngestServer } from '../rtmp/rtmp-server.ts';
import { ingestHolderId, StreamLeases } from './stream-leases.ts';
import { LiveMirror } from './live-mirror.ts';

/** Live thumbnails are refreshed about this often. */
export const THUMBNAIL_INTERVAL_MS = 20_000;
/** Viewer counts reach the database this often. */
const TICK_MS = 2000;

export interface IngestOptions {
  config: Pick<Config, 'ingest' | 'dataDir' | 'host'>;
  services: {
    streams: StreamService;
    videos: VideoService;
    channels: ChannelKeyService;
    database: { db: Db };
    clock: Clock;
    ingestHealth: IngestHealthBoard;
    /** Refuses creators whose address is not confirmed (absent: nobody is refused for it). */
    logins?: Pick<LoginService, 'unverifiedReason'>;
    /** MEDIA_STORAGE=s3: the object store (late thumbnails of moved videos go there). */
    objectStore?: MediaStorage | undefined;
  };
  logger: Logger;
  viewers: LiveViewers;
  /** Interface the RTMP listener binds; the HTTP listener's (config `host`) unless given. */
  host?: string;
  thumbnailIntervalMs?: number;
  /** How long a connection may take to ask to publish (default 10 s). */
  publishDeadlineMs?: number;
  /** Where every publish also goes (src/container.ts's publishOutputs: simulcast...). */
  outputs?: readonly PublishOutput[];
  /**
   * Many ingest processes (--ingest-only): on close, how long to wait for the streams this
   * process let go to be taken by another process (their encoders reconnecting through the
   * balancer) before exiting. Absent: close returns once its own work is done.
   */
  drainMs?: number | undefined;
  /**
   * Many ingest processes (--ingest-only) with MEDIA_STORAGE=s3: live segments and playlist
   * state are copied to the object store as they are written (live-mirror.ts).
   */
  mirror?: boolean | undefined;
  /** Other doors publishers come by (WHIP), admitted like RTMP encoders. */
  doorways?: readonly PublisherDoorway[];
}

/**
 * Publishers that come by another door than the RTMP listener (WHIP, src/whip/): given the
 * ingest's admission once it runs, and closed with the RTMP connections at shutdown.
 */
export interface PublisherDoorway {
  attach(
    publish: (publisher: Publisher) => void,
    settings: { logger: Logger; ffmpegPath: string; maxSessions: number },
  ): void;
  close(): Promise<void>;
}

export type IngestHandle =
  | {
      enabled: true;
      /** The port the RTMP listener got (RTMP_PORT, or the one picked for port 0). */
      rtmpPort: number;
      /** Resolves once every stream end in progress (recordings included) is done. */
      settle(): Promise<void>;
      /** The ladder's CPU budget (TRANSCODE=auto), for the metrics endpoint. */
      transcodeBudget: TranscodeBudget | undefined;
      close(): Promise<void>;
    }
  | { enabled: false; reason: string; close(): Promise<void> };

export async function startIngest(options: IngestOptions): Promise<IngestHandle> {
  const { config, services, logger } = options;
  const ffmpeg = await detectFfmpeg(config.ingest.ffmpegPath);
  if (!ffmpeg.available) {
    logger.warn({ reason: ffmpeg.reason }, 'live ingest and media processing are off');
    return { enabled: false, reason: ffmpeg.reason, close: async () => undefined };
  }

  const transcodeConfig = config.ingest.transcode;
  const transcode =
    transcodeConfig?.mode === 'auto'
      ? {
          config: transcodeConfig,
          budget: new TranscodeBudget({
            cores: transcodeConfig.cpuCores,
            headroomPercent: transcodeConfig.headroomPercent,
            read: transcodeConfig.procReader,
          }),
        }
      : undefined;
  const leases = new StreamLeases({
    db: services.database.db,
    clock: services.clock,
    holder: ingestHolderId(config.dataDir, config.ingest.id),
    originUrl: config.ingest.originUrl,
    leaseMs: config.ingest.leaseSeconds === undefined ? undefined : config.ingest.leaseSeconds * 1000,
  });
  const mirror =
    options.mirror === true && services.objectStore !== undefined
      ? new LiveMirror(services.objectStore, logger.child({ component: 'live-mirror' }))
      : undefined;
  const coordinator = new IngestCoordinator({
    leases,
    mirror,
    transcode,
    streams: services.streams,
    videos: services.videos,
    channels: services.channels,
    unverifiedReason: unverifiedReasonOf(services.logins),
    db: services.database.db,
    channelKeyWindowMs: config.ingest.channelKeyWindowHours * 3_600_000,
    clock: services.clock,
    paths: new MediaPaths(config.dataDir),
    viewers: options.viewers,
    health: services.ingestHealth,
    logger: logger.child({ component: 'ingest' }),
    ffmpegPath: config.ingest.ffmpegPath,
    reconnectWindowMs: config.ingest.reconnectWindowSeconds * 1000,
    cleanStopGraceMs: config.ingest.cleanStopGraceSeconds * 1000,
    thumbnailIntervalMs: options.thumbnailIntervalMs ?? THUMBNAIL_INTERVAL_MS,
    outputs: options.outputs ?? [],
    stored:
      services.objectStore === undefined
        ? undefined
        : {
            storage: services.objectStore,
            inStore: async (id: string) => (await services.videos.mediaLocation(id)) === 'object',
          },
  });
  const rtmp = new RtmpIngestServer(coordinator.handlePublish, {
    logger: logger.child({ component: 'rtmp' }),
    clock: services.clock,
    maxConnections: config.ingest.maxConnections,
    proxyProtocol: config.ingest.proxyProtocol ?? false,
    ...(options.publishDeadlineMs === undefined ? {} : { publishDeadlineMs: options.publishDeadlineMs }),
  });
  let rtmpPort: number;
  try {
    rtmpPort = await rtmp.listen(config.ingest.rtmpPort, options.host ?? config.host);
  } catch (error) {
    // Like a missing ffmpeg, a busy port turns ingest off and says so; the API still serves
    // (several API processes on one host: one of them holds the RTMP port).
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'EADDRINUSE'
        ? `RTMP_PORT ${config.ingest.rtmpPort} is already in use (another process or program holds it; set RTMP_PORT or run this one with --no-ingest)`
        : `the RTMP listener could not start on port ${config.ingest.rtmpPort}: ${(error as Error).message}`;
    logger.warn({ reason }, 'live ingest is off');
    return { enabled: false, reason, close: async () => undefined };
  }
  await coordinator.adoptInterruptedStreams();
  for (const doorway of options.doorways ?? []) {
    doorway.attach(coordinator.handlePublish, {
      logger,
      ffmpegPath: config.ingest.ffmpegPath,
      maxSessions: config.ingest.maxConnections,
    });
  }

  let ticking = false;
  const ticker = setInterval(() => {
    if (ticking) return;
    ticking = true;
    coordinator
      .tick()
      .catch((error: unknown) => {
        logger.error({ err: error }, 'ingest upkeep failed');
      })
      .finally(() => {
        ticking = false;
      });
  }, TICK_MS);
  let watching = false;
  const watcher = setInterval(() => {
    if (watching) return;
    watching = true;
    coordinator
      .checkModeration()
      .catch((error: unknown) => {
        logger.warn({ err: error }, 'could not check live streams against moderation');
      })
      .finally(() => {
        watching = false;
      });
  }, MODERATION_WATCH_MS);
  logger.info({ rtmpPort, ffmpeg: ffmpeg.version }, 'live ingest listening');

  return {
    enabled: true,
    rtmpPort,
    settle: () => coordinator.settle(),
    transcodeBudget: transcode?.budget,
    close: async () => {
      clearInterval(ticker);
      clearInterval(watcher);
      coordinator.beginShutdown();
      const held = coordinator.activeStreamIds();
      await rtmp.close();
      await Promise.all((options.doorways ?? []).map((doorway) => doorway.close()));
      await coordinator.close();
      transcode?.budget.close();
      if (options.drainMs !== undefined) await waitForMoves(leases, held, options.drainMs, logger);
    },
  };
}

/** Waits until another ingest process holds each of `streamIds`, or `timeoutMs` passes. */
async function waitForMoves(
  leases: StreamLeases,
  streamIds: readonly string[],
  timeoutMs: number,
  logger: Logger,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let waiting = [...streamIds];
  while (waiting.length > 0 && Date.now() < deadline) {
    const still: string[] = [];
    for (const id of waiting) {
      const lease = await leases.current(id).catch(() => undefined);
      if (lease?.holder === undefined || lease.holder === leases.holder) still.push(id);
    }
    waiting = still;
    if (waiting.length > 0) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (streamIds.length > 0) {
    logger.info(
      { moved: streamIds.length - waiting.length, notMoved: waiting },
      waiting.length === 0 ? 'drained: every stream moved to another ingest process' : 'drain timed out',
    );
  }
}

function unverifiedReasonOf(
  logins: Pick<LoginService, 'unverifiedReason'> | undefined,
): ((creatorId: string) => Promise<string | undefined>) | undefined {
  return logins && ((creatorId) => logins.unverifiedReason(creatorId));
}
