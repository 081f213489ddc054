import type { Db } from '../db/database.ts';
import type { ChannelKeyRow } from './channel-key.table.ts';

export interface StoredChannelKey {
  key_hash: string;
  key_ciphertext: string;
}

export async function findChannelKey(db: Db, userId: string): Promise<ChannelKeyRow | undefined> {
  return db
    .selectFrom('channel_keys')
    .select(['user_id', 'key_hash', 'key_ciphertext', 'created_at', 'updated_at'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The first key of a user; a row already there (a racing first read) is kept. */
export async function insertChannelKeyIfAbsent(
  db: Db,
  userId: string,
  stored: StoredChannelKey,
  at: number,
): Promise<void> {
  await db
    .insertInto('channel_keys')
    .values({ user_id: userId, ...stored, created_at: at, updated_at: at })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
}

/** A new key in place of the old one (or the first), in one statement. */
export async function replaceChannelKey(
  db: Db,
  userId: string,
  stored: StoredChannelKey,
  at: number,
): Promise<void> {
  await db
    .insertInto('channel_keys')
    .values({ user_id: userId, ...stored, created_at: at, updated_at: at })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...stored, updated_at: at }))
    .execute();
}

/** The ingest's lookup: an equality match on the unique index of keyed hashes. */
export async function findUserIdByKeyHash(db: Db, keyHash: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('channel_keys')
    .select('user_id')
    .where('key_hash', '=', keyHash)
    .executeTakeFirst();
  return row?.user_id;
}
