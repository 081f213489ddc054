// The SDK as a developer uses it, against the real service on a real socket: the package is
// imported by its name, so this runs the committed sdk/dist that an install gets.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  AuthenticationError,
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  Tributary,
  TributaryError,
  type IngestSettings,
  type Stream,
} from '@tributary/sdk';
import { TestClock } from '../helpers/clock.ts';
import { startTestServer } from '../helpers/server.ts';
import { DIALECTS } from '../helpers/databases.ts';

for (const dialect of DIALECTS) {
  describe(`SDK client on ${dialect}`, () => {
    test('streams.create returns the ingest settings; get reads the stream back', async (t) => {
      const server = await startTestServer(t, { dialect, rateLimitPerKey: 100_000 });
      const account = await server.createAccount();
      const client = new Tributary({ apiKey: account.writeKey, baseUrl: server.origin });

      const created: Stream = await client.streams.create({ title: '  Morning show ', category: 'music' });
      assert.match(created.id, /^str_/);
      assert.equal(created.title, 'Morning show');
      assert.equal(created.category, 'music');
      assert.equal(created.ingest?.rtmp_url, `rtmp://media.test:1935/live`);
      assert.match(created.ingest.stream_key, /\S{20,}/);

      const fetched = await client.streams.get(created.id);
      assert.deepEqual(fetched, created);

      // A read-scoped key sees the stream but not its key.
      const reader = new Tributary({ apiKey: account.readKey, baseUrl: `${server.origin}/v1/` });
      const asReader = await reader.streams.get(created.id);
      assert.equal(asReader.id, created.id);
      assert.equal(asReader.ingest, undefined);
    });

    test('ingest.get reads the channel key, ingest.resetKey replaces it; a read key may do neither', async (t) => {
      const server = await startTestServer(t, { dialect, rateLimitPerKey: 100_000 });
      const account = await server.createAccount();
      const client = new Tributary({ apiKey: account.writeKey, baseUrl: server.origin });

      const settings: IngestSettings = await client.ingest.get();
      assert.equal(settings.rtmp_url, 'rtmp://media.test:1935/live');
      assert.match(settings.stream_key, /\S{20,}/);
      // The same key on every read: it stays in the streaming software across broadcasts.
      assert.equal((await client.ingest.get()).stream_key, settings.stream_key);

      const reset = await client.ingest.resetKey();
      assert.equal(reset.rtmp_url, settings.rtmp_url);
      assert.notEqual(reset.stream_key, settings.stream_key);
      assert.equal((await client.ingest.get()).stream_key, reset.stream_key);

      const reader = new Tributary({ apiKey: account.readKey, baseUrl: server.origin });
      await assert.rejects(reader.ingest.get(), PermissionError);
      await assert.rejects(reader.ingest.resetKey(), PermissionError);
      assert.equal((await client.ingest.get()).stream_key, reset.stream_key);
    });

    test('streams.list pages through every stream with for await, and filters', async (t) => {
      // Each stream a second after the last, so newest-first is the order they were made in.
      const clock = new TestClock();
      const server = await startTestServer(t, { dialect, rateLimitPerKey: 100_000, clock });
      const account = await server.createAccount();
      const client = new Tributary({ apiKey: account.writeKey, baseUrl: server.origin });
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) {
        ids.push((await client.streams.create({ title: `Stream ${i}` })).id);
        clock.advance(1000);
      }
      const live = ids.slice(0, 2);
      for (const id of live) await server.services.streams.goLive(id);

      // Awaited, a list is its first page.
      const first = await client.streams.list({ limit: 3 });
      assert.equal(first.data.length, 3);
      assert.equal(first.pagination.has_more, true);
      assert.match(first.pagination.next_cursor ?? '', /^cur_/);

      // Iterated, it is every stream over 3 pages, newest first, each once.
      const seen: string[] = [];
      for await (const stream of client.streams.list({ limit: 3 })) seen.push(stream.id);
      assert.deepEqual(seen, ids.toReversed());

      const pages: number[] = [];
      for await (const page of client.streams.list({ limit: 3 }).pages()) pages.push(page.data.length);
      assert.deepEqual(pages, [3, 3, 1]);

      const liveSeen: string[] = [];
      for await (const stream of client.streams.list({ status: 'live', limit: 1 })) {
        assert.equal(stream.status, 'live');
        liveSeen.push(stream.id);
      }
      assert.deepEqual(liveSeen, live.toReversed());

      assert.deepEqual(
        (await client.streams.list({ limit: 2 }).toArray(5)).map((s) => s.id),
        ids.toReversed().slice(0, 5),
      );
    });

    test('videos.list and videos.get', async (t) => {
      const clock = new TestClock();
      const server = await startTestServer(t, { dialect, rateLimitPerKey: 100_000, clock });
      const account = await server.createAccount();
      const published: string[] = [];
      for (let i = 0; i < 3; i++) {
        const row = await server.services.videos.publish({
          creatorId: account.userId,
          title: `Video ${i}`,
          durationSeconds: 30 + i,
          tags: ['demo'],
        });
        published.push(row.id);
        clock.advance(1000);
      }
      const client = new Tributary({ apiKey: account.readKey, baseUrl: server.origin });
      const listed: string[] = [];
      for await (const video of client.videos.list({ limit: 2 })) listed.push(video.id);
      assert.deepEqual(listed, published.toReversed());

      const video = await client.videos.get(published[0] ?? '');
      assert.equal(video.title, 'Video 0');
      assert.equal(video.duration_seconds, 30);
      assert.deepEqual(video.tags, ['demo']);
      assert.match(video.playback_url, /\.m3u8$/);
    });

    test('errors are typed and carry code, param, status and the request id', async (t) => {
      const server = await startTestServer(t, { dialect, rateLimitPerKey: 100_000 });
      const account = await server.createAccount();
      const client = new Tributary({ apiKey: account.writeKey, baseUrl: server.origin });

      const invalid = await client.streams
        .create({ title: 'x', category: 'knitting' as 'talk' })
        .catch((e: unknown) => e);
      assert.ok(invalid instanceof InvalidRequestError);
      assert.ok(invalid instanceof TributaryError);
      assert.equal(invalid.status, 400);
      assert.equal(invalid.code, 'parameter_invalid');
      assert.equal(invalid.param, 'category');
      assert.match(invalid.requestId ?? '', /\S/);
      assert.notEqual(invalid.message, '');

      const missing = await client.streams.get('str_doesnotexist').catch((e: unknown) => e);
      assert.ok(missing instanceof NotFoundError);
      assert.equal(missing.status, 404);
      assert.equal(missing.code, 'resource_not_found');
      assert.match(missing.requestId ?? '', /\S/);
      assert.notEqual(missing.requestId, invalid.requestId);

      const badCursor = await client.streams.list({ cursor: 'cur_forged' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(badCursor instanceof InvalidRequestError);
      assert.equal(badCursor.code, 'invalid_cursor');

      const readOnly = new Tributary({ apiKey: account.readKey, baseUrl: server.origin });
      const scope = await readOnly.streams.create({ title: 'No' }).catch((e: unknown) => e);
      assert.ok(scope instanceof PermissionError);
      assert.equal(scope.code, 'insufficient_scope');

      const unknown = new Tributary({ apiKey: 'tk_not_a_key', baseUrl: server.origin });
      const auth = await unknown.videos.list().then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(auth instanceof AuthenticationError);
      assert.equal(auth.code, 'invalid_api_key');
    });

    test('webhooks.create, list and delete; a second delete is a NotFoundError', async (t) => {
      const server = await startTestServer(t, { dialect, rateLimitPerKey: 100_000 });
      const account = await server.createAccount();
      const client = new Tributary({ apiKey: account.writeKey, baseUrl: server.origin });

      const created = await client.webhooks.create({
        url: 'https://127.0.0.1:9/tributary',
        events: ['stream.started', 'video.published'],
      });
      assert.match(created.id, /^wh_/);
      assert.match(created.secret, /^whsec_[0-9A-Za-z]{32}$/);
      assert.equal(created.status, 'active');

      const taken = await client.webhooks
        .create({ url: 'https://127.0.0.1:9/tributary', events: ['*'] })
        .catch((e: unknown) => e);
      assert.ok(taken instanceof ConflictError);
      assert.equal(taken.code, 'webhook_url_taken');

      const list = await client.webhooks.list();
      assert.deepEqual(
        list.data.map((w) => w.id),
        [created.id],
      );
      assert.ok(!JSON.stringify(list).includes(created.secret));

      assert.deepEqual(await client.webhooks.delete(created.id), { deleted: true, id: created.id });
      assert.deepEqual((await client.webhooks.list()).data, []);
      const again = await client.webhooks.delete(created.id).catch((e: unknown) => e);
      assert.ok(again instanceof NotFoundError);
      assert.equal(again.code, 'resource_not_found');
    });
  });
}
