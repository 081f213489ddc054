import { compiledQuery } from '../db/compiled-query.ts';
import type { Db } from '../db/database.ts';
import type { ApiKeyRow, Scope, UserRow } from './account.table.ts';
import type { Role } from '../moderation/moderation.table.ts';

export async function insertUser(db: Db, user: UserRow): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

export async function findUser(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').select(['id', 'name', 'created_at']).where('id', '=', id).executeTakeFirst();
}

/** An account's role and standing (src/moderation/); undefined when there is no such user. */
export async function findStanding(
  db: Db,
  id: string,
): Promise<
  | { id: string; name: string; role: Role; suspended_at: number | null; suspension_reason: string | null }
  | undefined
> {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'role', 'suspended_at', 'suspension_reason'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function countUsers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertApiKey(db: Db, key: ApiKeyRow): Promise<void> {
  await db.insertInto('api_keys').values(key).execute();
}

export interface ActiveKey {
  id: string;
  user_id: string;
  scope: Scope;
}

// Every request whose key is not in the service's short-lived cache runs this one.
const findActiveKeyQuery = compiledQuery((db, p: { tokenHash: string }) =>
  db
    .selectFrom('api_keys')
    .select(['id', 'user_id', 'scope'])
    .where('token_hash', '=', p.tokenHash)
    .where('revoked_at', 'is', null)
    // A suspended account's keys stop with it (src/moderation/); reinstating brings them back.
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('users')
            .select('users.id')
            .whereRef('users.id', '=', 'api_keys.user_id')
            .where('users.suspended_at', 'is not', null),
        ),
      ),
    ),
);

export async function findActiveKeyByHash(db: Db, tokenHash: string): Promise<ActiveKey | undefined> {
  const rows = await findActiveKeyQuery.execute(db, { tokenHash });
  return rows[0];
}

export async function listApiKeys(db: Db, userId: string): Promise<Omit<ApiKeyRow, 'token_hash'>[]> {
  return db
    .selectFrom('api_keys')
    .select(['id', 'user_id', 'scope', 'token_hint', 'created_at', 'revoked_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
}

/** Returns false when no such key exists; revoking twice keeps the first time. */
export async function revokeApiKey(db: Db, id: string, at: number): Promise<boolean> {
  const key = await db.selectFrom('api_keys').select(['id']).where('id', '=', id).executeTakeFirst();
  if (!key) return false;
  await db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
  return true;
}
