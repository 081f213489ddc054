// PATCH and DELETE /v1/streams/{id} and POST /v1/streams/{id}/end, without media: what each
// status allows, every refusal in the error envelope, and one outbox event per change. The end
// of a real push is test/ingest/end-from-api.test.ts.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { MediaPaths } from '../../src/media/media-paths.ts';
import { RECORDING_GRACE_MS } from '../../src/videos/stream-recordings.ts';
import type { TestApp } from '../helpers/app.ts';
import { TestClock } from '../helpers/clock.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { startTestServer } from '../helpers/server.ts';

function assertError(res: { status: number; body: any }, status: number, code: string, pattern?: RegExp) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.deepEqual(Object.keys(res.body), ['error']);
  assert.equal(res.body.error.code, code, res.body.error.message);
  if (pattern) assert.match(res.body.error.message, pattern);
}

const inAnHour = (server: TestApp) => new Date(server.clock.now() + 3_600_000).toISOString();

for (const dialect of DIALECTS) {
  describe(`stream management on ${dialect}`, () => {
    test('PATCH a stream that has not gone live: every field, the owner view back, stream.updated once per change', async (t) => {
      const clock = new TestClock();
      const server = await startTestServer(t, { dialect, clock });
      const account = await server.createAccount();
      const stream = await server.createStream(account, { title: 'Draft title' });
      clock.advance(1000);
      const when = inAnHour(server);
      const res = await server.request('PATCH', `/v1/streams/${stream.id}`, {
        key: account.writeKey,
        body: {
          title: '  Launch party ',
          description: 'Cake',
          category: 'music',
          privacy: 'private',
          scheduled_at: when,
          latency_mode: 'low',
        },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.title, 'Launch party');
      assert.equal(res.body.description, 'Cake');
      assert.equal(res.body.category, 'music');
      assert.equal(res.body.privacy, 'private');
      assert.equal(res.body.scheduled_at, new Date(when).toISOString());
      assert.equal(res.body.latency_mode, 'low');
      assert.equal(res.body.status, 'scheduled');
      assert.equal(res.body.ingest.stream_key, stream.ingest.stream_key, 'the owner view, as GET gives it');
      assert.notEqual(res.body.updated_at, stream.updated_at);

      const events = await server.events('stream.updated');
      assert.equal(events.length, 1);
      const withoutIngest = { ...res.body };
      delete withoutIngest.ingest;
      assert.deepEqual(events[0]!.data, withoutIngest, 'data is the detail object, without the key');

      // Back to standby; the description cleared.
      const standby = await server.request('PATCH', `/v1/streams/${stream.id}`, {
        key: account.writeKey,
        body: { scheduled_at: null, description: null },
      });
      assert.equal(standby.status, 200);
      assert.equal(standby.body.scheduled_at, null);
      assert.equal(standby.body.description, null);
      assert.equal(standby.body.status, 'scheduled');
      // Unchanged values (or none): no write, no event.
      for (const body of [{}, { title: 'Launch party', latency_mode: 'low' }]) {
        const same = await server.request('PATCH', `/v1/streams/${stream.id}`, {
          key: account.writeKey,
          body,
        });
        assert.equal(same.status, 200);
        assert.equal(same.body.updated_at, standby.body.updated_at);
      }
      assert.equal((await server.events('stream.updated')).length, 2);
    });

    test('PATCH refuses invalid fields with 400 naming them', async (t) => {
      const server = await startTestServer(t, { dialect });
      const account = await server.createAccount();
      const stream = await server.createStream(account);
      const past = new Date(server.clock.now() - 60_000).toISOString();
      const cases: [Record<string, unknown>, string, string][] = [
        [{ title: '  ' }, 'parameter_invalid', 'title'],
        [{ title: 'x'.repeat(121) }, 'parameter_invalid', 'title'],
        [{ description: 'x'.repeat(2001) }, 'parameter_invalid', 'description'],
        [{ category: 'Gaming' }, 'parameter_invalid', 'category'],
        [{ privacy: 'unlisted' }, 'parameter_invalid', 'privacy'],
        [{ scheduled_at: past }, 'parameter_invalid', 'scheduled_at'],
        [{ scheduled_at: '2030-01-01 10:00' }, 'parameter_invalid', 'scheduled_at'],
        [{ latency_mode: 'ultra' }, 'parameter_invalid', 'latency_mode'],
        [{ status: 'live' }, 'parameter_unknown', 'status'],
        [{ record: false }, 'parameter_unknown', 'record'],
      ];
      for (const [body, code, param] of cases) {
        const res = await server.request('PATCH', `/v1/streams/${stream.id}`, {
          key: account.writeKey,
          body,
        });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.error.code, code, JSON.stringify(body));
        assert.equal(res.body.error.param, param, JSON.stringify(body));
      }
      assert.deepEqual(await server.events('stream.updated'), []);
    });

    test('once live or ended, the details still change but scheduled_at and latency_mode are 409', async (t) => {
      const server = await startTestServer(t, { dialect });
      const account = await server.createAccount();
      const stream = await server.createStream(account, { scheduled_at: inAnHour(server) });
      await server.services.streams.goLive(stream.id);
      for (const status of ['live', 'ended']) {
        if (status === 'ended') await server.services.streams.end(stream.id);
        for (const [body, names] of [
          [{ scheduled_at: inAnHour(server) }, /scheduled_at can only change before it goes live/],
          [{ scheduled_at: null, title: 'Both' }, /scheduled_at can only change/],
          [{ latency_mode: 'low' }, /latency_mode can only change before it goes live/],
        ] as const) {
          const res = await server.request('PATCH', `/v1/streams/${stream.id}`, {
            key: account.writeKey,
            body,
          });
          assertError(res, 409, 'state_conflict', names);
          assert.match(res.body.error.message, new RegExp(`is ${status}`));
        }
        const renamed = await server.request('PATCH', `/v1/streams/${stream.id}`, {
          key: account.writeKey,
          body: { title: `Renamed while ${status}`, privacy: 'private', category: 'art' },
        });
        assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
        assert.equal(renamed.body.status, status);
        assert.equal(renamed.body.title, `Renamed while ${status}`);
      }
      const updates = await server.events('stream.updated');
      assert.deepEqual(updates.map((e) => [e.data.status, e.data.title]).sort(), [
        ['ended', 'Renamed while ended'],
        ['live', 'Renamed while live'],
      ]);
    });

    test('POST /end ends a live stream once: stream.ended recorded, 409 when not live, replayed with an Idempotency-Key', async (t) => {
      const server = await startTestServer(t, { dialect });
      const account = await server.createAccount();
      const stream = await server.createStream(account);
      assertError(
        await server.request('POST', `/v1/streams/${stream.id}/end`, { key: account.writeKey }),
        409,
        'state_conflict',
        /is scheduled, not live/,
      );
      await server.services.streams.goLive(stream.id);
      const headers = { 'idempotency-key': 'end-once-1' };
      const ended = await server.request('POST', `/v1/streams/${stream.id}/end`, {
        key: account.writeKey,
        headers,
      });
      assert.equal(ended.status, 200, JSON.stringify(ended.body));
      assert.equal(ended.body.status, 'ended');
      assert.equal(ended.body.viewer_count, null);
      assert.ok(ended.body.ended_at);
      assert.equal(ended.body.ingest.stream_key, stream.ingest.stream_key);
      const replay = await server.request('POST', `/v1/streams/${stream.id}/end`, {
        key: account.writeKey,
        headers,
      });
      assert.equal(replay.status, 200, JSON.stringify(replay.body));
      assert.deepEqual(replay.body, ended.body);
      assertError(
        await server.request('POST', `/v1/streams/${stream.id}/end`, { key: account.writeKey }),
        409,
        'state_conflict',
        /is ended, not live/,
      );
      assert.equal((await server.events('stream.ended')).length, 1);
    });

    test('DELETE a scheduled stream: gone with its samples and folder, stream.deleted once; a live one is 409', async (t) => {
      const server = await startTestServer(t, { dialect });
      const account = await server.createAccount();
      const scheduled = await server.createStream(account, { scheduled_at: inAnHour(server) });
      const live = await server.createStream(account, { title: 'On air' });
      await server.services.streams.goLive(live.id);
      const dir = new MediaPaths(server.dataDir).streamDir(scheduled.id);
      fs.mkdirSync(path.join(dir, 'p0'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'thumbnail.jpg'), 'x');

      assertError(
        await server.request('DELETE', `/v1/streams/${live.id}`, { key: account.writeKey }),
        409,
        'state_conflict',
        /is live; end it first/,
      );
      const res = await server.request('DELETE', `/v1/streams/${scheduled.id}`, { key: account.writeKey });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { deleted: true, id: scheduled.id });
      assert.equal(fs.existsSync(dir), false);
      assertError(
        await server.request('GET', `/v1/streams/${scheduled.id}`, { key: account.readKey }),
        404,
        'resource_not_found',
      );
      assert.deepEqual(await server.events('stream.deleted'), [
        { type: 'stream.deleted', account_id: account.userId, data: { id: scheduled.id, deleted: true } },
      ]);
      assertError(
        await server.request('DELETE', `/v1/streams/${scheduled.id}`, { key: account.writeKey }),
        404,
        'resource_not_found',
      );
      const list = await server.request('GET', '/v1/streams', { key: account.readKey });
      assert.deepEqual(
        list.body.data.map((s: { id: string }) => s.id),
        [live.id],
      );
    });

    test('DELETE an ended stream: its video stays with source_stream_id null (video.updated), samples go; 409 while the recording is being made', async (t) => {
      const clock = new TestClock();
      const server = await startTestServer(t, { dialect, clock });
      const account = await server.createAccount();
      const stream = await server.createStream(account);
      await server.services.streams.goLive(stream.id);
      await server.services.database.db
        .insertInto('stream_viewer_samples')
        .values({ stream_id: stream.id, at: server.clock.now(), viewer_count: 3 })
        .execute();
      await server.services.streams.end(stream.id);
      // Ended a moment ago with recording on and no video yet: the ingest is still at work.
      assertError(
        await server.request('DELETE', `/v1/streams/${stream.id}`, { key: account.writeKey }),
        409,
        'state_conflict',
        /recording is still being made/,
      );
      const draft = await server.services.videos.createDraft({
        creatorId: account.userId,
        title: 'Recording',
        sourceStreamId: stream.id,
      });
      clock.advance(RECORDING_GRACE_MS);
      assertError(
        await server.request('DELETE', `/v1/streams/${stream.id}`, { key: account.writeKey }),
        409,
        'state_conflict',
        /recording is still being made/,
      );
      await server.services.videos.publishDraft(draft.id, 120);

      const res = await server.request('DELETE', `/v1/streams/${stream.id}`, { key: account.writeKey });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const video = await server.request('GET', `/v1/videos/${draft.id}`, { key: account.readKey });
      assert.equal(video.status, 200);
      assert.equal(video.body.source_stream_id, null);
      const updated = await server.events('video.updated');
      assert.equal(updated.length, 1);
      assert.deepEqual(updated[0]!.data, video.body);
      const samples = await server.services.database.db
        .selectFrom('stream_viewer_samples')
        .select('stream_id')
        .execute();
      assert.deepEqual(samples, []);
      assert.equal((await server.events('stream.deleted')).length, 1);
    });

    test("who may: 401 without a key, 403 for a read key before the body, 404 for another account's stream exactly as a missing one", async (t) => {
      const server = await startTestServer(t, { dialect });
      const owner = await server.createAccount('owner');
      const other = await server.createAccount('other');
      const stream = await server.createStream(owner);
      await server.services.streams.goLive(stream.id);
      const verbs: [string, string, unknown][] = [
        ['PATCH', '', { title: 'Taken over' }],
        ['DELETE', '', undefined],
        ['POST', '/end', undefined],
      ];
      for (const [method, suffix, body] of verbs) {
        const url = `/v1/streams/${stream.id}${suffix}`;
        assertError(await server.request(method, url, { body }), 401, 'authentication_required');
        assertError(
          await server.request(method, url, {
            key: owner.readKey,
            rawBody: '{not json',
            headers: { 'content-type': 'application/json' },
          }),
          403,
          'insufficient_scope',
        );
        const theirs = await server.request(method, url, { key: other.writeKey, body });
        const missing = await server.request(method, `/v1/streams/str_doesnotexist${suffix}`, {
          key: owner.writeKey,
          body,
        });
        assertError(theirs, 404, 'resource_not_found');
        assertError(missing, 404, 'resource_not_found');
        assert.equal(
          theirs.body.error.message.replace(stream.id, 'ID'),
          missing.body.error.message.replace('str_doesnotexist', 'ID'),
        );
      }
      const detail = await server.request('GET', `/v1/streams/${stream.id}`, { key: owner.readKey });
      assert.equal(detail.body.status, 'live');
      assert.equal(detail.body.title, 'Test pattern');
      assert.deepEqual(
        (await server.events()).map((e) => e.type),
        ['stream.started'],
      );
    });
  });
}
