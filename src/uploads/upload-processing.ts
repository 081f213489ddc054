// The media job that turns a finished upload into a video: probe the original (a file that
// is not a playable video ends `errored` with a code, at once), draft the video, package it
// with the same ladder and CPU budget as imports and recordings, publish it (video.published,
// once), and mark the upload ready. A retry after a crash finds what the last attempt left:
// a published video is only marked ready; an unfinished draft is discarded and made again.
import type { Logger } from 'pino';
import { PermanentJobError, type JobHandler } from '../jobs/job-runner.ts';
import type { MediaJobRow } from '../jobs/job.table.ts';
import { ImportError, inspectMedia, packageVideo, type ImportDeps } from '../media/video-import.ts';
import type { Chapter } from '../videos/video.schemas.ts';
import { UPLOAD_JOB, type UploadService } from './upload.service.ts';
import { setUploadVideo } from './upload.repository.ts';
import type { Db } from '../db/database.ts';

export interface UploadProcessingDeps {
  uploads: UploadService;
  media: ImportDeps;
  logger?: Logger | undefined;
  /** Hears the fraction packaged (the CLI's progress bar). */
  onProgress?: (fraction: number) => void;
}

export function uploadProcessingHandler(deps: UploadProcessingDeps): JobHandler {
  const { uploads, media } = deps;
  return {
    kind: UPLOAD_JOB,
    async run(job: MediaJobRow, { signal }) {
      const upload = await uploads.find(job.subject_id);
      if (!upload || upload.status !== 'processing') return;
      if (upload.video_id !== null) {
        const earlier = await media.videos.findAny(upload.video_id);
        if (earlier?.published_at != null) {
          await uploads.files.keepAsOriginal(upload.id, media.paths.videoOriginal(earlier.id));
          await uploads.markReady(upload.id, earlier.id);
          return;
        }
        if (earlier) await media.videos.discardDraft(earlier.id);
      }
      const file = uploads.files.originalPath(upload.id);
      let inspected;
      try {
        inspected = await inspectMedia(media.ffprobePath, file, 'The uploaded file');
      } catch (error) {
        if (error instanceof ImportError) throw new PermanentJobError(error.code, error.message);
        throw error;
      }
      const draft = await media.videos.createDraft(
        {
          creatorId: upload.creator_id,
          title: upload.title,
          description: upload.description,
          category: upload.category,
          privacy: upload.privacy,
          tags: JSON.parse(upload.tags) as string[],
          chapters: JSON.parse(upload.chapters) as Chapter[],
          sourceStreamId: null,
        },
        (trx: Db, row) => setUploadVideo(trx, upload.id, row.id, row.created_at),
      );
      let reported = -1;
      const video = await packageVideo(
        media,
        file,
        inspected,
        draft,
        (fraction) => {
          deps.onProgress?.(fraction);
          // The last percent is the thumbnail and the publish: 99 until the video is out.
          const percent = Math.min(99, Math.floor(fraction * 100));
          if (percent <= reported) return;
          reported = percent;
          uploads.recordProcessing(upload.id, percent).catch((error: unknown) => {
            deps.logger?.warn({ err: error, uploadId: upload.id }, 'recording processing progress failed');
          });
        },
        signal,
      );
      await uploads.files.keepAsOriginal(upload.id, media.paths.videoOriginal(video.id));
      await uploads.markReady(upload.id, video.id);
    },
    async failed(job: MediaJobRow, error: unknown) {
      const permanent = error instanceof PermanentJobError;
      // An errored upload holds no quota, so it holds no disk either.
      await uploads.files.remove(job.subject_id);
      await uploads.markErrored(
        job.subject_id,
        ['processing'],
        permanent ? error.code : 'processing_failed',
        permanent
          ? error.message
          : `The video could not be processed after ${job.attempts} attempts. The file may use a format we cannot convert; try exporting it as H.264 MP4.`,
      );
    },
  };
}
