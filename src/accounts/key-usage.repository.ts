// The API keys settings page's reads and the coarse last-used times (key-usage.ts).
import type { Db } from '../db/database.ts';
import type { Scope } from './account.table.ts';

export interface KeyListing {
  id: string;
  scope: Scope;
  token_hint: string;
  created_at: number;
  revoked_at: number | null;
  last_used_at: number | null;
}

export async function listKeysWithUsage(db: Db, userId: string): Promise<KeyListing[]> {
  return db
    .selectFrom('api_keys')
    .select(['id', 'scope', 'token_hint', 'created_at', 'revoked_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function findKeyOwner(db: Db, keyId: string): Promise<string | undefined> {
  const row = await db.selectFrom('api_keys').select(['user_id']).where('id', '=', keyId).executeTakeFirst();
  return row?.user_id;
}

/** One UPDATE per distinct time: a batch's keys mostly share the flush's minute. */
export async function recordKeyUse(db: Db, keyIds: string[], at: number): Promise<void> {
  if (keyIds.length === 0) return;
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', 'in', keyIds).execute();
}
