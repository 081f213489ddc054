// The vault keeps keys it has opened (a creator's every detail read opens theirs): what it
// keeps must answer exactly as opening again would.
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
