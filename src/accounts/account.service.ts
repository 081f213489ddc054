import { createHash } from 'node:crypto';
import type { Db } from '../db/database.ts';
import type { Clock } from '../shared/clock.ts';
import { LruCache } from '../shared/lru.ts';
import { notFound } from '../shared/errors.ts';
import { newId, randomBase62 } from '../shared/ids.ts';
import * as repo from './account.repository.ts';
import { KeyUsage } from './key-usage.ts';
import { findKeyOwner, listKeysWithUsage, type KeyListing } from './key-usage.repository.ts';
import type { Scope } from './account.table.ts';

export const API_KEY_PREFIX = 'tk_';
const API_KEY_PATTERN = /^tk_[0-9A-Za-z]{32}$/;

/** Who is calling: resolved from an API key. */
export interface Principal {
  userId: string;
  keyId: string;
  scope: Scope;
}

export interface CreatedKey {
  id: string;
  userId: string;
  scope: Scope;
  /** The full key: shown once, never stored. */
  key: string;
}

/**
 * How long a key lookup is reused. A revoked key must stop working within one second, so
 * this stays well under that.
 */
const KEY_CACHE_TTL_MS = 500;
const KEY_CACHE_MAX_ENTRIES = 10_000;

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export class AccountService {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly keyCache = new LruCache<string, { principal: Principal | null; expiresAt: number }>(
    KEY_CACHE_MAX_ENTRIES,
  );

  private readonly usage: KeyUsage;

  constructor(db: Db, clock: Clock) {
    this.db = db;
    this.clock = clock;
    this.usage = new KeyUsage(db, clock);
  }

  async createUser(name: string): Promise<{ id: string; name: string }> {
    const user = { id: newId('usr'), name, created_at: this.clock.now() };
    await repo.insertUser(this.db, user);
    return { id: user.id, name: user.name };
  }

  async countUsers(): Promise<number> {
    return repo.countUsers(this.db);
  }

  async createKey(userId: string, scope: Scope): Promise<CreatedKey> {
    if (!(await repo.findUser(this.db, userId))) throw notFound('user', userId);
    // 32 base62 characters carry about 190 bits from the CSPRNG.
    const key = `${API_KEY_PREFIX}${randomBase62(32)}`;
    const id = newId('key');
    await repo.insertApiKey(this.db, {
      id,
      user_id: userId,
      scope,
      token_hash: hashApiKey(key),
      token_hint: key.slice(-4),
      created_at: this.clock.now(),
      revoked_at: null,
    });
    return { id, userId, scope, key };
  }

  async listKeys(userId: string) {
    if (!(await repo.findUser(this.db, userId))) throw notFound('user', userId);
    return repo.listApiKeys(this.db, userId);
  }

  /** A user's keys, newest first, with when each was last used (the keys settings page). */
  async listKeysWithUsage(userId: string): Promise<KeyListing[]> {
    await this.usage.flush();
    return listKeysWithUsage(this.db, userId);
  }

  /** Revokes a key of this user's; another user's key is not found, exactly like a missing one. */
  async revokeKeyOf(userId: string, keyId: string): Promise<void> {
    if ((await findKeyOwner(this.db, keyId)) !== userId) throw notFound('key', keyId);
    await this.revokeKey(keyId);
  }

  async revokeKey(keyId: string): Promise<void> {
    if (!(await repo.revokeApiKey(this.db, keyId, this.clock.now()))) throw notFound('key', keyId);
  }

  /** Resolves a presented key, or null when it is malformed, unknown or revoked. */
  async authenticate(key: string): Promise<Principal | null> {
    const known = this.knownPrincipal(key);
    if (known !== undefined) return known;
    const now = this.clock.now();
    const row = await repo.findActiveKeyByHash(this.db, hashApiKey(key));
    const principal = row ? { userId: row.user_id, keyId: row.id, scope: row.scope } : null;
    if (row) this.usage.noteUse(row.id);
    this.keyCache.set(key, { principal, expiresAt: now + KEY_CACHE_TTL_MS });
    return principal;
  }

  /**
   * What authenticate would answer, when that is known without the database: a malformed key,
   * or one looked up less than KEY_CACHE_TTL_MS ago. Undefined means it must be looked up.
   */
  knownPrincipal(key: string): Principal | null | undefined {
    if (!API_KEY_PATTERN.test(key)) return null;
    // Keyed by the presented key, which this process holds anyway while it serves the request:
    // a hit then costs no hashing.
    const cached = this.keyCache.get(key);
    if (cached && cached.expiresAt > this.clock.now()) return cached.principal;
    return undefined;
  }

  async requireUser(userId: string): Promise<void> {
    if (!(await repo.findUser(this.db, userId))) throw notFound('user', userId);
  }
}
