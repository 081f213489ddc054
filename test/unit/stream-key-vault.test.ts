// The vault shows a creator their stream key. A key issued before issue 29 is opened from its
// sealed copy, and kept opened: what it keeps must answer exactly as opening again would. A key
// issued since is derived from the master secret, the stream and a version, and checked
// against the stored lookup hash before it is shown.
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

test('a derived key is not shown under another master secret, nor from another stream’s row', () => {
  const issued = new StreamKeyVault(randomBytes(32)).issue('str_a');
  assert.equal(new StreamKeyVault(randomBytes(32)).keyFor('str_a', issued.stored), undefined);
  const vault = new StreamKeyVault(randomBytes(32));
  const own = vault.issue('str_a');
  assert.equal(vault.keyFor('str_b', own.stored), undefined);
  assert.equal(vault.keyFor('str_a', { ...own.stored, stream_key_hash: null }), undefined);
});
