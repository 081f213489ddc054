// `tributary media-worker`: the media job runner on its own, with no HTTP listener and no
// ingest, for running media work (uploads' packaging and ladders) on machines beside the one
// that serves the API. Any number of them take jobs from the one database queue: a claim holds
// under a lease that is renewed while the job runs, so a worker killed mid-job loses nothing;
// its job is taken again once the lease runs out. Each respects its own machine's CPU budget.
import { detectFfmpeg } from '../ffmpeg/ffmpeg.ts';
import type { Runtime } from '../runtime.ts';
import { createLogger } from '../shared/logger.ts';
import { startUploadWorker } from '../uploads/upload-worker.ts';

export const MEDIA_WORKER_USAGE = [
  'tributary media-worker',
  "  Runs media jobs (uploads' packaging and renditions, and with MEDIA_STORAGE=s3 moving published",
  '  videos to the object store) from the database queue, and nothing else.',
  '  Run any number, beside `serve --no-media-jobs` or on other machines sharing the database and',
  '  DATA_DIR. Stops on SIGTERM or SIGINT, handing its job in progress back to the queue.',
].join('\n');

export async function runMediaWorker(runtime: Runtime): Promise<void> {
  const { config } = runtime;
  const logger = createLogger(config.logLevel).child({ component: 'media-worker' });
  const ffmpeg = await detectFfmpeg(config.ingest.ffmpegPath);
  if (!ffmpeg.available) throw new Error(`media-worker cannot run: ${ffmpeg.reason}`);
  const worker = startUploadWorker({
    services: runtime.services,
    dataDir: config.dataDir,
    ffmpegPath: config.ingest.ffmpegPath,
    transcode: config.ingest.transcode,
    logger,
    leaseMs: config.uploads.jobLeaseMs,
  });
  logger.info({ pid: process.pid, ffmpeg: ffmpeg.version }, 'media worker started');
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      logger.info({ signal }, 'stopping the media worker');
      resolve();
    };
    // Kept installed: a second signal while stopping must not kill a job half handed back.
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  await worker.stop();
}
