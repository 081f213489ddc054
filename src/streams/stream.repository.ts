import { sql, type Updateable } from 'kysely';
import { compiledQuery, literalLimit } from '../db/compiled-query.ts';
import type { Db } from '../db/database.ts';
import type { KeysetPosition } from '../db/keyset.ts';
import { streamShown } from '../accounts/standing.ts';
import type { StoredKeyForCreator, StoredStreamKey } from './stream-key-vault.ts';
import type { NewStreamRow, StreamRow, StreamStatus, StreamTable } from './stream.table.ts';

// Named columns, never selectAll(): a column added later (a secret, say) cannot leak into
// the API by accident. A page reads only what its items show.
const STREAM_LIST_COLUMNS = [
  'id',
  'creator_id',
  'title',
  'description',
  'status',
  'category',
  'privacy',
  'viewer_count',
  'started_at',
  'scheduled_at',
  'thumbnail_at',
  'created_at',
  'latency_mode',
] as const;

const STREAM_COLUMNS = [
  ...STREAM_LIST_COLUMNS,
  'peak_viewer_count',
  'ended_at',
  'updated_at',
  'record',
] as const;

/** A stream as a list reads it. */
export type StreamListRow = Pick<StreamRow, (typeof STREAM_LIST_COLUMNS)[number]>;

export async function insertStream(db: Db, row: NewStreamRow): Promise<void> {
  await db.insertInto('streams').values(row).execute();
}

const findStreamQuery = compiledQuery((db, p: { id: string }) =>
  db.selectFrom('streams').select(STREAM_COLUMNS).where('id', '=', p.id),
);

export async function findStream(db: Db, id: string): Promise<StreamRow | undefined> {
  const rows = await findStreamQuery.execute(db, { id });
  return rows[0];
}

// What viewers and the API may read: neither taken down nor its creator suspended
// (src/accounts/standing.ts). findStream above is the platform's own read (the ingest, moderation).
const findShownStreamQuery = compiledQuery((db, p: { id: string }) =>
  db.selectFrom('streams').select(STREAM_COLUMNS).where('id', '=', p.id).where(streamShown()),
);

export async function findShownStream(db: Db, id: string): Promise<StreamRow | undefined> {
  const rows = await findShownStreamQuery.execute(db, { id });
  return rows[0];
}

export interface StreamListFilter {
  /** The caller: private streams are listed for their creator only. */
  viewerId: string;
  status?: StreamStatus | undefined;
  creatorId?: string | undefined;
  category?: string | undefined;
  after?: KeysetPosition | undefined;
  /** Rows to fetch: the page size plus one, to learn whether more exist. */
  take: number;
}

const listStreamsQuery = compiledQuery(
  (db, filter: Omit<StreamListFilter, 'take'>, { take }: { take: number }) => {
    let query = db
      .selectFrom('streams')
      .select(STREAM_LIST_COLUMNS)
      .where((eb) => eb.or([eb('privacy', '=', sql.lit('public')), eb('creator_id', '=', filter.viewerId)]))
      .where(streamShown());
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    if (filter.creatorId !== undefined) query = query.where('creator_id', '=', filter.creatorId);
    if (filter.category !== undefined) query = query.where('category', '=', filter.category);
    const after = filter.after;
    if (after !== undefined) {
      query = query.where((eb) =>
        eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.sortKey, after.id)),
      );
    }
    // The page size is written into the SQL (literalLimit), so it is a literal, not a parameter.
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(literalLimit(take));
  },
);

/** Newest first by (created_at, id); a keyset page never skips or repeats rows. */
export async function listStreams(db: Db, filter: StreamListFilter): Promise<StreamListRow[]> {
  const { take, ...parameters } = filter;
  return listStreamsQuery.execute(db, parameters, { take });
}

/**
 * Applies `changes` only while the stream is in one of `from`, so two racing transitions
 * cannot both succeed. Returns the updated row, or undefined when the state did not match.
 */
export async function updateStreamIfStatus(
  db: Db,
  id: string,
  from: readonly StreamStatus[],
  changes: Updateable<StreamTable>,
): Promise<StreamRow | undefined> {
  return db
    .updateTable('streams')
    .set(changes)
    .where('id', '=', id)
    .where('status', 'in', from)
    .returning(STREAM_COLUMNS)
    .executeTakeFirst();
}

// What a stream's key is shown from is read only here, and only for the stream's creator: for
// anyone else the columns come back null. The creator's read of a stream then needs no second
// query.
const findStreamWithStoredKeyQuery = compiledQuery((db, p: { id: string; creatorId: string }) =>
  db
    .selectFrom('streams')
    .select(STREAM_COLUMNS)
    .select((eb) => [
      eb
        .case()
        .when('creator_id', '=', p.creatorId)
        .then(eb.ref('stream_key_hash'))
        .end()
        .as('stream_key_hash'),
      eb
        .case()
        .when('creator_id', '=', p.creatorId)
        .then(eb.ref('stream_key_ciphertext'))
        .end()
        .as('stream_key_ciphertext'),
      eb
        .case()
        .when('creator_id', '=', p.creatorId)
        .then(eb.ref('stream_key_version'))
        .end()
        .as('stream_key_version'),
      eb
        .case()
        .when('creator_id', '=', p.creatorId)
        .then(eb.ref('stream_key_secret_tag'))
        .end()
        .as('stream_key_secret_tag'),
    ])
    .where('id', '=', p.id)
    .where(streamShown()),
);

/** A stream, with what its key is shown from when `creatorId` created it (nulls otherwise). */
export async function findStreamWithStoredKey(
  db: Db,
  id: string,
  creatorId: string,
): Promise<(StreamRow & StoredKeyForCreator) | undefined> {
  const rows = await findStreamWithStoredKeyQuery.execute(db, { id, creatorId });
  return rows[0];
}

/** The stored key's version (null for a sealed key); undefined when there is no such stream. */
export async function findStreamKeyVersion(db: Db, id: string): Promise<number | null | undefined> {
  const row = await db
    .selectFrom('streams')
    .select('stream_key_version')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.stream_key_version;
}

/** The ingest's lookup: an equality match on the unique index of keyed hashes. */
export async function findStreamByKeyHash(db: Db, keyHash: string): Promise<StreamRow | undefined> {
  return db
    .selectFrom('streams')
    .select(STREAM_COLUMNS)
    .where('stream_key_hash', '=', keyHash)
    .executeTakeFirst();
}

export async function replaceStreamKey(
  db: Db,
  id: string,
  stored: StoredStreamKey,
  at: number,
): Promise<boolean> {
  const result = await db
    .updateTable('streams')
    .set({ ...stored, updated_at: at })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Records that a new thumbnail was taken; the time versions its URL. */
export async function setStreamThumbnailAt(db: Db, id: string, takenAt: number): Promise<void> {
  await db
    .updateTable('streams')
    .set({ thumbnail_at: takenAt, updated_at: takenAt })
    .where('id', '=', id)
    .execute();
}

/** Applies `changes` whatever the stream's status; undefined when there is no such stream. */
export async function updateStream(
  db: Db,
  id: string,
  changes: Updateable<StreamTable>,
): Promise<StreamRow | undefined> {
  return db
    .updateTable('streams')
    .set(changes)
    .where('id', '=', id)
    .returning(STREAM_COLUMNS)
    .executeTakeFirst();
}

/**
 * Deletes the stream only while it is in one of `from` (a stream going live meanwhile stays),
 * with its viewer samples. Videos recorded from it must have been let go of first (the
 * foreign key). True when the row went.
 */
export async function deleteStreamIfStatus(
  db: Db,
  id: string,
  from: readonly StreamStatus[],
): Promise<boolean> {
  await db.deleteFrom('stream_viewer_samples').where('stream_id', '=', id).execute();
  const result = await db
    .deleteFrom('streams')
    .where('id', '=', id)
    .where('status', 'in', from)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
