// The caller's channel stream key through the API: created on first read and then stable, per
// caller, write scope only, replaced by a reset, and stored only as a keyed hash and a sealed
// copy (the table is read directly to check).
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import { DIALECTS } from '../helpers/databases.ts';
import { startTestServer } from '../helpers/server.ts';
import { deriveKey } from '../../src/shared/secret-key.ts';
import { StreamKeyVault } from '../../src/streams/stream-key-vault.ts';

const KEY = /^sk_[0-9A-Za-z]{32}$/;

for (const dialect of DIALECTS) {
  describe(`GET /v1/ingest and POST /v1/ingest/reset-key on ${dialect}`, () => {
    test('the key is created once, stays the same, and is the caller’s own', async (t) => {
      const server = await startTestServer(t, { dialect });
      const alice = await server.createAccount('Alice');
      const bob = await server.createAccount('Bob');

      const first = await server.request('GET', '/v1/ingest', { key: alice.writeKey });
      assert.equal(first.status, 200);
      assert.match(first.body.stream_key, KEY);
      assert.equal(first.body.rtmp_url, 'rtmp://media.test:1935/live');
      assert.ok(!Number.isNaN(Date.parse(first.body.key_issued_at)));
      assert.deepEqual(Object.keys(first.body).sort(), ['key_issued_at', 'rtmp_url', 'stream_key']);
      const again = await server.request('GET', '/v1/ingest', { key: alice.writeKey });
      assert.deepEqual(again.body, first.body, 'a second read shows the same key');

      // Routes are per caller: Bob gets his own key, never Alice's.
      const bobs = await server.request('GET', '/v1/ingest', { key: bob.writeKey });
      assert.equal(bobs.status, 200);
      assert.match(bobs.body.stream_key, KEY);
      assert.notEqual(bobs.body.stream_key, first.body.stream_key);

      // A read-scoped key may not see a publishing secret; no key is no key.
      const readOnly = await server.request('GET', '/v1/ingest', { key: alice.readKey });
      assert.equal(readOnly.status, 403);
      assert.equal(readOnly.body.error.code, 'insufficient_scope');
      assert.equal(JSON.stringify(readOnly.body).includes(first.body.stream_key), false);
      const anonymous = await server.request('GET', '/v1/ingest');
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.body.error.code, 'authentication_required');
      const resetReadOnly = await server.request('POST', '/v1/ingest/reset-key', { key: alice.readKey });
      assert.equal(resetReadOnly.status, 403);
      assert.equal(resetReadOnly.body.error.code, 'insufficient_scope');
      const withQuery = await server.request('GET', '/v1/ingest?user=usr_x', { key: alice.writeKey });
      assert.equal(withQuery.status, 400);

      // A reset replaces Alice's key, and only hers.
      const reset = await server.request('POST', '/v1/ingest/reset-key', { key: alice.writeKey });
      assert.equal(reset.status, 200);
      assert.match(reset.body.stream_key, KEY);
      assert.notEqual(reset.body.stream_key, first.body.stream_key);
      const afterReset = await server.request('GET', '/v1/ingest', { key: alice.writeKey });
      assert.equal(afterReset.body.stream_key, reset.body.stream_key);
      const bobAfter = await server.request('GET', '/v1/ingest', { key: bob.writeKey });
      assert.equal(bobAfter.body.stream_key, bobs.body.stream_key);

      // A reset before any read creates the first key.
      const carol = await server.createAccount('Carol');
      const carols = await server.request('POST', '/v1/ingest/reset-key', { key: carol.writeKey });
      assert.equal(carols.status, 200);
      assert.equal(
        (await server.request('GET', '/v1/ingest', { key: carol.writeKey })).body.stream_key,
        carols.body.stream_key,
      );
    });

    test('the table holds a keyed hash and a sealed copy, never the key', async (t) => {
      const server = await startTestServer(t, { dialect });
      const alice = await server.createAccount('Alice');
      const key = (await server.request('GET', '/v1/ingest', { key: alice.writeKey })).body.stream_key;
      const rows = await server.services.database.db.selectFrom('channel_keys').selectAll().execute();
      assert.equal(rows.length, 1);
      const row = rows[0]!;
      assert.equal(row.user_id, alice.userId);
      assert.equal(JSON.stringify(rows).includes(key), false, 'the key is nowhere in the table');
      assert.equal(JSON.stringify(rows).includes(key.slice(3)), false);
      // The hash is the stream keys' keyed hash (one lookup key for both), not a bare SHA-256.
      const expected = createHmac('sha256', deriveKey(server.secretKey, 'stream-key-lookup'))
        .update(key)
        .digest('base64url');
      assert.equal(row.key_hash, expected);
      assert.equal(new StreamKeyVault(server.secretKey).lookupHash(key), expected);
      // The sealed copy opens only bound to its owner, and only under this master secret.
      const vault = new StreamKeyVault(server.secretKey);
      assert.equal(vault.open(row.key_ciphertext, `channel-key:${alice.userId}`), key);
      assert.throws(() => vault.open(row.key_ciphertext, 'channel-key:usr_someoneelse'));
      assert.throws(() =>
        new StreamKeyVault(Buffer.alloc(32, 1)).open(row.key_ciphertext, `channel-key:${alice.userId}`),
      );

      // Two first reads at once agree on one key (the primary key decides).
      const bob = await server.createAccount('Bob');
      const both = await Promise.all(
        Array.from({ length: 4 }, () => server.request('GET', '/v1/ingest', { key: bob.writeKey })),
      );
      assert.deepEqual(new Set(both.map((res) => res.status)), new Set([200]));
      assert.equal(new Set(both.map((res) => res.body.stream_key)).size, 1);
    });

    test('the OpenAPI document describes both operations', async (t) => {
      const server = await startTestServer(t, { dialect });
      const doc = (await server.request('GET', '/v1/openapi.json')).body;
      assert.equal(doc.paths['/v1/ingest'].get.operationId, 'getIngestSettings');
      assert.equal(doc.paths['/v1/ingest/reset-key'].post.operationId, 'resetChannelKey');
    });
  });
}
