// The media job that makes a profile image's fixed sizes: ffmpeg reads the upload with the
// demuxer its header named (never probing, never another protocol than a local file), takes
// its first frame, crops it to each size's shape around the centre and writes JPEGs, which are
// renamed into place before the new version is shown. A file ffmpeg cannot read fails at once
// with a message for the uploader; a crash mid-job leaves a lease that lapses and a retry.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { localInput, runTool } from '../ffmpeg/ffmpeg.ts';
import { PermanentJobError, type JobHandler } from '../jobs/job-runner.ts';
import { DEMUXER, ImageRefusal, sniffImage } from './image-sniff.ts';
import { IMAGE_SIZES, parseImageSubject, PROFILE_IMAGE_JOB, ProfileService } from './profile.service.ts';

const FFMPEG_TIMEOUT_MS = 30_000;
const UNREADABLE = 'This image could not be read: it may be damaged or incomplete. Try another file.';

export function profileImageHandler(deps: {
  profiles: ProfileService;
  ffmpegPath: string;
  logger?: Logger | undefined;
}): JobHandler {
  const { profiles, ffmpegPath } = deps;
  return {
    kind: PROFILE_IMAGE_JOB,
    async run(job, { signal }) {
      const image = parseImageSubject(job.subject_id);
      if (!image) throw new PermanentJobError('invalid_image', 'The job names no profile image.');
      if (!(await profiles.isPending(image))) {
        // A newer upload replaced this one before it ran.
        await fs.rm(profiles.incomingPath(image.userId, image.kind, image.version), { force: true });
        return;
      }
      const incoming = profiles.incomingPath(image.userId, image.kind, image.version);
      let header: Buffer;
      try {
        const file = await fs.open(incoming);
        try {
          header = Buffer.alloc(64 * 1024);
          const { bytesRead } = await file.read(header, 0, header.length, 0);
          header = header.subarray(0, bytesRead);
        } finally {
          await file.close();
        }
      } catch {
        throw new PermanentJobError('invalid_image', 'The uploaded image is gone; upload it again.');
      }
      let format;
      try {
        format = sniffImage(header).format;
      } catch (error) {
        if (error instanceof ImageRefusal) throw new PermanentJobError('invalid_image', error.message);
        throw error;
      }
      const sizes = IMAGE_SIZES[image.kind];
      const dir = profiles.userDir(image.userId);
      await fs.mkdir(dir, { recursive: true });
      const outputs = sizes.map(({ width }) => {
        const name = ProfileService.fileName(image.kind, image.version, width);
        return { final: path.join(dir, name), temporary: path.join(dir, `.${name}.tmp.jpg`) };
      });
      const chains = sizes.map(
        ({ width, height }, index) =>
          `[s${index}]scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height},format=yuvj420p[o${index}]`,
      );
      const filter = `[0:v:0]split=${sizes.length}${sizes.map((_, i) => `[s${i}]`).join('')};${chains.join(';')}`;
      try {
        await runTool(
          ffmpegPath,
          [
            ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'],
            ...['-protocol_whitelist', 'file', '-f', DEMUXER[format], '-i', localInput(incoming)],
            ...['-filter_complex', filter],
            ...outputs.flatMap(({ temporary }, i) => [
              '-map',
              `[o${i}]`,
              '-frames:v',
              '1',
              '-q:v',
              '3',
              temporary,
            ]),
          ],
          { timeoutMs: FFMPEG_TIMEOUT_MS, signal },
        );
        for (const { temporary } of outputs) {
          const stat = await fs.stat(temporary);
          if (stat.size === 0) throw new Error('ffmpeg wrote an empty picture');
        }
      } catch (error) {
        await Promise.all(outputs.map(({ temporary }) => fs.rm(temporary, { force: true })));
        if (signal.aborted) throw error;
        deps.logger?.info({ err: error, subject: job.subject_id }, 'profile image unreadable');
        throw new PermanentJobError('invalid_image', UNREADABLE);
      }
      for (const { temporary, final } of outputs) await fs.rename(temporary, final);
      await profiles.settle(image, { ready: true });
    },
    async failed(job, error) {
      const image = parseImageSubject(job.subject_id);
      if (!image) return;
      const message = error instanceof PermanentJobError ? error.message : UNREADABLE;
      await profiles.settle(image, { ready: false, error: message });
    },
  };
}
