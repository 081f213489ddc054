import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { dialectOf } from '../db/dialect.ts';
import type { EmailTokenPurpose } from './login.table.ts';

export interface LoginUser {
  id: string;
  name: string;
  email: string | null;
  password_hash: string | null;
  email_verified_at: number | null;
}

export async function insertUserWithLogin(
  db: Db,
  user: {
    id: string;
    name: string;
    email: string;
    password_hash: string;
    created_at: number;
    email_verified_at: number | null;
  },
): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

export async function findLoginByEmail(db: Db, email: string): Promise<LoginUser | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'password_hash', 'email_verified_at'])
    .where('email', '=', email)
    .executeTakeFirst();
}

export async function findLoginById(db: Db, id: string): Promise<LoginUser | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'password_hash', 'email_verified_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function updateLogin(
  db: Db,
  id: string,
  login: { email?: string; password_hash?: string; email_verified_at?: number | null },
): Promise<boolean> {
  const result = await db.updateTable('users').set(login).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

async function countFailures(db: Db, bucket: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('sign_in_failures')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('bucket', '=', bucket)
    .where('failed_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export interface Throttle {
  bucket: string;
  limit: number;
}

/**
 * Counts an attempt in every bucket before it is made, in one step with the check: false (and
 * nothing recorded) when a bucket already holds `limit` rows newer than `since`. The rows stay
 * as failures unless releaseAttempt takes them back. PostgreSQL takes a transaction lock per
 * bucket (in a fixed order, so two attempts never wait on each other); SQLite runs one writing
 * transaction at a time anyway. So 25 concurrent attempts against a limit of 10 check 10.
 */
export async function reserveAttempt(
  db: Db,
  buckets: readonly Throttle[],
  attemptId: string,
  now: number,
  since: number,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (dialectOf(trx) === 'postgres') {
      for (const bucket of [...new Set(buckets.map((b) => b.bucket))].sort())
        await sql`select pg_advisory_xact_lock(hashtextextended(${bucket}, 27))`.execute(trx);
    }
    for (const { bucket, limit } of buckets) {
      if ((await countFailures(trx, bucket, since)) >= limit) return false;
    }
    await trx
      .insertInto('sign_in_failures')
      .values(buckets.map(({ bucket }) => ({ bucket, failed_at: now, attempt_id: attemptId })))
      .execute();
    return true;
  });
}

/** An attempt that succeeded is not a failure: its reserved rows go. */
export async function releaseAttempt(db: Db, attemptId: string): Promise<void> {
  await db.deleteFrom('sign_in_failures').where('attempt_id', '=', attemptId).execute();
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

export async function insertEmailToken(
  db: Db,
  token: {
    token_hash: string;
    user_id: string;
    purpose: EmailTokenPurpose;
    email: string;
    created_at: number;
    expires_at: number;
  },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // A newer link replaces the older ones of the same purpose.
    await trx
      .updateTable('email_tokens')
      .set({ used_at: token.created_at })
      .where('user_id', '=', token.user_id)
      .where('purpose', '=', token.purpose)
      .where('used_at', 'is', null)
      .execute();
    await trx
      .insertInto('email_tokens')
      .values({ ...token, used_at: null })
      .execute();
  });
}

export async function findEmailToken(db: Db, tokenHash: string, purpose: EmailTokenPurpose, now: number) {
  return db
    .selectFrom('email_tokens')
    .select(['user_id', 'email'])
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Spends the token: its user and address, or undefined when it was unknown, used or expired. */
export async function useEmailToken(
  db: Db,
  tokenHash: string,
  purpose: EmailTokenPurpose,
  now: number,
): Promise<{ user_id: string; email: string } | undefined> {
  return db
    .updateTable('email_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'email'])
    .executeTakeFirst();
}

/** Every unused link of this purpose stops working (a password changed: old reset links die). */
export async function voidEmailTokens(
  db: Db,
  userId: string,
  purpose: EmailTokenPurpose,
  now: number,
): Promise<void> {
  await db
    .updateTable('email_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}

export interface Pruned {
  failures: number;
  sessions: number;
  links: number;
}

/**
 * Forgets what no longer counts: failures older than the window, sessions past their expiry,
 * and sign-in and mailed links used or expired more than `linkGraceMs` ago.
 */
export async function pruneLogins(
  db: Db,
  now: number,
  failuresBefore: number,
  linkGraceMs: number,
): Promise<Pruned> {
  const failures = await db
    .deleteFrom('sign_in_failures')
    .where('failed_at', '<=', failuresBefore)
    .executeTakeFirst();
  const sessions = await db.deleteFrom('web_sessions').where('expires_at', '<=', now).executeTakeFirst();
  const before = now - linkGraceMs;
  const signInLinks = await db
    .deleteFrom('sign_in_links')
    .where((eb) => eb.or([eb('used_at', '<=', before), eb('expires_at', '<=', before)]))
    .executeTakeFirst();
  const mailed = await db
    .deleteFrom('email_tokens')
    .where((eb) => eb.or([eb('used_at', '<=', before), eb('expires_at', '<=', before)]))
    .executeTakeFirst();
  return {
    failures: Number(failures.numDeletedRows),
    sessions: Number(sessions.numDeletedRows),
    links: Number(signInLinks.numDeletedRows) + Number(mailed.numDeletedRows),
  };
}
