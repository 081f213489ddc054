// Passwords are stored as scrypt hashes that carry their own parameters, at OWASP's cost.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_SCRYPT_COST, hashPassword, verifyPassword } from '../../src/accounts/password.ts';

test('a password hash is salted scrypt at the default cost, and only the password verifies', async () => {
  const hash = await hashPassword('a long enough password');
  assert.match(hash, /^scrypt\$32768\$8\$3\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
  assert.equal(hash.includes('a long enough password'), false);
  assert.notEqual(
    await hashPassword('a long enough password'),
    hash,
    'salted: the same password hashes differently',
  );
  assert.equal(await verifyPassword('a long enough password', hash), true);
  assert.equal(await verifyPassword('a long enough passwore', hash), false);
  assert.deepEqual(DEFAULT_SCRYPT_COST, { N: 32768, r: 8, p: 3 });
});

test('a hash made at another cost still verifies (the cost is read from the hash)', async () => {
  const cheap = await hashPassword('another password', { N: 1024, r: 8, p: 1 });
  assert.match(cheap, /^scrypt\$1024\$8\$1\$/);
  assert.equal(await verifyPassword('another password', cheap), true);
  assert.equal(await verifyPassword('another password', null, { N: 1024, r: 8, p: 1 }), false);
  assert.equal(await verifyPassword('another password', 'not a hash', { N: 1024, r: 8, p: 1 }), false);
});
