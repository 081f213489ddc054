// The media work `serve` runs beside the API (or any process started for it): the job runner
// with the upload processor (and, with MEDIA_STORAGE=s3, the video.store mover), and a sweeper that errors uploads whose URL expired before their
// bytes arrived and removes those bytes.
import type { Logger } from 'pino';
import type { TranscodeConfig } from '../transcode/ladder.ts';
import type { Services } from '../container.ts';
import { JobRunner } from '../jobs/job-runner.ts';
import { ffprobePathFor } from '../ffmpeg/ffmpeg.ts';
import { MediaPaths } from '../media/media-paths.ts';
import { uploadProcessingHandler } from './upload-processing.ts';
import { videoStoreHandler } from '../media/video-store.ts';
import { profileImageHandler } from '../profiles/profile-image.job.ts';

export interface UploadWorkerOptions {
  services: Pick<Services, 'uploads' | 'videos' | 'database' | 'clock'> &
    Partial<Pick<Services, 'profiles'>> &
    Partial<Pick<Services, 'objectStore'>>;
  /** Delays before a video.store job's retries (video-store.ts's unless given; tests shorten them). */
  storeRetryDelaysMs?: number[] | undefined;
  dataDir: string;
  ffmpegPath: string;
  transcode?: TranscodeConfig | undefined;
  logger: Logger;
  leaseMs?: number | undefined;
  pollMs?: number | undefined;
  retryDelaysMs?: number[] | undefined;
  /** How often expired uploads are swept (a minute unless told). */
  sweepMs?: number | undefined;
}

export interface UploadWorker {
  runner: JobRunner;
  stop(): Promise<void>;
}

export function startUploadWorker(options: UploadWorkerOptions): UploadWorker {
  const { services, logger } = options;
  const runner = new JobRunner({
    db: services.database.db,
    clock: services.clock,
    logger,
    handlers: [
      uploadProcessingHandler({
        uploads: services.uploads,
        logger,
        media: {
          videos: services.videos,
          paths: new MediaPaths(options.dataDir),
          ffmpegPath: options.ffmpegPath,
          ffprobePath: ffprobePathFor(options.ffmpegPath),
          transcode: options.transcode,
          logger,
        },
      }),
      // Creators' avatars and banners, made in their fixed sizes.
      ...(services.profiles === undefined
        ? []
        : [profileImageHandler({ profiles: services.profiles, ffmpegPath: options.ffmpegPath, logger })]),
      // MEDIA_STORAGE=s3: published videos' media moves to the object store.
      ...(services.objectStore === undefined
        ? []
        : [
            videoStoreHandler({
              videos: services.videos,
              paths: new MediaPaths(options.dataDir),
              storage: services.objectStore,
              logger,
              retryDelaysMs: options.storeRetryDelaysMs,
              originalPending: (videoId) => services.uploads.processingFor(videoId),
            }),
          ]),
    ],
    leaseMs: options.leaseMs,
    pollMs: options.pollMs,
    retryDelaysMs: options.retryDelaysMs,
  });
  services.uploads.onJobQueued = () => {
    runner.wake();
  };
  services.videos.onStoreQueued = () => {
    runner.wake();
  };
  if (services.profiles) {
    services.profiles.onJobQueued = () => {
      runner.wake();
    };
  }
  runner.start();
  const sweep = () => {
    services.uploads.expireStale().catch((error: unknown) => {
      logger.error({ err: error }, 'sweeping expired uploads failed');
    });
  };
  sweep();
  const sweeper = setInterval(sweep, options.sweepMs ?? 60_000);
  return {
    runner,
    async stop() {
      clearInterval(sweeper);
      services.uploads.onJobQueued = () => undefined;
      services.videos.onStoreQueued = () => undefined;
      if (services.profiles) services.profiles.onJobQueued = () => undefined;
      await runner.stop();
    },
  };
}
