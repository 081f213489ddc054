import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DIALECTS } from '../helpers/databases.ts';
import { startTestServer } from '../helpers/server.ts';

const LIST_FIELDS = [
  'category',
  'created_at',
  'creator_id',
  'description',
  'id',
  'latency_mode',
  'privacy',
  'scheduled_at',
  'started_at',
  'status',
  'stream_url',
  'thumbnail_url',
  'title',
  'viewer_count',
];
const DETAIL_FIELDS = [...LIST_FIELDS, 'ended_at', 'peak_viewer_count', 'updated_at'].sort();
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

for (const dialect of DIALECTS) {
  describe(`streams on ${dialect}`, () => {
    test('POST /v1/streams creates a scheduled stream owned by the key, with exactly the detail fields', async (t) => {
      const server = await startTestServer(t, { dialect });
      const account = await server.createAccount();
      const when = new Date(server.clock.now() + 3_600_000).toISOString();
      const res = await server.request('POST', '/v1/streams', {
        key: account.writeKey,
        body: { title: '  Launch day  ', description: 'We ship', scheduled_at: when, category: 'coding' },
      });
      assert.equal(res.status, 201);
      assert.deepEqual(Object.keys(res.body).sort(), [...DETAIL_FIELDS, 'ingest'].sort());
      assert.equal(res.body.ingest.rtmp_url, 'rtmp://media.test:1935/live');
      assert.match(res.body.ingest.stream_key, /^sk_[0-9A-Za-z]{32}$/);
      assert.match(res.body.id, /^str_[0-9A-Za-z]{22}$/);
      assert.equal(res.body.title, 'Launch day');
      assert.equal(res.body.status, 'scheduled');
      assert.equal(res.body.creator_id, account.userId);
      assert.equal(res.body.scheduled_at, when);
      assert.equal(res.body.category, 'coding');
      assert.equal(res.body.privacy, 'public');
      for (const field of ['viewer_count', 'started_at', 'ended_at', 'thumbnail_url', 'peak_viewer_count']) {
        assert.equal(res.body[field], null, field);
      }
      assert.match(res.body.created_at, ISO_MS);
      assert.equal(res.body.stream_url, `http://media.test/watch/${res.body.id}`);

      // The creator's write key sees the key again (docs/security.md: not their read key).
      const detail = await server.request('GET', `/v1/streams/${res.body.id}`, { key: account.writeKey });
      assert.equal(detail.status, 200);
      assert.deepEqual(detail.body, res.body);

      // Anyone else with the ID sees the stream, never its key.
      const other = await server.createAccount('Someone else');
      const seenByOther = await server.request('GET', `/v1/streams/${res.body.id}`, { key: other.readKey });
      assert.equal(seenByOther.status, 200);
      assert.deepEqual(Object.keys(seenByOther.body).sort(), DETAIL_FIELDS);
    });

    test('a stream created without scheduled_at is in standby: scheduled, scheduled_at null, category talk', async (t) => {
      const server = await startTestServer(t, { dialect });
      const account = await server.createAccount();
      const res = await server.request('POST', '/v1/streams', {
        key: account.writeKey,
        body: { title: 'Now' },
      });
      assert.equal(res.status, 201);
      assert.equal(res.body.status, 'scheduled');
      assert.equal(res.body.scheduled_at, null);
      assert.equal(res.body.category, 'talk');
      assert.equal(res.body.description, null);
    });
  });
}
