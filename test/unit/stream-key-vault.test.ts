// The vault shows a creator their stream key. A key issued before issue 29 is opened from its
// sealed copy, and kept opened: what it keeps must answer exactly as opening again would. A key
// issued since is derived from the master secret, the stream and a version, and shown only
// when its row was written under this master secret (its tag, or for rows from before the tag,
// its stored lookup hash).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { StreamKeyVault } from '../../src/streams/stream-key-vault.ts';

test('a key opened before opens the same again, and stays bound to its stream', () => {
  const vault = new StreamKeyVault(randomBytes(32));
  const sealed = vault.seal('sk_first', 'str_a').stream_key_ciphertext;
  assert.equal(vault.open(sealed, 'str_a'), 'sk_first');
  assert.equal(vault.open(sealed, 'str_a'), 'sk_first');
  // Moved to another stream's row, the sealed copy does not open, kept or not.
  assert.throws(() => vault.open(sealed, 'str_b'));
  assert.equal(vault.open(sealed, 'str_a'), 'sk_first');
  // A reset seals anew (a fresh IV): the new copy opens to the new key.
  const resealed = vault.seal('sk_second', 'str_a').stream_key_ciphertext;
  assert.notEqual(resealed, sealed);
  assert.equal(vault.open(resealed, 'str_a'), 'sk_second');
});

test('another master secret opens nothing another vault has opened', () => {
  const sealed = new StreamKeyVault(randomBytes(32)).seal('sk_key', 'str_a').stream_key_ciphertext;
  const other = new StreamKeyVault(randomBytes(32));
  assert.throws(() => other.open(sealed, 'str_a'));
});

test('a derived key is the same every time for its stream and version, and another for any other', () => {
  const secret = randomBytes(32);
  const vault = new StreamKeyVault(secret);
  const first = vault.issue('str_a');
  assert.match(first.streamKey, /^sk_[0-9A-Za-z]{32}$/);
  assert.equal(first.stored.stream_key_version, 1);
  assert.equal(first.stored.stream_key_ciphertext, null, 'nothing secret is stored for it');
  assert.equal(first.stored.stream_key_hash, vault.lookupHash(first.streamKey));
  // Another process with the same master secret shows the same key from the same row.
  assert.equal(new StreamKeyVault(secret).keyFor('str_a', first.stored), first.streamKey);
  const next = vault.issue('str_a', 1);
  assert.equal(next.stored.stream_key_version, 2);
  assert.notEqual(next.streamKey, first.streamKey);
  assert.notEqual(vault.issue('str_b').streamKey, first.streamKey);
  // 2,000 keys: all distinct, every character base62.
  const keys = new Set(Array.from({ length: 2000 }, (_, n) => vault.derive(`str_${n}`, 1)));
  assert.equal(keys.size, 2000);
});

test('a derived key is not shown under another master secret, whether its row has a secret tag or not', () => {
  const secret = randomBytes(32);
  const issued = new StreamKeyVault(secret).issue('str_a');
  assert.match(issued.stored.stream_key_secret_tag ?? '', /^[\w-]{16}$/);
  const other = new StreamKeyVault(randomBytes(32));
  assert.notEqual(other.secretTag, issued.stored.stream_key_secret_tag);
  assert.equal(other.keyFor('str_a', issued.stored), undefined);
  // A row from before the tag (2026-11-26-085) is checked against its lookup hash instead.
  const untagged = { ...issued.stored, stream_key_secret_tag: null };
  assert.equal(other.keyFor('str_a', untagged), undefined);
  assert.equal(new StreamKeyVault(secret).keyFor('str_a', untagged), issued.streamKey);
  const vault = new StreamKeyVault(randomBytes(32));
  const own = vault.issue('str_a');
  assert.equal(vault.keyFor('str_b', { ...own.stored, stream_key_secret_tag: null }), undefined);
  assert.equal(vault.keyFor('str_a', { ...own.stored, stream_key_hash: null }), undefined);
  // A sealed key carries no tag: a tag never stands in for opening it.
  assert.equal(vault.seal('sk_old', 'str_a').stream_key_secret_tag, null);
});

test('a tagged row shows its key with one keyed hash: the lookup hash is not recomputed', (t) => {
  const vault = new StreamKeyVault(randomBytes(32));
  const issued = vault.issue('str_a');
  const lookups = t.mock.method(vault, 'lookupHash');
  assert.equal(vault.keyFor('str_a', issued.stored), issued.streamKey);
  assert.equal(lookups.mock.callCount(), 0);
  assert.equal(vault.keyFor('str_a', { ...issued.stored, stream_key_secret_tag: null }), issued.streamKey);
  assert.equal(lookups.mock.callCount(), 1);
});
