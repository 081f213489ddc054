// Uploads: a creator declares a file (its size and the video's details), gets a tus URL that
// is the credential for exactly that file, sends the bytes (tus.routes.ts), and a media job
// (upload-processing.ts) turns the finished file into a published video. Limits are checked
// here, before any byte is accepted.
import fsp from 'node:fs/promises';
import type { Db } from '../db/database.ts';
import type { KeysetPosition } from '../db/keyset.ts';
import { recordEvent } from '../events/outbox.ts';
import type { EventType } from '../events/event-types.ts';
import { enqueueJob } from '../jobs/job.repository.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError, invalidParameter, notFound, stateConflict } from '../shared/errors.ts';
import { findUser } from '../accounts/account.repository.ts';
import { newId } from '../shared/ids.ts';
import type { Privacy } from '../streams/stream.table.ts';
import { checkDetails } from '../videos/video-rules.ts';
import type { Chapter } from '../videos/video.schemas.ts';
import * as repo from './upload.repository.ts';
import { toUpload } from './upload.serializer.ts';
import type { UploadRow, UploadStatus } from './upload.table.ts';
import type { UploadFiles } from './upload-files.ts';
import type { UploadUrls } from './upload-url.ts';

export const UPLOAD_JOB = 'upload.process';

export interface UploadLimits {
  maxBytes: number;
  quotaBytes: number;
  maxInFlight: number;
  expiryMs: number;
  jobAttempts: number;
}

export interface CreateUploadInput {
  creatorId: string;
  size: number;
  title: string;
  description?: string | undefined;
  category?: string | undefined;
  privacy?: Privacy | undefined;
  tags?: string[] | undefined;
  chapters?: Chapter[] | undefined;
}

export class UploadService {
  private readonly db: Db;
  private readonly clock: Clock;
  readonly files: UploadFiles;
  readonly urls: UploadUrls;
  private readonly limits: UploadLimits;
  /** Hears that a job was queued in this process (the runner looks at once). */
  onJobQueued: () => void = () => undefined;

  /** Refuses a creator who may not publish yet (an unconfirmed address: email_unverified). */
  private readonly mayPublish: (userId: string) => Promise<void>;

  constructor(
    db: Db,
    clock: Clock,
    files: UploadFiles,
    urls: UploadUrls,
    limits: UploadLimits,
    mayPublish: (userId: string) => Promise<void> = () => Promise.resolve(),
  ) {
    this.mayPublish = mayPublish;
    this.db = db;
    this.clock = clock;
    this.files = files;
    this.urls = urls;
    this.limits = limits;
  }

  get maxBytes(): number {
    return this.limits.maxBytes;
  }

  async create(input: CreateUploadInput): Promise<UploadRow> {
    await this.mayPublish(input.creatorId);
    const details = checkDetails(input);
    if (!Number.isSafeInteger(input.size) || input.size < 1) {
      throw invalidParameter('size', 'The size must be the file’s length in bytes, at least 1.');
    }
    if (input.size > this.limits.maxBytes) {
      throw invalidParameter(
        'size',
        `The file is ${formatBytes(input.size)}; uploads are limited to ${formatBytes(this.limits.maxBytes)}.`,
      );
    }
    const row = await this.db.transaction().execute(async (trx) => {
      await repo.lockAccount(trx, input.creatorId);
      const inFlight = await repo.countReceiving(trx, input.creatorId);
      if (inFlight >= this.limits.maxInFlight) {
        throw new AppError(
          'upload_limit_reached',
          `This account already has ${inFlight} uploads waiting for or receiving bytes (the limit is ${this.limits.maxInFlight}); finish or cancel one first.`,
        );
      }
      const quota = (await repo.accountQuota(trx, input.creatorId)) ?? this.limits.quotaBytes;
      const stored = await repo.storedBytes(trx, input.creatorId);
      if (stored + input.size > quota) {
        throw new AppError(
          'storage_quota_exceeded',
          `This file (${formatBytes(input.size)}) would take the account past its storage quota: ${formatBytes(stored)} of ${formatBytes(quota)} used. Delete videos or cancel uploads to make room.`,
          'size',
        );
      }
      const now = this.clock.now();
      const upload = newUploadRow(input, details, {
        size: input.size,
        received: 0,
        now,
        expiresAt: now + this.limits.expiryMs,
      });
      await repo.insertUpload(trx, upload);
      return upload;
    });
    try {
      await this.files.create(row.id, row.size, row.created_at);
    } catch (error) {
      await this.db.deleteFrom('uploads').where('id', '=', row.id).execute();
      throw error;
    }
    return row;
  }

  /**
   * The operator's `tributary videos import`: the file becomes an upload whose bytes are all in
   * (linked, or copied, into the uploads folder as its original) and whose media job is queued,
   * so it takes the same path to a video as an upload. The account's limits do not apply.
   */
  async importLocalFile(input: Omit<CreateUploadInput, 'size'>, file: string): Promise<UploadRow> {
    const details = checkDetails(input);
    if (!(await findUser(this.db, input.creatorId))) throw notFound('user', input.creatorId);
    const size = (await fsp.stat(file)).size;
    const now = this.clock.now();
    const row = newUploadRow(input, details, { size, received: size, now, expiresAt: now });
    await this.files.adopt(row.id, file);
    try {
      await repo.insertUpload(this.db, row);
    } catch (error) {
      await this.files.remove(row.id);
      throw error;
    }
    const queued = await this.complete(row.id);
    if (!queued) throw new Error(`upload ${row.id} could not be queued`);
    return queued;
  }

  /** Another account's upload is as missing as an unknown one. */
  async get(id: string, creatorId: string): Promise<UploadRow> {
    const row = await repo.findUpload(this.db, id);
    if (!row || row.creator_id !== creatorId) throw uploadNotFound(id);
    return row;
  }

  /** For the tus endpoint, which checks the URL's signature itself. */
  async find(id: string): Promise<UploadRow | undefined> {
    return repo.findUpload(this.db, id);
  }

  /** Whether the upload that made this video is still processing (its original not yet kept). */
  async processingFor(videoId: string): Promise<boolean> {
    return (await repo.findByVideo(this.db, videoId))?.status === 'processing';
  }

  async list(creatorId: string, after: KeysetPosition | undefined, take: number): Promise<UploadRow[]> {
    return repo.listUploads(this.db, creatorId, after, take);
  }

  /** Cancels an upload still receiving bytes; its bytes are removed. */
  async cancel(id: string, creatorId: string): Promise<UploadRow> {
    const row = await this.get(id, creatorId);
    const cancelled = await this.finishWith(row.id, repo.RECEIVING, 'cancelled', 'upload.cancelled', {});
    if (!cancelled) {
      throw stateConflict(
        row.status === 'ready'
          ? 'The upload is finished and its video published; delete the video instead.'
          : `The upload is ${(await this.get(id, creatorId)).status}; only an upload still waiting for or receiving bytes can be cancelled.`,
      );
    }
    await this.files.remove(row.id);
    await this.files.releaseWriters(row.id);
    return cancelled;
  }

  /** The tus endpoint's progress reports (about once a second while bytes arrive). */
  async received(id: string, bytes: number): Promise<void> {
    await repo.recordReceived(this.db, id, bytes, this.clock.now());
  }

  /** Every byte is in: the upload moves to processing and its media job is queued, together. */
  async complete(id: string): Promise<UploadRow | undefined> {
    const row = await this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      const upload = await repo.transition(trx, id, repo.RECEIVING, {
        status: 'processing',
        updated_at: now,
      });
      if (!upload) return undefined;
      await trx.updateTable('uploads').set({ received_bytes: upload.size }).where('id', '=', id).execute();
      upload.received_bytes = upload.size;
      await enqueueJob(trx, { kind: UPLOAD_JOB, subjectId: id, maxAttempts: this.limits.jobAttempts, now });
      await this.record(trx, 'upload.processing', upload, now);
      return upload;
    });
    if (row) this.onJobQueued();
    return row;
  }

  /** Moves a processing upload to ready once its video is published (once). */
  async markReady(id: string, videoId: string): Promise<UploadRow | undefined> {
    return this.finishWith(id, ['processing'], 'ready', 'upload.ready', {
      video_id: videoId,
      processing_percent: 100,
    });
  }

  /** Errors an upload (processing failed, or its URL expired), with a code the creator reads. */
  async markErrored(
    id: string,
    from: readonly UploadStatus[],
    code: string,
    message: string,
  ): Promise<UploadRow | undefined> {
    return this.finishWith(id, from, 'errored', 'upload.errored', {
      error_code: code,
      error_message: message,
    });
  }

  async recordProcessing(id: string, percent: number): Promise<void> {
    await repo.recordProcessing(this.db, id, percent, this.clock.now());
  }

  /** Errors uploads whose URL expired before every byte arrived, and removes their bytes. */
  async expireStale(): Promise<number> {
    const expired = await repo.findExpired(this.db, this.clock.now(), 100);
    let count = 0;
    for (const upload of expired) {
      const errored = await this.markErrored(
        upload.id,
        repo.RECEIVING,
        'upload_expired',
        `The upload URL expired at ${new Date(upload.expires_at).toISOString()} before the whole file arrived; create a new upload.`,
      );
      if (errored) {
        await this.files.remove(upload.id);
        count++;
      }
    }
    return count;
  }

  async setQuota(creatorId: string, bytes: number | null): Promise<boolean> {
    return repo.setAccountQuota(this.db, creatorId, bytes);
  }

  async usage(creatorId: string): Promise<{ storedBytes: number; quotaBytes: number }> {
    const quota = (await repo.accountQuota(this.db, creatorId)) ?? this.limits.quotaBytes;
    return { storedBytes: await repo.storedBytes(this.db, creatorId), quotaBytes: quota };
  }

  private async finishWith(
    id: string,
    from: readonly UploadStatus[],
    status: UploadStatus,
    event: EventType,
    changes: Partial<UploadRow>,
  ): Promise<UploadRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      const row = await repo.transition(trx, id, from, { ...changes, status, updated_at: now });
      if (row) await this.record(trx, event, row, now);
      return row;
    });
  }

  private async record(trx: Db, type: EventType, row: UploadRow, at: number): Promise<void> {
    await recordEvent(trx, { type, accountId: row.creator_id, at, data: toUpload(row, this.urls) });
  }
}

/** A new upload, waiting for its bytes (or, imported, with them all in). */
function newUploadRow(
  input: Omit<CreateUploadInput, 'size'>,
  details: { title: string; category: string },
  at: { size: number; received: number; now: number; expiresAt: number },
): UploadRow {
  return {
    id: newId('upl'),
    creator_id: input.creatorId,
    status: 'waiting',
    size: at.size,
    received_bytes: at.received,
    processing_percent: 0,
    title: details.title,
    description: input.description ?? null,
    category: details.category,
    privacy: input.privacy ?? 'public',
    tags: JSON.stringify([...new Set(input.tags ?? [])]),
    chapters: JSON.stringify(input.chapters ?? []),
    video_id: null,
    error_code: null,
    error_message: null,
    expires_at: at.expiresAt,
    created_at: at.now,
    updated_at: at.now,
  };
}

export function uploadNotFound(id: string): AppError {
  return new AppError('resource_not_found', `No upload with id '${id}' exists.`, 'id');
}

export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} bytes` : `${value.toFixed(value >= 100 ? 0 : 1)} ${units[unit]}`;
}
