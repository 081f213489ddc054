// Stream keys are publishing credentials, so the database never holds one. It keeps a keyed
// hash (HMAC-SHA256) that the ingest finds a publisher's stream by, through a unique index, and
// what the creator's key is shown from:
// - a key version (issue 29): the key is derived from the master secret, the stream's id and
//   that version (an HMAC), so showing it costs one keyed hash and no stored secret at all. A
//   reset moves to the next version. Every key issued since 2026-11-26-060 is of this kind.
// - a sealed copy (AES-256-GCM, bound to the stream id): keys issued before, kept as they are
//   so encoders already configured with them keep publishing; a reset replaces one with a
//   derived key.
// Each purpose has its own key derived from the master secret: a copy of the database alone
// neither reveals a key nor lets anyone test guesses against the hashes.
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { SqliteAdapter, sql, type Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Tables } from '../db/schema.ts';
import { LruCache } from '../shared/lru.ts';
import { SecretBox } from '../shared/secret-box.ts';
import { deriveKey } from '../shared/secret-key.ts';

/** Sealed (pre-issue-29) stream keys kept opened: about 100 bytes each. */
const OPENED_KEYS = 10_000;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** The base62 character (its ASCII code) each byte value stands for in a derived key. */
const BASE62_OF_BYTE = Uint8Array.from({ length: 256 }, (_, byte) => BASE62.charCodeAt(byte % 62));

/** The columns a stream key is stored as. */
export interface StoredStreamKey {
  stream_key_hash: string;
  stream_key_ciphertext: string | null;
  /** Set for a derived key (ciphertext null); null for a sealed one. */
  stream_key_version: number | null;
  /** Set for a derived key: the tag of the master secret it was derived under. */
  stream_key_secret_tag: string | null;
}

/** What a creator's read of a stream brings back to show its key from. */
export interface StoredKeyForCreator {
  stream_key_hash: string | null;
  stream_key_ciphertext: string | null;
  stream_key_version: number | null;
  /** Null on derived keys issued before 2026-11-26-085 (checked by their hash instead). */
  stream_key_secret_tag: string | null;
}

/** Characters of the master secret's tag: 96 bits, so two secrets never share one by chance. */
const SECRET_TAG_LENGTH = 16;

export class StreamKeyVault {
  // KeyObjects, prepared once: given a Buffer, each HMAC prepares its own key, which costs three
  // times the hash itself (and a creator's every detail read derives and checks their key).
  private readonly lookupKey: KeyObject;
  private readonly derivationKey: KeyObject;
  private readonly box: SecretBox;
  /**
   * Names the master secret in a derived key's row. A key of its own, so the tag tells nothing
   * about the keys that hash or derive (and its 96 bits of an HKDF output, nothing of the
   * secret).
   */
  readonly secretTag: string;
  private readonly opened = new LruCache<string, { streamId: string; streamKey: string }>(OPENED_KEYS);

  constructor(masterSecret: Buffer) {
    this.lookupKey = createSecretKey(deriveKey(masterSecret, 'stream-key-lookup'));
    this.derivationKey = createSecretKey(deriveKey(masterSecret, 'stream-key-derivation'));
    this.box = new SecretBox(deriveKey(masterSecret, 'stream-key-secrets'));
    this.secretTag = deriveKey(masterSecret, 'stream-key-secret-tag')
      .toString('base64url')
      .slice(0, SECRET_TAG_LENGTH);
  }

  /** What the ingest looks a presented key up by. */
  lookupHash(streamKey: string): string {
    return createHmac('sha256', this.lookupKey).update(streamKey, 'utf8').digest('base64url');
  }

  /**
   * The key of `streamId` at `version`: `sk_` and 32 base62 characters, one from each byte of an
   * HMAC-SHA256 of both (`byte % 62`: the eight byte values past 247 make eight characters a
   * little likelier, which leaves about 5.95 of a character's 5.95 bits, 190 bits in all).
   */
  derive(streamId: string, version: number): string {
    const digest = createHmac('sha256', this.derivationKey).update(`${streamId}:${version}`, 'utf8').digest();
    for (let i = 0; i < digest.length; i++) digest[i] = BASE62_OF_BYTE[digest[i] ?? 0] ?? 0;
    return `sk_${digest.toString('latin1')}`;
  }

  /** A new key for `streamId`: the version after `previousVersion` (1 for a new stream). */
  issue(
    streamId: string,
    previousVersion: number | null = null,
  ): { streamKey: string; stored: StoredStreamKey } {
    const version = (previousVersion ?? 0) + 1;
    const streamKey = this.derive(streamId, version);
    return {
      streamKey,
      stored: {
        stream_key_hash: this.lookupHash(streamKey),
        stream_key_ciphertext: null,
        stream_key_version: version,
        stream_key_secret_tag: this.secretTag,
      },
    };
  }

  /** Seals a key that was not derived here (a legacy key, a channel key). */
  seal(streamKey: string, streamId: string): StoredStreamKey & { stream_key_ciphertext: string } {
    return {
      stream_key_hash: this.lookupHash(streamKey),
      stream_key_ciphertext: this.box.seal(streamKey, streamId),
      stream_key_version: null,
      stream_key_secret_tag: null,
    };
  }

  /**
   * The key to show the creator of `streamId`, from what its row stores; undefined when it
   * cannot be shown (none stored, or stored under another master secret: the ingest no longer
   * admits it either, and the creator resets it to get a working one). A derived key is checked
   * against the stored hash, so a changed SECRET_KEY shows nothing rather than a key the ingest
   * would refuse. A key issued since 2026-11-26-085 is checked by the tag of the secret it was
   * derived under, stored with its hash (issue): the same secret derives the same key, whose
   * hash was stored with that tag, so one keyed hash per read instead of two. One without a tag
   * is checked against its hash.
   */
  keyFor(streamId: string, stored: StoredKeyForCreator): string | undefined {
    if (stored.stream_key_version !== null) {
      if (stored.stream_key_hash === null) return undefined;
      if (stored.stream_key_secret_tag !== null) {
        return stored.stream_key_secret_tag === this.secretTag
          ? this.derive(streamId, stored.stream_key_version)
          : undefined;
      }
      const streamKey = this.derive(streamId, stored.stream_key_version);
      return sameText(this.lookupHash(streamKey), stored.stream_key_hash) ? streamKey : undefined;
    }
    if (stored.stream_key_ciphertext === null) return undefined;
    try {
      return this.open(stored.stream_key_ciphertext, streamId);
    } catch {
      return undefined;
    }
  }

  /**
   * Throws when the ciphertext was not sealed for this stream under this master secret.
   * An AES-GCM open costs about as much as the row's query: keys opened recently are kept, by
   * their sealed copy (which a reset replaces, its IV random) and checked against the stream
   * they were opened for. The process holds the master secret that opens them all anyway, so
   * this keeps nothing new in memory. Only keys issued before derived keys are sealed.
   */
  open(ciphertext: string, streamId: string): string {
    const known = this.opened.get(ciphertext);
    if (known !== undefined && known.streamId === streamId) return known.streamKey;
    const streamKey = this.box.open(ciphertext, streamId);
    this.opened.set(ciphertext, { streamId, streamKey });
    return streamKey;
  }
}

function sameText(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/**
 * Keys that an older version stored in plain text, moved aside by the migration
 * 2026-11-23-001-stream-key-vault (migrations cannot read the master secret), waiting for
 * sealPlaintextStreamKeys. Empty once any process of this version has started.
 */
interface LegacyStreamKeyTable {
  stream_id: string;
  stream_key: string;
}

/**
 * Seals every key still waiting in `legacy_stream_keys` into its stream row, and deletes the
 * plaintext. Every process runs it at start, after the migrations, when the master secret is
 * known; several may run it at once. Each key is claimed by deleting its row (one transaction
 * per key, so the delete and the sealed copy commit together): a second process deletes nothing
 * and skips it. A row whose stream already has a key (a reset that came first) keeps that key.
 * Returns how many keys this call sealed.
 */
export async function sealPlaintextStreamKeys(db: Db, vault: StreamKeyVault): Promise<number> {
  const legacy = db.withTables<{ legacy_stream_keys: LegacyStreamKeyTable }>();
  const waiting = await legacy.selectFrom('legacy_stream_keys').select('stream_id').execute();
  if (waiting.length === 0) return 0;
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return sealEach(legacy, waiting, vault);
  // SQLite would otherwise keep the deleted plaintext in the file's free pages, and the older
  // page images in its write-ahead log (unless another process is reading them right now:
  // then they are overwritten as the log is reused).
  const previous = await sql<{ secure_delete: number }>`pragma secure_delete`.execute(db);
  await sql`pragma secure_delete = on`.execute(db);
  try {
    return await sealEach(legacy, waiting, vault);
  } finally {
    await sql.raw(`pragma secure_delete = ${previous.rows[0]?.secure_delete ?? 0}`).execute(db);
    await sql`pragma wal_checkpoint(truncate)`.execute(db);
  }
}

async function sealEach(
  legacy: Kysely<Tables & { legacy_stream_keys: LegacyStreamKeyTable }>,
  waiting: { stream_id: string }[],
  vault: StreamKeyVault,
): Promise<number> {
  let sealed = 0;
  for (const { stream_id: streamId } of waiting) {
    const done = await legacy.transaction().execute(async (trx) => {
      const claimed = await trx
        .deleteFrom('legacy_stream_keys')
        .where('stream_id', '=', streamId)
        .returning('stream_key')
        .executeTakeFirst();
      if (!claimed) return false;
      const result = await trx
        .updateTable('streams')
        .set(vault.seal(claimed.stream_key, streamId))
        .where('id', '=', streamId)
        .where('stream_key_hash', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    });
    if (done) sealed++;
  }
  return sealed;
}
