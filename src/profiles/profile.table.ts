import type { ColumnType, Selectable } from 'kysely';

/** A creator's profile on their user row (migration 2026-11-26-030). */
export interface ProfileColumns {
  bio: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON array of https URLs. */
  links: ColumnType<string, string | undefined, string>;
}

export type ProfileImageKind = 'avatar' | 'banner';
export type ProfileImageStatus = 'processing' | 'ready' | 'failed';

export interface ProfileImageTable {
  user_id: string;
  kind: ProfileImageKind;
  status: ProfileImageStatus;
  /** The upload being processed (its original waits under DATA_DIR/profiles/incoming). */
  pending_version: number | null;
  /** The version shown: its files are DATA_DIR/profiles/<user>/<kind>-<version>-<size>.jpg. */
  ready_version: number | null;
  /** Why the last upload was refused by the media job. */
  error: string | null;
  updated_at: number;
}

export type ProfileImageRow = Selectable<ProfileImageTable>;
