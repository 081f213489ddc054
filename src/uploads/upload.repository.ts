// Uploads' SQL. Status changes are conditional UPDATEs on the status they leave, so two
// processes (a finishing PATCH and a cancel, a sweeper and a late byte) cannot both win.
import type { Db } from '../db/database.ts';
import { dialectOf } from '../db/dialect.ts';
import type { KeysetPosition } from '../db/keyset.ts';
import type { UploadRow, UploadStatus, UploadTable } from './upload.table.ts';

/** Statuses in which the upload URL accepts bytes. */
export const RECEIVING: readonly UploadStatus[] = ['waiting', 'uploading'];

export async function insertUpload(db: Db, row: UploadTable): Promise<void> {
  await db.insertInto('uploads').values(row).execute();
}

export async function findUpload(db: Db, id: string): Promise<UploadRow | undefined> {
  return db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listUploads(
  db: Db,
  creatorId: string,
  after: KeysetPosition | undefined,
  take: number,
): Promise<UploadRow[]> {
  let query = db.selectFrom('uploads').selectAll().where('creator_id', '=', creatorId);
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', after.sortKey),
        eb.and([eb('created_at', '=', after.sortKey), eb('id', '<', after.id)]),
      ]),
    );
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(take).execute();
}

/** Takes the account's row lock on PostgreSQL, so two creations check the limits in turn. */
export async function lockAccount(trx: Db, creatorId: string): Promise<void> {
  if (dialectOf(trx) === 'postgres') {
    await trx.selectFrom('users').select('id').where('id', '=', creatorId).forUpdate().execute();
  }
}

export async function countReceiving(db: Db, creatorId: string): Promise<number> {
  const row = await db
    .selectFrom('uploads')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('creator_id', '=', creatorId)
    .where('status', 'in', RECEIVING)
    .executeTakeFirst();
  return row?.n ?? 0;
}

/**
 * Bytes the account's uploads hold: every upload still arriving or processing, and every
 * ready one whose video still exists (its original is kept beside the video).
 */
export async function storedBytes(db: Db, creatorId: string): Promise<number> {
  const row = await db
    .selectFrom('uploads')
    .leftJoin('videos', 'videos.id', 'uploads.video_id')
    // PostgreSQL sums bigints as numeric, which its driver gives as text.
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('uploads.size'), eb.lit(0)).as('bytes'))
    .where('uploads.creator_id', '=', creatorId)
    .where((eb) =>
      eb.or([
        eb('uploads.status', 'in', ['waiting', 'uploading', 'processing']),
        eb.and([eb('uploads.status', '=', 'ready'), eb('videos.id', 'is not', null)]),
      ]),
    )
    .executeTakeFirst();
  return Number(row?.bytes ?? 0);
}

export async function accountQuota(db: Db, creatorId: string): Promise<number | null | undefined> {
  const row = await db
    .selectFrom('users')
    .select('storage_quota_bytes')
    .where('id', '=', creatorId)
    .executeTakeFirst();
  return row ? row.storage_quota_bytes : undefined;
}

export async function setAccountQuota(db: Db, creatorId: string, bytes: number | null): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ storage_quota_bytes: bytes })
    .where('id', '=', creatorId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Moves an upload from one of `from` to `to` with the given changes; the row, or undefined. */
export async function transition(
  db: Db,
  id: string,
  from: readonly UploadStatus[],
  changes: Partial<UploadTable> & { status: UploadStatus; updated_at: number },
): Promise<UploadRow | undefined> {
  return db
    .updateTable('uploads')
    .set(changes)
    .where('id', '=', id)
    .where('status', 'in', from)
    .returningAll()
    .executeTakeFirst();
}

/** Records bytes received; the first bytes move a waiting upload to uploading. */
export async function recordReceived(db: Db, id: string, bytes: number, now: number): Promise<void> {
  await db
    .updateTable('uploads')
    .set({ received_bytes: bytes, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'uploading')
    .execute();
  await db
    .updateTable('uploads')
    .set({ status: 'uploading', received_bytes: bytes, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'waiting')
    .execute();
}

export async function recordProcessing(db: Db, id: string, percent: number, now: number): Promise<void> {
  await db
    .updateTable('uploads')
    .set({ processing_percent: percent, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'processing')
    .execute();
}

export async function setUploadVideo(db: Db, id: string, videoId: string | null, now: number): Promise<void> {
  await db.updateTable('uploads').set({ video_id: videoId, updated_at: now }).where('id', '=', id).execute();
}

/** Uploads still receiving whose URL has expired (the sweeper errors them and removes their bytes). */
export async function findExpired(db: Db, now: number, take: number): Promise<UploadRow[]> {
  return db
    .selectFrom('uploads')
    .selectAll()
    .where('status', 'in', RECEIVING)
    .where('expires_at', '<=', now)
    .limit(take)
    .execute();
}

export async function findByVideo(db: Db, videoId: string): Promise<UploadRow | undefined> {
  return db.selectFrom('uploads').selectAll().where('video_id', '=', videoId).executeTakeFirst();
}
