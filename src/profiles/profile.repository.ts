import type { Db } from '../db/database.ts';
import type { ProfileImageKind, ProfileImageRow } from './profile.table.ts';

export interface ProfileRow {
  id: string;
  name: string;
  bio: string | null;
  links: string;
}

export async function findProfileRow(db: Db, userId: string): Promise<ProfileRow | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'bio', 'links'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

export async function updateProfileRow(
  db: Db,
  userId: string,
  profile: { name: string; bio: string | null; links: string },
): Promise<boolean> {
  const result = await db.updateTable('users').set(profile).where('id', '=', userId).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function findImages(db: Db, userIds: readonly string[]): Promise<ProfileImageRow[]> {
  if (userIds.length === 0) return [];
  return db
    .selectFrom('profile_images')
    .select(['user_id', 'kind', 'status', 'pending_version', 'ready_version', 'error', 'updated_at'])
    .where('user_id', 'in', userIds)
    .execute();
}

/** The shown avatar version of each user who has one (one query for a page of creators). */
export async function findAvatarVersions(
  db: Db,
  userIds: readonly string[],
): Promise<{ user_id: string; ready_version: number }[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .selectFrom('profile_images')
    .select(['user_id', 'ready_version'])
    .where('kind', '=', 'avatar')
    .where('user_id', 'in', userIds)
    .where('ready_version', 'is not', null)
    .execute();
  return rows.flatMap((row) =>
    row.ready_version === null ? [] : [{ user_id: row.user_id, ready_version: row.ready_version }],
  );
}

export async function findImage(
  db: Db,
  userId: string,
  kind: ProfileImageKind,
): Promise<ProfileImageRow | undefined> {
  return db
    .selectFrom('profile_images')
    .select(['user_id', 'kind', 'status', 'pending_version', 'ready_version', 'error', 'updated_at'])
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .executeTakeFirst();
}

/** A new upload waits for the media job; the image shown (ready_version) stays meanwhile. */
export async function markImagePending(
  db: Db,
  image: { userId: string; kind: ProfileImageKind; version: number; now: number },
): Promise<void> {
  await db
    .insertInto('profile_images')
    .values({
      user_id: image.userId,
      kind: image.kind,
      status: 'processing',
      pending_version: image.version,
      ready_version: null,
      error: null,
      updated_at: image.now,
    })
    .onConflict((oc) =>
      oc.columns(['user_id', 'kind']).doUpdateSet({
        status: 'processing',
        pending_version: image.version,
        error: null,
        updated_at: image.now,
      }),
    )
    .execute();
}

/** Settles the upload `version`, unless a newer one has replaced it since; says whether it did. */
export async function settleImage(
  db: Db,
  image: { userId: string; kind: ProfileImageKind; version: number; now: number },
  outcome: { ready: true } | { ready: false; error: string },
): Promise<boolean> {
  const result = await db
    .updateTable('profile_images')
    .set(
      outcome.ready
        ? {
            status: 'ready',
            ready_version: image.version,
            pending_version: null,
            error: null,
            updated_at: image.now,
          }
        : { status: 'failed', pending_version: null, error: outcome.error, updated_at: image.now },
    )
    .where('user_id', '=', image.userId)
    .where('kind', '=', image.kind)
    .where('pending_version', '=', image.version)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
