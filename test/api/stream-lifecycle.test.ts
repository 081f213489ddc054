// The stream lifecycle as clients see it, and the events it records in the outbox.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DIALECTS } from '../helpers/databases.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { TestClock } from '../helpers/clock.ts';

async function outbox(server: TestServer) {
  const rows = await server.services.database.db
    .selectFrom('events')
    .select(['id', 'type', 'account_id', 'created_at', 'data'])
    .orderBy('created_at')
    .execute();
  return rows.map((row) => ({ ...row, data: JSON.parse(row.data) }));
}

for (const dialect of DIALECTS) {
  describe(`stream lifecycle on ${dialect}`, () => {
    test('scheduled -> live -> ended sets the fields decisions.md describes and records each event', async (t) => {
      const clock = new TestClock(Date.parse('2026-11-22T10:00:00.000Z'));
      const server = await startTestServer(t, { dialect, clock });
      const account = await server.createAccount();
      const created = await server.request('POST', '/v1/streams', {
        key: account.writeKey,
        body: { title: 'Show', scheduled_at: '2026-11-22T11:00:00Z' },
      });
      const id: string = created.body.id;

      clock.set(Date.parse('2026-11-22T11:00:05.000Z'));
      await server.services.streams.goLive(id);
      let res = await server.request('GET', `/v1/streams/${id}`, { key: account.readKey });
      assert.equal(res.body.status, 'live');
      assert.equal(res.body.started_at, '2026-11-22T11:00:05.000Z');
      assert.equal(res.body.viewer_count, 0);
      assert.equal(res.body.peak_viewer_count, 0);
      assert.equal(res.body.ended_at, null);
      assert.equal(res.body.scheduled_at, '2026-11-22T11:00:00.000Z');

      await server.services.streams.setViewerCount(id, 42);
      await server.services.streams.setViewerCount(id, 17);
      res = await server.request('GET', `/v1/streams/${id}`, { key: account.readKey });
      assert.equal(res.body.viewer_count, 17);
      assert.equal(res.body.peak_viewer_count, 42);
      const listed = await server.request('GET', '/v1/streams?status=live', { key: account.readKey });
      assert.deepEqual(
        listed.body.data.map((s: { id: string; viewer_count: number }) => [s.id, s.viewer_count]),
        [[id, 17]],
      );

      clock.set(Date.parse('2026-11-22T12:00:00.000Z'));
      await server.services.streams.end(id);
      res = await server.request('GET', `/v1/streams/${id}`, { key: account.readKey });
      assert.equal(res.body.status, 'ended');
      assert.equal(res.body.viewer_count, null);
      assert.equal(res.body.peak_viewer_count, 42);
      assert.equal(res.body.ended_at, '2026-11-22T12:00:00.000Z');
      assert.equal(res.body.updated_at, '2026-11-22T12:00:00.000Z');

      const events = await outbox(server);
      assert.deepEqual(
        events.map((e) => e.type),
        ['stream.started', 'stream.ended'],
      );
      for (const event of events) {
        assert.match(event.id, /^evt_/);
        assert.equal(event.account_id, account.userId);
        assert.equal(event.data.id, id);
        assert.equal(event.data.ingest, undefined, 'the stream key never travels in events');
      }
      assert.equal(events[0]!.data.status, 'live');
      assert.equal(events[0]!.data.started_at, '2026-11-22T11:00:05.000Z');
      assert.equal(events[0]!.data.stream_url, created.body.stream_url);
      assert.equal(events[1]!.data.status, 'ended');
      assert.equal(events[1]!.data.ended_at, '2026-11-22T12:00:00.000Z');
    });

    test('ended is terminal, standby goes live, and impossible moves change nothing', async (t) => {
      const server = await startTestServer(t, { dialect });
      const account = await server.createAccount();
      const standby = await server.request('POST', '/v1/streams', {
        key: account.writeKey,
        body: { title: 'Now' },
      });
      const id: string = standby.body.id;
      await assert.rejects(server.services.streams.end(id), { code: 'state_conflict' });
      await assert.rejects(server.services.streams.setViewerCount(id, 3), { code: 'state_conflict' });
      await server.services.streams.goLive(id);
      await assert.rejects(server.services.streams.goLive(id), { code: 'state_conflict' });
      await server.services.streams.end(id);
      await assert.rejects(server.services.streams.goLive(id), { code: 'state_conflict' });
      await assert.rejects(server.services.streams.end(id), { code: 'state_conflict' });
      await assert.rejects(server.services.streams.goLive('str_missing'), { code: 'resource_not_found' });
      const events = await outbox(server);
      assert.deepEqual(
        events.map((e) => e.type),
        ['stream.started', 'stream.ended'],
      );
    });

    test('two racing go-lives: exactly one wins and exactly one event is recorded', async (t) => {
      const server = await startTestServer(t, { dialect });
      const account = await server.createAccount();
      const created = await server.request('POST', '/v1/streams', {
        key: account.writeKey,
        body: { title: 'Race' },
      });
      const results = await Promise.allSettled([
        server.services.streams.goLive(created.body.id),
        server.services.streams.goLive(created.body.id),
        server.services.streams.goLive(created.body.id),
      ]);
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
      assert.equal((await outbox(server)).length, 1);
    });

    test('private streams are unlisted: readable by ID by anyone, listed only for their creator', async (t) => {
      const clock = new TestClock();
      const server = await startTestServer(t, { dialect, clock });
      const owner = await server.createAccount('Owner');
      const stranger = await server.createAccount('Stranger');
      const hidden = await server.request('POST', '/v1/streams', {
        key: owner.writeKey,
        body: { title: 'Secret rehearsal', privacy: 'private' },
      });
      clock.advance(1000);
      const open = await server.request('POST', '/v1/streams', {
        key: owner.writeKey,
        body: { title: 'Open' },
      });
      assert.equal(hidden.body.privacy, 'private');

      const ownerList = await server.request('GET', '/v1/streams', { key: owner.readKey });
      assert.deepEqual(
        ownerList.body.data.map((s: { id: string }) => s.id),
        [open.body.id, hidden.body.id],
      );
      const strangerList = await server.request('GET', `/v1/streams?creator_id=${owner.userId}`, {
        key: stranger.readKey,
      });
      assert.deepEqual(
        strangerList.body.data.map((s: { id: string }) => s.id),
        [open.body.id],
      );
      const direct = await server.request('GET', `/v1/streams/${hidden.body.id}`, { key: stranger.readKey });
      assert.equal(direct.status, 200);
      assert.equal(direct.body.title, 'Secret rehearsal');
    });

    test('status=scheduled returns scheduled and standby streams; a missing stream is 404', async (t) => {
      const server = await startTestServer(t, { dialect });
      const account = await server.createAccount();
      const inAnHour = new Date(server.clock.now() + 3_600_000).toISOString();
      const scheduled = await server.request('POST', '/v1/streams', {
        key: account.writeKey,
        body: { title: 'Later', scheduled_at: inAnHour },
      });
      const standby = await server.request('POST', '/v1/streams', {
        key: account.writeKey,
        body: { title: 'Soon' },
      });
      const live = await server.request('POST', '/v1/streams', {
        key: account.writeKey,
        body: { title: 'Live' },
      });
      await server.services.streams.goLive(live.body.id);
      const res = await server.request('GET', '/v1/streams?status=scheduled', { key: account.readKey });
      assert.deepEqual(
        new Set(res.body.data.map((s: { id: string }) => s.id)),
        new Set([scheduled.body.id, standby.body.id]),
      );
      for (const item of res.body.data) {
        assert.equal(item.peak_viewer_count, undefined, 'list items carry only the list fields');
        assert.equal(item.ingest, undefined);
      }
      const missing = await server.request('GET', '/v1/streams/str_doesnotexist', { key: account.readKey });
      assert.equal(missing.status, 404);
      assert.deepEqual(Object.keys(missing.body), ['error']);
      assert.equal(missing.body.error.code, 'resource_not_found');
    });

    test('the creator can reset the stream key; nobody else can see or reset it', async (t) => {
      const server = await startTestServer(t, { dialect });
      const owner = await server.createAccount('Owner');
      const other = await server.createAccount('Other');
      const created = await server.request('POST', '/v1/streams', {
        key: owner.writeKey,
        body: { title: 'Keyed' },
      });
      const oldKey: string = created.body.ingest.stream_key;
      const denied = await server.request('POST', `/v1/streams/${created.body.id}/reset-stream-key`, {
        key: other.writeKey,
      });
      assert.equal(denied.status, 404);
      const readOnly = await server.request('POST', `/v1/streams/${created.body.id}/reset-stream-key`, {
        key: owner.readKey,
      });
      assert.equal(readOnly.status, 403);
      const reset = await server.request('POST', `/v1/streams/${created.body.id}/reset-stream-key`, {
        key: owner.writeKey,
      });
      assert.equal(reset.status, 200);
      assert.notEqual(reset.body.ingest.stream_key, oldKey);
      const again = await server.request('GET', `/v1/streams/${created.body.id}`, { key: owner.writeKey });
      assert.equal(again.body.ingest.stream_key, reset.body.ingest.stream_key);
    });
  });
}
