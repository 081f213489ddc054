// Stream keys are publishing credentials, so the database never holds one. It keeps two forms
// of each: a keyed hash (HMAC-SHA256) that the ingest finds a publisher's stream by, through a
// unique index, and a sealed copy (AES-256-GCM, bound to the stream id) so the creator can
// still be shown the key. Each has its own key derived from the master secret: a copy of the
// database alone neither reveals a key nor lets anyone test guesses against the hashes.
import { createHmac } from 'node:crypto';
import { SqliteAdapter, sql, type Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Tables } from '../db/schema.ts';
import { LruCache } from '../shared/lru.ts';
import { SecretBox } from '../shared/secret-box.ts';
import { deriveKey } from '../shared/secret-key.ts';

/** Stream keys kept opened: about 100 bytes each. */
const OPENED_KEYS = 10_000;

/** The columns a stream key is stored as. */
export interface StoredStreamKey {
  stream_key_hash: string;
  stream_key_ciphertext: string;
}

export class StreamKeyVault {
  private readonly lookupKey: Buffer;
  private readonly box: SecretBox;
  private readonly opened = new LruCache<string, { streamId: string; streamKey: string }>(OPENED_KEYS);

  constructor(masterSecret: Buffer) {
    this.lookupKey = deriveKey(masterSecret, 'stream-key-lookup');
    this.box = new SecretBox(deriveKey(masterSecret, 'stream-key-secrets'));
  }

  /** What the ingest looks a presented key up by. */
  lookupHash(streamKey: string): string {
    return createHmac('sha256', this.lookupKey).update(streamKey, 'utf8').digest('base64url');
  }

  seal(streamKey: string, streamId: string): StoredStreamKey {
    return {
      stream_key_hash: this.lookupHash(streamKey),
      stream_key_ciphertext: this.box.seal(streamKey, streamId),
    };
  }

  /**
   * Throws when the ciphertext was not sealed for this stream under this master secret.
   * A creator's every detail read opens their key, and an AES-GCM open costs about as much as
   * the row's query: keys opened recently are kept, by their sealed copy (which a reset
   * replaces, its IV random) and checked against the stream they were opened for. The process
   * holds the master secret that opens them all anyway, so this keeps nothing new in memory.
   */
  open(ciphertext: string, streamId: string): string {
    const known = this.opened.get(ciphertext);
    if (known !== undefined && known.streamId === streamId) return known.streamKey;
    const streamKey = this.box.open(ciphertext, streamId);
    this.opened.set(ciphertext, { streamId, streamKey });
    return streamKey;
  }
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
