// Media commands: `tributary videos import` packages a video file as HLS with ffmpeg and
// publishes it (source_stream_id null), with a progress bar when run on a terminal.
import { detectFfmpeg, ffprobePathFor } from '../ffmpeg/ffmpeg.ts';
import { MediaPaths } from '../media/media-paths.ts';
import { ImportError, importableFile, inspectMedia } from '../media/video-import.ts';
import { JobRunner } from '../jobs/job-runner.ts';
import { findJob } from '../jobs/job.repository.ts';
import { createLogger } from '../shared/logger.ts';
import { uploadProcessingHandler } from '../uploads/upload-processing.ts';
import { UPLOAD_JOB, type UploadService } from '../uploads/upload.service.ts';
import type { UploadRow } from '../uploads/upload.table.ts';
import { parse, requireString, UsageError } from './args.ts';
import type { Command } from './operator-commands.ts';

export const videosImport: Command = {
  usage: [
    'tributary videos import FILE --creator USR --title T [--category C] [--private] [--description D] [--tag T]...',
    '  Packages a video file as HLS (stream copy when it is H.264 with AAC or MP3 audio, otherwise',
    '  encoded once to H.264/AAC), publishes it, emits video.published and prints the new vid_ id.',
    '  With TRANSCODE=auto it also encodes the TRANSCODE_LADDER rungs below the picture (a master',
    '  playlist), niced and only once the machine has CPU room; the video stays unpublished until ready.',
    '  A FILE whose name starts with - goes after the options and --, or as ./-name.',
  ].join('\n'),
  async run(runtime, argv, out) {
    const { values, positionals } = parse(
      argv,
      {
        creator: { type: 'string' },
        title: { type: 'string' },
        category: { type: 'string' },
        private: { type: 'boolean' },
        description: { type: 'string' },
        tag: { type: 'string', multiple: true },
      },
      this.usage,
    );
    const file = requireString(positionals[0], 'FILE', this.usage);
    if (positionals.length > 1) throw new UsageError(`Import one file at a time.\n\n${this.usage}`);
    const creatorId = requireString(values.creator, '--creator', this.usage);
    const title = requireString(values.title, '--title', this.usage);

    // Refused before ffmpeg is even looked for: a missing file is the likelier mistake.
    try {
      await importableFile(file);
    } catch (error) {
      if (error instanceof ImportError) throw new UsageError(`Cannot import: ${error.message}`);
      throw error;
    }

    const ffmpegPath = runtime.config.ingest.ffmpegPath;
    const ffmpeg = await detectFfmpeg(ffmpegPath);
    if (!ffmpeg.available) throw new UsageError(`Cannot import: ${ffmpeg.reason}.`);

    // What the job would find wrong with the file is said now, before anything is made.
    try {
      await inspectMedia(ffprobePathFor(ffmpegPath), await importableFile(file), file);
    } catch (error) {
      if (error instanceof ImportError) throw new UsageError(`Cannot import: ${error.message}`);
      throw error;
    }
    const progress = new ProgressBar(process.stderr);
    const services = runtime.services;
    const upload = await services.uploads.importLocalFile(
      {
        creatorId,
        title,
        category: values.category,
        privacy: values.private === true ? 'private' : 'public',
        description: values.description,
        tags: values.tag,
      },
      await importableFile(file),
    );
    // The same job a server's runner would take: run here unless a server took it first.
    const runner = new JobRunner({
      db: services.database.db,
      clock: services.clock,
      logger: createLogger('silent'),
      handlers: [
        uploadProcessingHandler({
          uploads: services.uploads,
          onProgress: (fraction) => {
            progress.update(fraction);
          },
          media: {
            videos: services.videos,
            paths: new MediaPaths(runtime.config.dataDir),
            ffmpegPath,
            ffprobePath: ffprobePathFor(ffmpegPath),
            transcode: runtime.config.ingest.transcode,
            onWaiting: (busy) => {
              progress.waiting(busy);
            },
          },
        }),
      ],
      // One attempt here: a failure is the operator's to read now, not to retry later.
      retryDelaysMs: [],
    });
    const job = await findJob(services.database.db, UPLOAD_JOB, upload.id);
    if (job) await runner.runOnce(job.id);
    const finished = await waitForOutcome(services.uploads, upload.id);
    progress.done();
    if (finished.status === 'ready' && finished.video_id !== null) {
      out(finished.video_id);
      return;
    }
    throw new UsageError(
      `Cannot import: ${finished.error_message ?? `the upload ended ${finished.status}.`}`,
    );
  },
};

/** Waits for the upload to leave processing (a server's runner may be the one working on it). */
async function waitForOutcome(uploads: UploadService, id: string): Promise<UploadRow> {
  for (;;) {
    const row = await uploads.find(id);
    if (!row) throw new Error(`upload ${id} vanished`);
    if (row.status !== 'processing') return row;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** A one-line bar redrawn in place; silent when stderr is not a terminal (scripts, CI). */
class ProgressBar {
  private readonly stream: NodeJS.WriteStream;
  private drawn = -1;

  constructor(stream: NodeJS.WriteStream) {
    this.stream = stream;
  }

  update(fraction: number): void {
    if (!this.stream.isTTY) return;
    const percent = Math.floor(fraction * 100);
    if (percent === this.drawn) return;
    this.drawn = percent;
    const width = Math.max(10, Math.min(40, (this.stream.columns || 80) - 30));
    const filled = Math.round((width * percent) / 100);
    this.stream.write(`\rPackaging [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${percent}%`);
  }

  /** Said once per wait: the import is niced behind live work and waits for CPU room. */
  waiting(busyCores: number): void {
    if (!this.stream.isTTY) return;
    this.stream.write(`\rWaiting for CPU room (${busyCores.toFixed(1)} cores busy; live streams come first)`);
    this.drawn = -2;
  }

  done(): void {
    if (this.stream.isTTY && this.drawn !== -1) this.stream.write('\n');
    this.drawn = -1;
  }
}
