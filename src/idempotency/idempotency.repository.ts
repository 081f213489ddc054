// Queries on idempotency_keys. A claim is identified by its lock token, so a request whose
// claim was taken over (its lock expired) can neither store nor release someone else's.
import type { Db } from '../db/database.ts';
import type { IdempotencyKeyRow } from './idempotency.table.ts';

export interface KeyRef {
  accountId: string;
  key: string;
}

export interface NewClaim extends KeyRef {
  fingerprint: string;
  token: string;
  lockedUntil: number;
  now: number;
  expiresAt: number;
}

/** Inserts a running claim; false when the key already has a row (the primary key decides). */
export async function insertClaim(db: Db, claim: NewClaim): Promise<boolean> {
  const result = await db
    .insertInto('idempotency_keys')
    .values({
      account_id: claim.accountId,
      idempotency_key: claim.key,
      fingerprint: claim.fingerprint,
      lock_token: claim.token,
      locked_until: claim.lockedUntil,
      response_status: null,
      response_body: null,
      created_at: claim.now,
      expires_at: claim.expiresAt,
    })
    .onConflict((conflict) => conflict.columns(['account_id', 'idempotency_key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function findKey(db: Db, { accountId, key }: KeyRef): Promise<IdempotencyKeyRow | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .select([
      'account_id',
      'idempotency_key',
      'fingerprint',
      'lock_token',
      'locked_until',
      'response_status',
      'response_body',
      'created_at',
      'expires_at',
    ])
    .where('account_id', '=', accountId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

/** Gives a stale running claim (its lock expired) to a new holder; false if someone was first. */
export async function takeOverClaim(
  db: Db,
  { accountId, key }: KeyRef,
  staleToken: string,
  token: string,
  lockedUntil: number,
): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({ lock_token: token, locked_until: lockedUntil })
    .where('account_id', '=', accountId)
    .where('idempotency_key', '=', key)
    .where('lock_token', '=', staleToken)
    .where('response_status', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Finishes a claim with its response; false if the claim is no longer this holder's. */
export async function storeResponse(
  db: Db,
  { accountId, key }: KeyRef,
  token: string,
  status: number,
  sealedBody: string,
): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({ response_status: status, response_body: sealedBody, lock_token: null, locked_until: null })
    .where('account_id', '=', accountId)
    .where('idempotency_key', '=', key)
    .where('lock_token', '=', token)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Frees the key of a claim whose outcome is not kept (a retry may run again). */
export async function deleteClaim(db: Db, { accountId, key }: KeyRef, token: string): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('account_id', '=', accountId)
    .where('idempotency_key', '=', key)
    .where('lock_token', '=', token)
    .execute();
}

/** Forgets a stored outcome that can no longer be opened (sealed under another master secret). */
export async function deleteUnreadable(
  db: Db,
  { accountId, key }: KeyRef,
  sealedBody: string,
): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('account_id', '=', accountId)
    .where('idempotency_key', '=', key)
    .where('response_body', '=', sealedBody)
    .execute();
}

/** Removes this key's row if it has expired (the lazy half of expiry). */
export async function deleteIfExpired(db: Db, { accountId, key }: KeyRef, now: number): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('account_id', '=', accountId)
    .where('idempotency_key', '=', key)
    .where('expires_at', '<=', now)
    .execute();
}

/** Deletes up to `limit` expired rows, oldest first; how many went. */
export async function pruneExpired(db: Db, now: number, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where((eb) =>
      eb(
        eb.refTuple('account_id', 'idempotency_key'),
        'in',
        eb
          .selectFrom('idempotency_keys')
          .select(['account_id', 'idempotency_key'])
          .where('expires_at', '<=', now)
          .orderBy('expires_at')
          .limit(limit)
          .$asTuple('account_id', 'idempotency_key'),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
