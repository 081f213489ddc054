// Idempotency-Key rules, independent of HTTP: a key is claimed before its request runs (one
// claim per account and key, decided by the database, so processes sharing it agree), the
// claim's outcome is stored sealed, and later requests with the key either get that outcome
// back, or are refused while it runs or when they are a different request.
import type { Db } from '../db/database.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import { randomBase62 } from '../shared/ids.ts';
import type { SecretBox } from '../shared/secret-box.ts';
import * as repo from './idempotency.repository.ts';
import type { KeyRef } from './idempotency.repository.ts';

export const IDEMPOTENCY_DEFAULTS = {
  /** How long a key keeps its outcome, from its first request. */
  ttlMs: 24 * 60 * 60 * 1000,
  /** How long a running claim holds the key before a retry may take it over (a dead process). */
  lockMs: 60_000,
  /** How often a process deletes expired rows, and at most how many at a time. */
  pruneIntervalMs: 60_000,
  pruneBatch: 500,
};

export type IdempotencyOptions = typeof IDEMPOTENCY_DEFAULTS;

/** A running claim, held by one request until it stores or releases it. */
export interface Claim extends KeyRef {
  fingerprint: string;
  token: string;
}

export type ClaimOutcome =
  { kind: 'claimed'; claim: Claim } | { kind: 'replay'; status: number; body: string };

// A claim that vanishes between the insert and the read (released or expired meanwhile) is
// tried again; more than this many turns means it is busy.
const CLAIM_ATTEMPTS = 3;

export class IdempotencyService {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly box: SecretBox;
  private readonly options: IdempotencyOptions;
  private nextPruneAt = 0;

  constructor(db: Db, clock: Clock, box: SecretBox, options: Partial<IdempotencyOptions> = {}) {
    this.db = db;
    this.clock = clock;
    this.box = box;
    this.options = { ...IDEMPOTENCY_DEFAULTS, ...options };
  }

  /**
   * Claims `key` for a request with this fingerprint, or returns the stored outcome of the
   * same request. Throws idempotency_key_reused for another request with the key and
   * idempotency_key_in_use while the first one runs.
   */
  async claim(accountId: string, key: string, fingerprint: string): Promise<ClaimOutcome> {
    const ref: KeyRef = { accountId, key };
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      const now = this.clock.now();
      const token = randomBase62(22);
      const lockedUntil = now + this.options.lockMs;
      const claimed = await repo.insertClaim(this.db, {
        ...ref,
        fingerprint,
        token,
        lockedUntil,
        now,
        expiresAt: now + this.options.ttlMs,
      });
      if (claimed) return { kind: 'claimed', claim: { ...ref, fingerprint, token } };

      const row = await repo.findKey(this.db, ref);
      if (!row) continue;
      if (row.expires_at <= now) {
        await repo.deleteIfExpired(this.db, ref, now);
        continue;
      }
      if (row.fingerprint !== fingerprint) {
        throw new AppError(
          'idempotency_key_reused',
          'This Idempotency-Key was already used for a different request; use a new key for a new request.',
        );
      }
      if (row.response_status !== null && row.response_body !== null) {
        const body = this.openStored(row.response_body, ref, fingerprint);
        if (body !== undefined) return { kind: 'replay', status: row.response_status, body };
        // Sealed under another master secret (SECRET_KEY was changed): the first response is
        // lost, as stored stream keys and webhook secrets are. Refusing would only make the
        // client retry under a new key, so the key is forgotten and this request runs afresh.
        await repo.deleteUnreadable(this.db, ref, row.response_body);
        continue;
      }
      if (row.lock_token !== null && row.locked_until !== null && row.locked_until <= now) {
        // The request that claimed the key did not finish in time: its process is taken to have
        // died, and this request runs instead.
        if (await repo.takeOverClaim(this.db, ref, row.lock_token, token, lockedUntil)) {
          return { kind: 'claimed', claim: { ...ref, fingerprint, token } };
        }
        continue;
      }
      throw inUse();
    }
    throw inUse();
  }

  private openStored(sealed: string, ref: KeyRef, fingerprint: string): string | undefined {
    try {
      return this.box.open(sealed, sealedFor(ref, fingerprint));
    } catch {
      return undefined;
    }
  }

  /** Stores the claim's outcome for replays; false if the claim had been taken over. */
  async complete(claim: Claim, status: number, body: string): Promise<boolean> {
    const sealed = this.box.seal(body, sealedFor(claim, claim.fingerprint));
    return repo.storeResponse(this.db, claim, claim.token, status, sealed);
  }

  /** Frees the key: the outcome is not kept and a retry runs again. */
  async release(claim: Claim): Promise<void> {
    await repo.deleteClaim(this.db, claim, claim.token);
  }

  /**
   * Deletes a batch of expired rows when the last prune in this process is at least
   * pruneIntervalMs old (callers call it freely); how many were deleted. A full batch makes the
   * next call prune again, so a backlog is worked off a batch per call.
   */
  async pruneIfDue(): Promise<number> {
    const now = this.clock.now();
    if (now < this.nextPruneAt) return 0;
    this.nextPruneAt = now + this.options.pruneIntervalMs;
    const deleted = await repo.pruneExpired(this.db, now, this.options.pruneBatch);
    if (deleted >= this.options.pruneBatch) this.nextPruneAt = 0;
    return deleted;
  }
}

function inUse(): AppError {
  return new AppError(
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is still being handled; retry after it has finished.',
  );
}

/** The associated data a stored body is sealed with: it opens only for its own key and request. */
function sealedFor({ accountId, key }: KeyRef, fingerprint: string): string {
  return `idempotency\n${accountId}\n${key}\n${fingerprint}`;
}
