import type { Selectable } from 'kysely';

/**
 * One Idempotency-Key per account: claimed (running) while its first request is handled, then
 * holding that request's response until it expires. A running claim has a lock token and a
 * lock deadline; a stored response has neither.
 */
export interface IdempotencyKeyTable {
  account_id: string;
  idempotency_key: string;
  /** SHA-256 (hex) of the request's method, route, parameters and canonical JSON body. */
  fingerprint: string;
  /** The holder of a running claim; null once the response is stored. */
  lock_token: string | null;
  /** A running claim not finished by then is taken to have died with its process. */
  locked_until: number | null;
  response_status: number | null;
  /** The response body, sealed with SecretBox (it can hold a webhook secret or a stream key). */
  response_body: string | null;
  created_at: number;
  expires_at: number;
}

export type IdempotencyKeyRow = Selectable<IdempotencyKeyTable>;
