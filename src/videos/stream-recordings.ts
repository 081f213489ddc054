// A stream's recordings when the stream is deleted: the videos stay, without their stream.
import type { Db } from '../db/database.ts';
import { recordEvent } from '../events/outbox.ts';
import { stateConflict } from '../shared/errors.ts';
import type { PublicUrls } from '../shared/public-urls.ts';
import type { StreamRecordings } from '../streams/stream-recordings.ts';
import type { StreamRow } from '../streams/stream.table.ts';
import { detachVideosFromStream, findVideosFromStream } from './video.repository.ts';
import { toVideoDetail } from './video.serializer.ts';

/**
 * How long after a recorded stream ends its deletion waits for the recording to become a
 * draft video: the ingest notices the end, finishes packaging and only then creates the draft
 * (which itself blocks deletion until it is published).
 */
export const RECORDING_GRACE_MS = 60_000;

export class VideosOfStreams implements StreamRecordings {
  private readonly urls: PublicUrls;

  constructor(urls: PublicUrls) {
    this.urls = urls;
  }

  async beforeStreamDeleted(trx: Db, stream: StreamRow, now: number): Promise<void> {
    const videos = await findVideosFromStream(trx, stream.id);
    const recentlyEnded =
      stream.record === 1 && stream.ended_at !== null && now - stream.ended_at < RECORDING_GRACE_MS;
    if (videos.some((video) => video.published_at === null) || (recentlyEnded && videos.length === 0)) {
      throw stateConflict(
        `Stream ${stream.id}'s recording is still being made into a video; delete the stream once it is published.`,
      );
    }
    for (const video of await detachVideosFromStream(trx, stream.id, now)) {
      await recordEvent(trx, {
        type: 'video.updated',
        accountId: video.creator_id,
        at: now,
        data: toVideoDetail(video, this.urls),
      });
    }
  }
}
