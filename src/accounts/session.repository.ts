import { sql } from 'kysely';
import { compiledQuery } from '../db/compiled-query.ts';
import type { Db } from '../db/database.ts';
import type { WebSessionTable } from './session.table.ts';
import type { Role } from '../moderation/moderation.table.ts';

export interface SessionWithUser {
  id: string;
  user_id: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  name: string;
  email: string | null;
  email_verified_at: number | null;
  role: Role;
  suspended_at: number | null;
  suspension_reason: string | null;
  /** The version of the user's avatar shown (src/profiles/), null without one. */
  avatar_version: number | null;
}

export async function insertSession(db: Db, session: WebSessionTable): Promise<void> {
  await db.insertInto('web_sessions').values(session).execute();
}

// Compiled once (src/db/compiled-query.ts): every signed-in page runs it, and building and
// compiling it with Kysely cost about as much as running it.
const sessionQuery = compiledQuery((db, filter: { id: string; now: number; startedAfter: number }) =>
  db
    .selectFrom('web_sessions')
    .innerJoin('users', 'users.id', 'web_sessions.user_id')
    // The header shows the user's avatar: joined here, so a page still reads its session once.
    .leftJoin('profile_images', (join) =>
      join
        .onRef('profile_images.user_id', '=', 'web_sessions.user_id')
        .on('profile_images.kind', '=', sql.lit('avatar')),
    )
    .select([
      'web_sessions.id',
      'web_sessions.user_id',
      'web_sessions.created_at',
      'web_sessions.last_seen_at',
      'web_sessions.expires_at',
      'users.name',
      'users.email',
      'users.email_verified_at',
      'users.role',
      'users.suspended_at',
      'users.suspension_reason',
      'profile_images.ready_version as avatar_version',
    ])
    .where('web_sessions.id', '=', filter.id)
    .where('web_sessions.expires_at', '>', filter.now)
    .where('web_sessions.created_at', '>', filter.startedAfter),
);

/** The live session with this id and its user, in one query (every signed-in page runs it). */
export async function findSession(
  db: Db,
  id: string,
  now: number,
  startedAfter: number,
): Promise<SessionWithUser | undefined> {
  const [row] = await sessionQuery.execute(db, { id, now, startedAfter });
  return row;
}

export async function extendSession(
  db: Db,
  id: string,
  lastSeenAt: number,
  expiresAt: number,
): Promise<void> {
  await db
    .updateTable('web_sessions')
    .set({ last_seen_at: lastSeenAt, expires_at: expiresAt })
    .where('id', '=', id)
    .execute();
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('web_sessions').where('id', '=', id).execute();
}

/** Every session of the user (sign-out everywhere); expired ones are swept with them. */
export async function deleteUserSessions(db: Db, userId: string, now: number): Promise<void> {
  await db.deleteFrom('web_sessions').where('user_id', '=', userId).execute();
  await db.deleteFrom('web_sessions').where('expires_at', '<=', now).execute();
}

/** Every other session of the user (after a password change). */
export async function deleteOtherSessions(db: Db, userId: string, keepId: string): Promise<void> {
  await db.deleteFrom('web_sessions').where('user_id', '=', userId).where('id', '!=', keepId).execute();
}
