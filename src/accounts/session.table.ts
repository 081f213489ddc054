export interface WebSessionTable {
  /** SHA-256 of the session cookie's token, hex: the token itself is never stored. */
  id: string;
  user_id: string;
  created_at: number;
  /** Sliding expiry: moved forward as the session is used (session.service.ts). */
  last_seen_at: number;
  expires_at: number;
}
