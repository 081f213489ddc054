import type { Principal } from '../accounts/account.service.ts';
import { GO_LIVE_MAIL_JOB } from '../jobs/job-kinds.ts';
import { enqueueJob } from '../jobs/job.repository.ts';
import type { Db } from '../db/database.ts';
import { recordEvent } from '../events/outbox.ts';
import type { KeysetPosition } from '../db/keyset.ts';
import { DEFAULT_STREAM_CATEGORY } from '../shared/categories.ts';
import type { Clock } from '../shared/clock.ts';
import { invalidParameter, notFound, stateConflict } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { PublicUrls } from '../shared/public-urls.ts';
import type { MediaRemoval } from '../media/media-removal.ts';
import type { StreamKeyVault } from './stream-key-vault.ts';
import type { StreamRecordings } from './stream-recordings.ts';
import { NO_STREAM_DEFAULTS, type NewStreamDefaults } from './new-stream-defaults.ts';
import { planStreamUpdate, type StreamUpdateInput } from './stream-update.ts';
import * as repo from './stream.repository.ts';
import { toStreamDetail } from './stream.serializer.ts';
import type { LatencyMode, Privacy, StreamRow, StreamStatus } from './stream.table.ts';

export interface CreateStreamInput {
  title: string;
  description?: string | undefined;
  /** RFC 3339 text, already checked for shape by the route schema. */
  scheduledAt?: string | undefined;
  category?: string | undefined;
  privacy?: Privacy | undefined;
  /** Whether the recording becomes a video when the stream ends (default true). */
  record?: boolean | undefined;
  /** Default `normal`. */
  latencyMode?: LatencyMode | undefined;
}

export interface CreatedStream {
  stream: StreamRow;
  streamKey: string;
}

export interface StreamWithKey {
  stream: StreamRow;
  /** Only for the stream's creator, with a write-scoped key. */
  streamKey: string | undefined;
}

export interface ListStreamsInput {
  viewerId: string;
  status?: StreamStatus | undefined;
  creatorId?: string | undefined;
  category?: string | undefined;
  limit: number;
  after?: KeysetPosition | undefined;
}

export class StreamService {
  private readonly db: Db;
  private readonly recordings: StreamRecordings;
  private readonly clock: Clock;
  private readonly urls: PublicUrls;
  private readonly keys: StreamKeyVault;
  private readonly media: MediaRemoval;
  private readonly defaults: NewStreamDefaults;

  constructor(
    db: Db,
    clock: Clock,
    urls: PublicUrls,
    keys: StreamKeyVault,
    media: MediaRemoval,
    recordings: StreamRecordings,
    defaults: NewStreamDefaults = NO_STREAM_DEFAULTS,
  ) {
    this.recordings = recordings;
    this.defaults = defaults;
    this.db = db;
    this.clock = clock;
    this.urls = urls;
    this.keys = keys;
    this.media = media;
  }

  async create(creatorId: string, input: CreateStreamInput): Promise<CreatedStream> {
    const now = this.clock.now();
    const title = input.title.trim();
    if (title.length === 0) throw invalidParameter('title', "The field 'title' must not be blank.");
    let scheduledAt: number | null = null;
    if (input.scheduledAt !== undefined) {
      scheduledAt = Date.parse(input.scheduledAt);
      if (Number.isNaN(scheduledAt)) {
        throw invalidParameter('scheduled_at', "The field 'scheduled_at' must be a valid date-time.");
      }
      if (scheduledAt <= now) {
        throw invalidParameter('scheduled_at', "The field 'scheduled_at' must be in the future.");
      }
    }
    const row: StreamRow = {
      id: newId('str'),
      creator_id: creatorId,
      title,
      description: input.description ?? null,
      // Without scheduled_at the stream is in standby: `scheduled`, with scheduled_at null.
      status: 'scheduled',
      category: input.category ?? DEFAULT_STREAM_CATEGORY,
      privacy: input.privacy ?? 'public',
      viewer_count: null,
      peak_viewer_count: null,
      started_at: null,
      scheduled_at: scheduledAt,
      ended_at: null,
      thumbnail_at: null,
      created_at: now,
      updated_at: now,
      record: input.record === false ? 0 : 1,
      latency_mode: input.latencyMode ?? 'normal',
    };
    const issued = this.keys.issue(row.id);
    // The creator's defaults (simulcast destinations) are copied in with the stream, or neither is.
    await this.db.transaction().execute(async (trx) => {
      await repo.insertStream(trx, { ...row, ...issued.stored });
      await this.defaults.applyTo(trx, row, now);
    });
    return { stream: row, streamKey: issued.streamKey };
  }

  /**
   * A stream by ID, with its secret stream key when the caller is its creator using a
   * write-scoped key (a key that may publish is as powerful as one that may reset it). Any
   * authenticated caller may read a stream: private means unlisted. One query either way.
   */
  async getWithKey(id: string, caller: Pick<Principal, 'userId' | 'scope'>): Promise<StreamWithKey> {
    if (caller.scope !== 'write') return { stream: await this.getShown(id), streamKey: undefined };
    const row = await repo.findStreamWithStoredKey(this.db, id, caller.userId);
    if (!row) throw notFound('stream', id);
    // The row is the stream, carrying its stored key's columns too: taking them off with a rest
    // pattern copied every other field, a visible share of this read. Nothing writes a row out
    // whole (a response copies only its schema's fields, src/http/response-serializer.ts).
    return { stream: row, streamKey: this.keys.keyFor(id, row) };
  }

  /** Issues a new stream key; the old one stops working for new publishes at once. */
  async resetStreamKey(id: string, callerId: string): Promise<CreatedStream> {
    const stream = await repo.findShownStream(this.db, id);
    // Another creator's stream answers as missing: its key is none of their business.
    if (!stream || stream.creator_id !== callerId) throw notFound('stream', id);
    // The next version (a sealed key's stream starts its versions at 1). Two resets at once
    // derive the same next key, so either answer is the key the ingest admits.
    const issued = this.keys.issue(id, (await repo.findStreamKeyVersion(this.db, id)) ?? null);
    const now = this.clock.now();
    await repo.replaceStreamKey(this.db, id, issued.stored, now);
    return { stream: { ...stream, updated_at: now }, streamKey: issued.streamKey };
  }

  /** Any authenticated caller may read a stream by ID: private means unlisted. */
  async get(id: string): Promise<StreamRow> {
    const row = await repo.findStream(this.db, id);
    if (!row) throw notFound('stream', id);
    return row;
  }

  /**
   * A stream as viewers and the API see it: one taken down, or whose creator is suspended, is
   * missing (src/moderation/). `get` above is the platform's own read.
   */
  async getShown(id: string): Promise<StreamRow> {
    const row = await repo.findShownStream(this.db, id);
    if (!row) throw notFound('stream', id);
    return row;
  }

  /** Returns up to `limit + 1` rows; the extra one tells the caller more exist. */
  async list(input: ListStreamsInput): Promise<repo.StreamListRow[]> {
    return repo.listStreams(this.db, {
      viewerId: input.viewerId,
      status: input.status,
      creatorId: input.creatorId,
      category: input.category,
      after: input.after,
      take: input.limit + 1,
    });
  }

  // Management by the creator (API and dashboard). Another creator's stream answers as
  // missing, so an id reveals nothing about whether it exists.

  /**
   * Changes a stream's details (stream-update.ts says which, by status) and emits
   * stream.updated with the detail object in the same transaction. Values equal to the
   * current ones change nothing and emit nothing.
   */
  async update(id: string, callerId: string, input: StreamUpdateInput): Promise<StreamRow> {
    return this.db.transaction().execute(async (trx) => {
      const current = await this.owned(trx, id, callerId);
      const now = this.clock.now();
      const { changes, beforeLiveOnly } = planStreamUpdate(current, input, now);
      if (Object.keys(changes).length === 0) return current;
      const values = { ...changes, updated_at: now };
      // Written only if the status still allows it: the stream may have gone live meanwhile.
      const updated = beforeLiveOnly
        ? await repo.updateStreamIfStatus(trx, id, ['scheduled'], values)
        : await repo.updateStream(trx, id, values);
      if (!updated) throw stateConflict(`Stream ${id} went live meanwhile; only its details can change now.`);
      await recordEvent(trx, {
        type: 'stream.updated',
        accountId: updated.creator_id,
        at: now,
        data: toStreamDetail(updated, this.urls),
      });
      return updated;
    });
  }

  /**
   * Deletes a stream that is not live, with its viewer samples, and then its live media.
   * Videos recorded from it stay, with `source_stream_id` null (each emits video.updated);
   * while its recording is still being made into a video the deletion waits (409).
   */
  async delete(id: string, callerId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const current = await this.owned(trx, id, callerId);
      if (current.status === 'live') {
        throw stateConflict(`Stream ${id} is live; end it first (POST /v1/streams/${id}/end).`);
      }
      const now = this.clock.now();
      await this.recordings.beforeStreamDeleted(trx, current, now);
      if (!(await repo.deleteStreamIfStatus(trx, id, ['scheduled', 'ended']))) {
        throw stateConflict(`Stream ${id} went live meanwhile; end it first.`);
      }
      await recordEvent(trx, {
        type: 'stream.deleted',
        accountId: current.creator_id,
        at: now,
        data: { id, deleted: true },
      });
    });
    // After the commit: a failed deletion leaves the media in place with its row.
    await this.media.removeStream(id);
  }

  /**
   * Ends the creator's live stream, as the operator's `streams end` does: stream.ended is
   * emitted, the ingest's upkeep disconnects the encoder and refuses the key from then on,
   * and a recorded stream's video is published as usual.
   */
  async endByCreator(id: string, callerId: string): Promise<StreamRow> {
    const current = await this.owned(this.db, id, callerId);
    if (current.status !== 'live') {
      throw stateConflict(`Stream ${id} is ${current.status}, not live: only a live stream can be ended.`);
    }
    return this.end(id);
  }

  private async owned(db: Db, id: string, callerId: string): Promise<StreamRow> {
    const stream = await repo.findShownStream(db, id);
    if (!stream || stream.creator_id !== callerId) throw notFound('stream', id);
    return stream;
  }

  /** scheduled (or standby) -> live, emitting stream.started in the same transaction. */
  async goLive(id: string): Promise<StreamRow> {
    return this.transition(id, ['scheduled'], 'stream.started', (now) => ({
      status: 'live',
      started_at: now,
      viewer_count: 0,
      peak_viewer_count: 0,
      updated_at: now,
    }));
  }

  /** live -> ended, emitting stream.ended. `ended` is terminal. */
  async end(id: string): Promise<StreamRow> {
    return this.transition(id, ['live'], 'stream.ended', (now) => ({
      status: 'ended',
      ended_at: now,
      viewer_count: null,
      updated_at: now,
    }));
  }

  async setViewerCount(id: string, count: number): Promise<StreamRow> {
    if (!Number.isInteger(count) || count < 0) {
      throw invalidParameter('viewer_count', 'The viewer count must be a whole number of at least 0.');
    }
    return this.db.transaction().execute(async (trx) => {
      const current = await repo.findStream(trx, id);
      if (!current) throw notFound('stream', id);
      if (current.status !== 'live') throw stateConflict(`Stream ${id} is ${current.status}, not live.`);
      const now = this.clock.now();
      const updated = await repo.updateStreamIfStatus(trx, id, ['live'], {
        viewer_count: count,
        peak_viewer_count: Math.max(current.peak_viewer_count ?? 0, count),
        updated_at: now,
      });
      if (!updated) throw stateConflict(`Stream ${id} is no longer live.`);
      return updated;
    });
  }

  private async transition(
    id: string,
    from: readonly StreamStatus[],
    eventType: 'stream.started' | 'stream.ended',
    changes: (now: number) => Parameters<typeof repo.updateStreamIfStatus>[3],
  ): Promise<StreamRow> {
    return this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      const updated = await repo.updateStreamIfStatus(trx, id, from, changes(now));
      if (!updated) {
        const current = await repo.findStream(trx, id);
        if (!current) throw notFound('stream', id);
        throw stateConflict(`Stream ${id} is ${current.status}; it cannot move to ${eventType.slice(7)}.`);
      }
      await recordEvent(trx, {
        type: eventType,
        accountId: updated.creator_id,
        at: now,
        data: toStreamDetail(updated, this.urls),
      });
      // Subscribers are mailed by a job (src/mail/go-live.ts): going live waits for one row.
      if (eventType === 'stream.started')
        await enqueueJob(trx, { kind: GO_LIVE_MAIL_JOB, subjectId: id, maxAttempts: 5, now });
      return updated;
    });
  }

  // Ingest and media (issue 4).

  /**
   * The stream a publisher's key belongs to, if any. Only the ingest calls this. The key is
   * found by its keyed hash, so nothing compares the secret itself byte by byte.
   */
  async findByStreamKey(streamKey: string): Promise<StreamRow | undefined> {
    return repo.findStreamByKeyHash(this.db, this.keys.lookupHash(streamKey));
  }

  /** Records a freshly taken thumbnail; `thumbnail_url` then carries the new version. */
  async recordThumbnail(id: string, takenAt: number): Promise<void> {
    await repo.setStreamThumbnailAt(this.db, id, takenAt);
  }
}
