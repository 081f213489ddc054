import type { ColumnType } from 'kysely';

/** A user's login (migration 2026-11-23-050); null for users the CLI made without one. */
export interface UserLoginColumns {
  /** Lower-cased; unique among users that have one. */
  email: ColumnType<string | null, string | null | undefined, string | null>;
  /** `scrypt$N$r$p$salt$hash` (src/accounts/password.ts). */
  password_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the address was confirmed by a link sent to it (migration 2026-11-26-050); null until then. */
  email_verified_at: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface ApiKeyUsageColumns {
  /** Coarse (written in batches): when the key last authenticated a request. */
  last_used_at: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface SignInFailureTable {
  /** `account:<email>` or `address:<client>`. */
  bucket: string;
  failed_at: number;
  /**
   * The attempt that reserved this row (login.repository.ts's reserveAttempt): an attempt is
   * counted before its password is checked, and its rows are taken back if it succeeds.
   */
  attempt_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export type EmailTokenPurpose = 'verify' | 'reset';

/** A link sent by mail (migration 2026-11-26-050): single use, expiring. */
export interface EmailTokenTable {
  /** SHA-256 of the link's token, hex. */
  token_hash: string;
  user_id: string;
  purpose: EmailTokenPurpose;
  /** The address the link was sent to (what a `verify` link confirms). */
  email: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface SignInLinkTable {
  /** SHA-256 of the link's token, hex. */
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}
