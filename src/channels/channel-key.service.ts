// Each creator's channel stream key: one key that stays in the streaming software and always
// publishes the creator's next stream (next-stream.ts picks which). It is a publishing
// credential like a stream's key and is kept the same way (StreamKeyVault): a keyed hash for
// the ingest's lookup, which shares the stream keys' hash key so one hash of a presented key
// finds it in either table, and a copy sealed to the user id (a context no stream id can have).
import { findUser } from '../accounts/account.repository.ts';
import type { Db } from '../db/database.ts';
import type { Clock } from '../shared/clock.ts';
import { notFound } from '../shared/errors.ts';
import { randomBase62 } from '../shared/ids.ts';
import type { StreamKeyVault } from '../streams/stream-key-vault.ts';
import { findStreamByKeyHash } from '../streams/stream.repository.ts';
import type { StreamRow } from '../streams/stream.table.ts';
import * as repo from './channel-key.repository.ts';

/** What a presented key publishes to: a stream (its own key), a creator's channel, or nothing. */
export type PublishTarget =
  { kind: 'stream'; stream: StreamRow } | { kind: 'channel'; creatorId: string } | undefined;

export interface ChannelKey {
  streamKey: string;
  /** When this key was issued (its first read or its last reset). */
  issuedAt: number;
}

export class ChannelKeyService {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly vault: StreamKeyVault;

  constructor(db: Db, clock: Clock, vault: StreamKeyVault) {
    this.db = db;
    this.clock = clock;
    this.vault = vault;
  }

  /** The user's channel key, created on first read. */
  async show(userId: string): Promise<ChannelKey> {
    let row = await repo.findChannelKey(this.db, userId);
    if (!row) {
      await this.requireUser(userId);
      const key = newChannelKey();
      await repo.insertChannelKeyIfAbsent(this.db, userId, this.seal(key, userId), this.clock.now());
      // A racing first read may have inserted first: both answer with the stored key.
      row = await repo.findChannelKey(this.db, userId);
      if (!row) throw notFound('user', userId);
    }
    const key = this.open(row.key_ciphertext, userId);
    // Sealed under another master secret (SECRET_KEY was changed): the key is lost, and its
    // hash no longer matches either, so a new one replaces it.
    return key === undefined ? this.reset(userId) : { streamKey: key, issuedAt: row.updated_at };
  }

  /** A new key; the old one stops working for new publishes at once (running ones go on). */
  async reset(userId: string): Promise<ChannelKey> {
    await this.requireUser(userId);
    const key = newChannelKey();
    const now = this.clock.now();
    await repo.replaceChannelKey(this.db, userId, this.seal(key, userId), now);
    return { streamKey: key, issuedAt: now };
  }

  /**
   * Only the ingest calls this. One keyed hash of the presented key, looked up among stream keys
   * and channel keys at once (both always, so the answer takes the same work either way).
   */
  async findPublishTarget(presentedKey: string): Promise<PublishTarget> {
    const hash = this.vault.lookupHash(presentedKey);
    const [stream, creatorId] = await Promise.all([
      findStreamByKeyHash(this.db, hash),
      repo.findUserIdByKeyHash(this.db, hash),
    ]);
    if (stream) return { kind: 'stream', stream };
    if (creatorId !== undefined) return { kind: 'channel', creatorId };
    return undefined;
  }

  private seal(key: string, userId: string): repo.StoredChannelKey {
    const sealed = this.vault.seal(key, sealContext(userId));
    return { key_hash: sealed.stream_key_hash, key_ciphertext: sealed.stream_key_ciphertext };
  }

  private open(ciphertext: string, userId: string): string | undefined {
    try {
      return this.vault.open(ciphertext, sealContext(userId));
    } catch {
      return undefined;
    }
  }

  private async requireUser(userId: string): Promise<void> {
    if (!(await findUser(this.db, userId))) throw notFound('user', userId);
  }
}

/** The sealed copy is bound to this, so it cannot be moved to another user or to a stream row. */
function sealContext(userId: string): string {
  return `channel-key:${userId}`;
}

/** The same form as a stream key (sk_ and 32 base62 characters): encoders treat both alike. */
function newChannelKey(): string {
  return `sk_${randomBase62(32)}`;
}
