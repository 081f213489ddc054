import type { Db } from '../db/database.ts';

export interface LoginUser {
  id: string;
  name: string;
  email: string | null;
  password_hash: string | null;
}

export async function insertUserWithLogin(
  db: Db,
  user: { id: string; name: string; email: string; password_hash: string; created_at: number },
): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

export async function findLoginByEmail(db: Db, email: string): Promise<LoginUser | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'password_hash'])
    .where('email', '=', email)
    .executeTakeFirst();
}

export async function findLoginById(db: Db, id: string): Promise<LoginUser | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'password_hash'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function updateLogin(
  db: Db,
  id: string,
  login: { email?: string; password_hash?: string },
): Promise<boolean> {
  const result = await db.updateTable('users').set(login).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function countFailures(db: Db, bucket: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('sign_in_failures')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('bucket', '=', bucket)
    .where('failed_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Records a failure and forgets the bucket's failures older than the window. */
export async function recordFailure(db: Db, bucket: string, at: number, forgetBefore: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('sign_in_failures')
      .where('bucket', '=', bucket)
      .where('failed_at', '<=', forgetBefore)
      .execute();
    await trx.insertInto('sign_in_failures').values({ bucket, failed_at: at }).execute();
  });
}

export async function clearFailures(db: Db, bucket: string): Promise<void> {
  await db.deleteFrom('sign_in_failures').where('bucket', '=', bucket).execute();
}

export async function insertSignInLink(
  db: Db,
  link: { token_hash: string; user_id: string; created_at: number; expires_at: number },
): Promise<void> {
  await db
    .insertInto('sign_in_links')
    .values({ ...link, used_at: null })
    .execute();
}

export async function findSignInLink(db: Db, tokenHash: string, now: number) {
  return db
    .selectFrom('sign_in_links')
    .innerJoin('users', 'users.id', 'sign_in_links.user_id')
    .select(['sign_in_links.user_id', 'users.name'])
    .where('sign_in_links.token_hash', '=', tokenHash)
    .where('sign_in_links.used_at', 'is', null)
    .where('sign_in_links.expires_at', '>', now)
    .executeTakeFirst();
}

/** Marks the link used; false when it was already used (or expired) meanwhile: one use only. */
export async function useSignInLink(db: Db, tokenHash: string, now: number): Promise<string | undefined> {
  const row = await db
    .updateTable('sign_in_links')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id'])
    .executeTakeFirst();
  return row?.user_id;
}
