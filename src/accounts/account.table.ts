import type { Selectable } from 'kysely';

export interface UserTable {
  id: string;
  name: string;
  created_at: number;
}

export type Scope = 'read' | 'write';

export interface ApiKeyTable {
  id: string;
  user_id: string;
  scope: Scope;
  /** SHA-256 of the full key, hex. The key itself is never stored. */
  token_hash: string;
  /** The key's last four characters, so an operator can tell keys apart. */
  token_hint: string;
  created_at: number;
  revoked_at: number | null;
}

export type UserRow = Selectable<UserTable>;
export type ApiKeyRow = Selectable<ApiKeyTable>;
