import type { Db } from '../db/database.ts';
import { recordEvent } from '../events/outbox.ts';
import type { KeysetPosition } from '../db/keyset.ts';
import type { Clock } from '../shared/clock.ts';
import { invalidParameter, notFound, stateConflict } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { PublicUrls } from '../shared/public-urls.ts';
import { findUser } from '../accounts/account.repository.ts';
import { findStream } from '../streams/stream.repository.ts';
import type { Privacy } from '../streams/stream.table.ts';
import type { MediaRemoval } from '../media/media-removal.ts';
import * as repo from './video.repository.ts';
import { checkChapters, checkDetails, checkDuration } from './video-rules.ts';
import { planVideoUpdate, type VideoUpdateInput } from './video-update.ts';
import type { Chapter } from './video.schemas.ts';
import { toVideoDetail } from './video.serializer.ts';
import type { MediaLocation, VideoRow } from './video.table.ts';
import { enqueueJob, requeueJob } from '../jobs/job.repository.ts';

export interface PublishVideoInput {
  creatorId: string;
  title: string;
  description?: string | null | undefined;
  durationSeconds: number;
  sourceStreamId?: string | null | undefined;
  category?: string | undefined;
  privacy?: Privacy | undefined;
  tags?: string[] | undefined;
  chapters?: Chapter[] | undefined;
}

export interface ListVideosInput {
  viewerId: string;
  creatorId?: string | undefined;
  category?: string | undefined;
  limit: number;
  after?: KeysetPosition | undefined;
}

/** The media job that moves a published video's media to the object store (MEDIA_STORAGE=s3). */
export const VIDEO_STORE_JOB = 'video.store';
/**
 * Its attempts: generous, as a store that is down for a while must not lose a video's way there
 * (src/media/video-store.ts's back-off spreads them over about 1.5 hours).
 */
export const VIDEO_STORE_ATTEMPTS = 20;

export interface VideoServiceOptions {
  /**
   * MEDIA_STORAGE=s3: publishing a video also enqueues its video.store job, in the publishing
   * transaction.
   */
  storeInObjectStore?: boolean;
}

export class VideoService {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly urls: PublicUrls;
  private readonly media: MediaRemoval;
  private readonly storeInObjectStore: boolean;
  /** Told after a video.store job was enqueued (the runner in this process looks at once). */
  onStoreQueued: () => void = () => undefined;

  constructor(
    db: Db,
    clock: Clock,
    urls: PublicUrls,
    media: MediaRemoval,
    options: VideoServiceOptions = {},
  ) {
    this.db = db;
    this.clock = clock;
    this.urls = urls;
    this.media = media;
    this.storeInObjectStore = options.storeInObjectStore ?? false;
  }

  /** Creates a video that is publicly available at once, and emits video.published with it. */
  async publish(input: PublishVideoInput): Promise<VideoRow> {
    const details = checkDetails(input);
    checkDuration(input.durationSeconds);
    const chapters = checkChapters(input.chapters ?? [], input.durationSeconds);
    return this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      const row = await this.insert(trx, now, input, details, {
        durationSeconds: input.durationSeconds,
        chapters,
        publishedAt: now,
      });
      await this.recordPublished(trx, row, now);
      return row;
    });
  }

  /** Private means unlisted: anyone with the ID may read it; unpublished videos only their creator. */
  // A video taken down, or whose creator is suspended, is missing (src/moderation/).
  async get(id: string, viewerId: string): Promise<VideoRow> {
    const row = await repo.findShownVideo(this.db, id);
    if (!row || (row.published_at === null && row.creator_id !== viewerId)) throw notFound('video', id);
    return row;
  }

  async list(input: ListVideosInput): Promise<repo.VideoListRow[]> {
    return repo.listPublishedVideos(this.db, {
      viewerId: input.viewerId,
      creatorId: input.creatorId,
      category: input.category,
      after: input.after,
      take: input.limit + 1,
    });
  }

  // Management by the creator (API and dashboard). Another creator's video answers as missing;
  // a draft (its media still being made, so its folder is being written) can be neither changed
  // nor deleted until it is published.

  /**
   * Changes a published video's details and emits video.updated with the detail object in the
   * same transaction. Values equal to the current ones change nothing and emit nothing.
   */
  async update(id: string, callerId: string, input: VideoUpdateInput): Promise<VideoRow> {
    return this.db.transaction().execute(async (trx) => {
      const current = await this.ownedPublished(trx, id, callerId, 'changed');
      const changes = planVideoUpdate(current, input);
      if (Object.keys(changes).length === 0) return current;
      const now = this.clock.now();
      const updated = await repo.updatePublishedVideo(trx, id, { ...changes, updated_at: now });
      if (!updated) throw notFound('video', id);
      await recordEvent(trx, {
        type: 'video.updated',
        accountId: updated.creator_id,
        at: now,
        data: toVideoDetail(updated, this.urls),
      });
      return updated;
    });
  }

  /** Deletes a published video with its view records, emits video.deleted, then removes its media. */
  async delete(id: string, callerId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const current = await this.ownedPublished(trx, id, callerId, 'deleted');
      if (!(await repo.deletePublishedVideo(trx, id))) throw notFound('video', id);
      await recordEvent(trx, {
        type: 'video.deleted',
        accountId: current.creator_id,
        at: this.clock.now(),
        data: { id, deleted: true },
      });
      // MEDIA_STORAGE=s3: the video.store job runs once more, finds the video gone and deletes
      // its prefix in the store: durable, so objects are removed even when the store is down now.
      if (this.storeInObjectStore) {
        await requeueJob(trx, {
          kind: VIDEO_STORE_JOB,
          subjectId: id,
          maxAttempts: VIDEO_STORE_ATTEMPTS,
          now: this.clock.now(),
        });
      }
    });
    if (this.storeInObjectStore) this.onStoreQueued();
    // After the commit: a failed deletion leaves the media in place with its row.
    await this.media.removeVideo(id);
  }

  private async ownedPublished(
    db: Db,
    id: string,
    callerId: string,
    verb: 'changed' | 'deleted',
  ): Promise<VideoRow> {
    const video = await repo.findShownVideo(db, id);
    if (!video || video.creator_id !== callerId) throw notFound('video', id);
    if (video.published_at === null) {
      throw stateConflict(`Video ${id} is still being processed; it can be ${verb} once it is published.`);
    }
    return video;
  }

  // Ingest and media: a video whose media is still being packaged exists first as a draft
  // (published_at null: invisible to everyone but its creator, no event), and becomes public
  // with video.published only once its playlist and thumbnail are in place, so the event's
  // playback_url works the moment a webhook receiver reads it.

  /**
   * Creates the draft with the same rules as publish; its duration is set on publishing.
   * `alongside` runs in the draft's transaction (an upload records which draft is its video).
   */
  async createDraft(
    input: Omit<PublishVideoInput, 'durationSeconds'>,
    alongside?: (trx: Db, draft: VideoRow) => Promise<void>,
  ): Promise<VideoRow> {
    const details = checkDetails(input);
    const chapters = checkChapters(input.chapters ?? [], Number.MAX_SAFE_INTEGER);
    return this.db.transaction().execute(async (trx) => {
      const row = await this.insert(trx, this.clock.now(), input, details, {
        durationSeconds: 0,
        chapters,
        publishedAt: null,
      });
      await alongside?.(trx, row);
      return row;
    });
  }

  /** Makes a draft public with its measured duration and emits video.published with it. */
  // Recordings, uploads and imports all pass through here (src/media/video-publishing.ts), so
  // this is where a video's move to the object store is enqueued: in the same transaction, so a
  // published video always has its job, and the move never runs inside a request's work.
  // `pictured` says whether its thumbnail was made (pages show a placeholder until it is).
  async publishDraft(id: string, durationSeconds: number, pictured = true): Promise<VideoRow> {
    checkDuration(durationSeconds);
    const published = await this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      const row = await repo.markVideoPublished(trx, id, durationSeconds, now, pictured);
      if (!row) throw notFound('video', id);
      await this.recordPublished(trx, row, now);
      if (this.storeInObjectStore) {
        await enqueueJob(trx, {
          kind: VIDEO_STORE_JOB,
          subjectId: id,
          maxAttempts: VIDEO_STORE_ATTEMPTS,
          now,
        });
      }
      return row;
    });
    if (this.storeInObjectStore) this.onStoreQueued();
    return published;
  }

  /** A video published without its thumbnail has one now (made on a later try). */
  async thumbnailMade(id: string): Promise<void> {
    await repo.markThumbnailMade(this.db, id, this.clock.now());
  }

  /** Where a video's media is (undefined: no such video). */
  async mediaLocation(id: string): Promise<MediaLocation | undefined> {
    return repo.findMediaLocation(this.db, id);
  }

  /** Published videos whose media is at `location`, a page of ids after `afterId` (id order). */
  async publishedIdsAt(location: MediaLocation, afterId: string, limit: number): Promise<string[]> {
    return repo.findPublishedIdsAt(this.db, location, afterId, limit);
  }

  /** Records where a video's media is now; false when the video is gone (deleted meanwhile). */
  async setMediaLocation(id: string, location: MediaLocation): Promise<boolean> {
    return repo.setMediaLocation(this.db, id, location);
  }

  /** Videos made from a stream's recording, drafts included (restart recovery finishes those). */
  async fromStream(streamId: string): Promise<VideoRow[]> {
    return repo.findVideosFromStream(this.db, streamId);
  }

  /** A video whatever its state, drafts included (an upload's processing resumes from it). */
  async findAny(id: string): Promise<VideoRow | undefined> {
    return repo.findVideo(this.db, id);
  }

  /** Drops a draft whose media could not be made. Published videos are never touched. */
  async discardDraft(id: string): Promise<void> {
    await repo.deleteUnpublishedVideo(this.db, id);
  }

  /** Inserts a new video row after checking its creator and source stream exist. */
  private async insert(
    trx: Db,
    now: number,
    input: Omit<PublishVideoInput, 'durationSeconds' | 'chapters'>,
    details: { title: string; category: string },
    media: { durationSeconds: number; chapters: Chapter[]; publishedAt: number | null },
  ): Promise<VideoRow> {
    if (!(await findUser(trx, input.creatorId))) throw notFound('user', input.creatorId);
    const sourceStreamId = input.sourceStreamId ?? null;
    if (sourceStreamId !== null) {
      const stream = await findStream(trx, sourceStreamId);
      if (!stream) throw notFound('stream', sourceStreamId);
      if (stream.creator_id !== input.creatorId) {
        throw invalidParameter('source_stream_id', 'The source stream belongs to another creator.');
      }
    }
    const row: VideoRow = {
      id: newId('vid'),
      creator_id: input.creatorId,
      title: details.title,
      description: input.description ?? null,
      category: details.category,
      duration_seconds: media.durationSeconds,
      view_count: 0,
      privacy: input.privacy ?? 'public',
      source_stream_id: sourceStreamId,
      published_at: media.publishedAt,
      chapters: JSON.stringify(media.chapters),
      tags: JSON.stringify([...new Set(input.tags ?? [])]),
      created_at: now,
      updated_at: now,
    };
    await repo.insertVideo(trx, row);
    return row;
  }

  private async recordPublished(trx: Db, row: VideoRow, at: number): Promise<void> {
    await recordEvent(trx, {
      type: 'video.published',
      accountId: row.creator_id,
      at,
      data: toVideoDetail(row, this.urls),
    });
  }
}
