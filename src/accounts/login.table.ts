import type { ColumnType } from 'kysely';

/** A user's login (migration 2026-11-23-050); null for users the CLI made without one. */
export interface UserLoginColumns {
  /** Lower-cased; unique among users that have one. */
  email: ColumnType<string | null, string | null | undefined, string | null>;
  /** `scrypt$N$r$p$salt$hash` (src/accounts/password.ts). */
  password_hash: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ApiKeyUsageColumns {
  /** Coarse (written in batches): when the key last authenticated a request. */
  last_used_at: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface SignInFailureTable {
  /** `account:<email>` or `address:<client>`. */
  bucket: string;
  failed_at: number;
}

export interface SignInLinkTable {
  /** SHA-256 of the link's token, hex. */
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}
