// `tributary storage migrate --to s3|local`: moves the library of finished videos between the
// local disk and the object store (src/media/storage-migration.ts), with a progress bar on a
// terminal and one line per video otherwise. It needs the object store's configuration either
// way (MEDIA_STORAGE=s3 and the S3_ variables): the store is the target of `--to s3` and the
// source of `--to local`.
import { MediaPaths } from '../media/media-paths.ts';
import { migrateLibrary, type MigrationPlan, type MigrationTarget } from '../media/storage-migration.ts';
import { LocalMediaStorage, localMediaRoot } from '../storage/local-storage.ts';
import { checkMediaStorage } from '../storage/open-storage.ts';
import { StorageError } from '../storage/storage-errors.ts';
import { parse, UsageError } from './args.ts';
import type { Command } from './operator-commands.ts';

const MIB = 1024 * 1024;

function megabytes(bytes: number): string {
  return `${(bytes / MIB).toFixed(1)} MB`;
}

/** A one-line bar on a terminal, redrawn in place; nothing when standard error is not one. */
class MigrationBar {
  private readonly stream: NodeJS.WriteStream;
  private plan: MigrationPlan = { videos: 0, files: 0, bytes: 0 };
  private videos = 0;
  private bytes = 0;
  private drawn = '';
  private readonly label: string;

  constructor(stream: NodeJS.WriteStream, label: string) {
    this.stream = stream;
    this.label = label;
  }

  get active(): boolean {
    return this.stream.isTTY;
  }

  start(plan: MigrationPlan): void {
    this.plan = plan;
    this.draw();
  }

  file(bytes: number): void {
    this.bytes += bytes;
    this.draw();
  }

  video(): void {
    this.videos++;
    this.draw();
  }

  private draw(): void {
    if (!this.active) return;
    const fraction = this.plan.bytes === 0 ? 1 : Math.min(1, this.bytes / this.plan.bytes);
    const percent = Math.floor(fraction * 100);
    const width = Math.max(10, Math.min(30, (this.stream.columns || 80) - 50));
    const filled = Math.round(width * fraction);
    const line =
      `\r${this.label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${percent}% ` +
      `${this.videos}/${this.plan.videos} videos ${megabytes(this.bytes)}/${megabytes(this.plan.bytes)}`;
    if (line === this.drawn) return;
    this.drawn = line;
    this.stream.write(line);
  }

  done(): void {
    if (this.active && this.drawn !== '') this.stream.write('\n');
    this.drawn = '';
  }
}

export const storageMigrate: Command = {
  usage: [
    'tributary storage migrate --to s3|local [--read-back]',
    "  Moves every published video's media to the object store (--to s3) or back to DATA_DIR/media",
    '  (--to local), video by video: each file is copied, verified by size and SHA-256, and only',
    '  then is the source removed. Needs MEDIA_STORAGE=s3 and the S3_ variables either way. Stopped',
    '  anywhere, every video still plays; run it again to carry on (what is there is not sent again).',
    '  --read-back also reads every copied object back and hashes it. Serve with MEDIA_STORAGE=s3',
    '  while moving in either direction; after --to local, restart with MEDIA_STORAGE=local.',
  ].join('\n'),
  async run(runtime, argv, out) {
    const { values } = parse(argv, { to: { type: 'string' }, 'read-back': { type: 'boolean' } }, this.usage);
    const to = values.to;
    if (to !== 's3' && to !== 'local') {
      throw new UsageError(`--to must be s3 or local.\n\n${this.usage}`);
    }
    const target: MigrationTarget = to;
    const remote = runtime.services.objectStore;
    if (remote === undefined) {
      throw new UsageError(
        `storage migrate needs the object store: set MEDIA_STORAGE=s3 and its S3_ variables (it is the target of --to s3 and the source of --to local).\n\n${this.usage}`,
      );
    }
    const warn = (line: string) => process.stderr.write(`${line}\n`);
    await checkMediaStorage(remote, {
      info: () => undefined,
      warn: (fields) => {
        warn(`the object store did not answer the check; trying again (${JSON.stringify(fields)})`);
      },
    });
    const local = new LocalMediaStorage(localMediaRoot(runtime.config.dataDir));
    const paths = new MediaPaths(runtime.config.dataDir);
    const bar = new MigrationBar(process.stderr, to === 's3' ? 'To the object store' : 'To local disk');
    const where = to === 's3' ? remote.description : local.description;
    try {
      const summary = await migrateLibrary(
        { videos: runtime.services.videos, local, remote, videoDir: (id) => paths.videoDir(id) },
        target,
        {
          plan: (plan) => {
            if (!bar.active) {
              out(
                `${plan.videos} videos to move (${plan.files} files, ${megabytes(plan.bytes)}) to ${where}`,
              );
            }
            bar.start(plan);
          },
          file: (bytes) => {
            bar.file(bytes);
          },
          video: (result) => {
            if (!result.empty) bar.video();
            if (bar.active) return;
            out(
              result.empty
                ? `${result.videoId}: no media files; left as it is`
                : `${result.videoId}: ${result.files} files (${megabytes(result.bytes)}, ${result.sent} sent) verified; source removed`,
            );
          },
        },
        {
          readBack: values['read-back'] === true,
          retry: {
            attempts: 5,
            baseDelayMs: 1_000,
            onRetry: (error, attempt, delayMs) => {
              warn(`${error.message}; trying again in ${Math.round(delayMs)} ms (attempt ${attempt + 1})`);
            },
          },
        },
      );
      bar.done();
      out(
        `done: ${summary.moved} videos moved to ${where} (${summary.files} files, ${megabytes(summary.bytes)}, ${summary.sent} sent)` +
          (summary.empty > 0 ? `, ${summary.empty} without media files` : ''),
      );
    } catch (error) {
      bar.done();
      if (error instanceof StorageError) {
        throw new StorageError(
          `storage migrate stopped: ${error.message}\n  every video still plays from where it is; run the command again to carry on`,
          { kind: error.kind, operation: error.operation, cause: error },
        );
      }
      throw error;
    }
  },
};
