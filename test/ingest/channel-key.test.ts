// A creator's channel stream key with real ffmpeg publishers, as OBS uses it: one key pasted
// once publishes broadcast after broadcast, each time to the creator's next stream (the nearest
// scheduled one within the window, else one in standby, else a new one), and a reset key stops
// working for new publishes at once.
import assert from 'node:assert/strict';
import { describe, type TestContext } from 'node:test';
import type { Account } from '../helpers/app.ts';
import { mediaDialects } from '../helpers/databases.ts';
import { RtmpTestClient } from '../helpers/rtmp-client.ts';
import { startMediaServer, type MediaTestServer } from '../helpers/media-server.ts';
import { pushTestPattern, waitFor, type Push } from '../helpers/media-tools.ts';

const HOUR = 3_600_000;

/** A small picture: these tests are about which stream goes live, not about the picture. */
function push(t: TestContext, url: string, seconds = 60): Push {
  const pushed = pushTestPattern(url, seconds, { size: '320x180' });
  t.after(() => {
    pushed.stop();
  });
  return pushed;
}

async function channelKey(server: MediaTestServer, account: Account): Promise<{ url: string; key: string }> {
  const res = await server.request('GET', '/v1/ingest', { key: account.writeKey });
  assert.equal(res.status, 200);
  return { url: `${res.body.rtmp_url}/${res.body.stream_key}`, key: res.body.stream_key };
}

async function streamsOf(server: MediaTestServer, account: Account): Promise<any[]> {
  const res = await server.request('GET', `/v1/streams?creator_id=${account.userId}&limit=100`, {
    key: account.readKey,
  });
  return res.body.data;
}

async function liveStreamOf(server: MediaTestServer, account: Account, not?: string): Promise<any> {
  return waitFor(`a live stream of ${account.userId}`, async () =>
    (await streamsOf(server, account)).find((s) => s.status === 'live' && s.id !== not),
  );
}

const inHours = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

for (const { dialect, test } of mediaDialects(
  'encoders asking at the same moment with one key make one stream, not several',
)) {
  describe(`channel stream keys on ${dialect}`, () => {
    test('one key publishes two broadcasts one after the other, each its own stream', async (t) => {
      const server = await startMediaServer(t, { dialect, reconnectWindowSeconds: 2 });
      const alice = await server.createAccount('Alice');
      const { url } = await channelKey(server, alice);
      assert.deepEqual(await streamsOf(server, alice), []);

      // No stream exists: the first broadcast creates a public one with a default title.
      const first = push(t, url);
      const one = await liveStreamOf(server, alice);
      assert.match(one.title, /^Live stream, \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
      assert.equal(one.privacy, 'public');
      assert.equal(one.creator_id, alice.userId);

      // While it is live, a second encoder with the same key is refused like a second publisher.
      const second = push(t, url);
      const refused = await second.exited;
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /Another encoder is already publishing this stream\./);
      assert.equal((await streamsOf(server, alice)).length, 1, 'the refused one created nothing');

      // The broadcast stops; after the reconnect window the stream ends.
      first.end();
      await waitFor('the first stream to end', async () => {
        const res = await server.request('GET', `/v1/streams/${one.id}`, { key: alice.readKey });
        return res.body.status === 'ended';
      });

      // The same key, unchanged in the encoder, starts the next broadcast as a new stream.
      const next = push(t, url);
      const two = await liveStreamOf(server, alice, one.id);
      assert.notEqual(two.id, one.id);
      const all = await streamsOf(server, alice);
      assert.deepEqual(all.map((s) => s.status).sort(), ['ended', 'live']);
      const started = await server.events('stream.started');
      assert.deepEqual(started.map((e) => e.data.id).sort(), [one.id, two.id].sort());
      next.stop();
    });

    test('the nearest scheduled stream goes live; else standby; else a new stream', async (t) => {
      const server = await startMediaServer(t, {
        dialect,
        reconnectWindowSeconds: 2,
        channelKeyWindowHours: 12,
      });

      // Bob: a standby stream, and scheduled ones 1 h, 3 h and 20 h ahead, and one 30 min ago.
      const bob = await server.createAccount('Bob');
      const bobStandby = await server.createStream(bob, { title: 'standby' });
      await server.createStream(bob, { title: 'in 3 h', scheduled_at: inHours(3) });
      await server.createStream(bob, { title: 'in 1 h', scheduled_at: inHours(1) });
      await server.createStream(bob, { title: 'in 20 h', scheduled_at: inHours(20) });
      const overdue = await server.createStream(bob, { title: '30 min ago', scheduled_at: inHours(2) });
      // The API takes only future times; the stream's time is moved back as time would have.
      await server.services.database.db
        .updateTable('streams')
        .set({ scheduled_at: Date.now() - HOUR / 2 })
        .where('id', '=', overdue.id)
        .execute();

      // Carol: two standby streams and one scheduled outside the window.
      const carol = await server.createAccount('Carol');
      await server.createStream(carol, { title: 'older standby' });
      const carolNewest = await server.createStream(carol, { title: 'newer standby' });
      await server.createStream(carol, { title: 'in 20 h', scheduled_at: inHours(20) });

      // Dave: only a stream scheduled outside the window, so a new one is made.
      const dave = await server.createAccount('Dave');
      const daveLater = await server.createStream(dave, { title: 'in 20 h', scheduled_at: inHours(20) });

      // Someone else's standby stream is never picked for Dave.
      const eve = await server.createAccount('Eve');
      const eveStandby = await server.createStream(eve, { title: 'Eve standby' });

      for (const account of [bob, carol, dave]) push(t, (await channelKey(server, account)).url);

      const bobLive = await liveStreamOf(server, bob);
      assert.equal(bobLive.id, overdue.id, 'the nearest, though in the past');
      const carolLive = await liveStreamOf(server, carol);
      assert.equal(carolLive.id, carolNewest.id, 'the most recently created standby stream');
      const daveLive = await liveStreamOf(server, dave);
      assert.notEqual(daveLive.id, daveLater.id);
      assert.match(daveLive.title, /^Live stream, /);

      // Each creator has exactly one live stream; nothing else moved.
      for (const [account, count] of [
        [bob, 5],
        [carol, 3],
        [dave, 2],
      ] as const) {
        const streams = await streamsOf(server, account);
        assert.equal(streams.length, count);
        assert.equal(streams.filter((s) => s.status === 'live').length, 1);
      }
      const bobNow = await streamsOf(server, bob);
      assert.equal(bobNow.find((s) => s.id === bobStandby.id).status, 'scheduled');
      const eveNow = await server.request('GET', `/v1/streams/${eveStandby.id}`, { key: eve.readKey });
      assert.equal(eveNow.body.status, 'scheduled');

      // A stream's own key keeps working as before, beside the channel key.
      const own = push(t, `${bobStandby.ingest.rtmp_url}/${bobStandby.ingest.stream_key}`);
      await waitFor('the standby stream to go live with its own key', async () => {
        const res = await server.request('GET', `/v1/streams/${bobStandby.id}`, { key: bob.readKey });
        return res.body.status === 'live';
      });
      own.stop();
    });

    test('encoders asking at the same moment with one key make one stream, not several', async (t) => {
      const server = await startMediaServer(t, { dialect, reconnectWindowSeconds: 2 });
      const frank = await server.createAccount('Frank');
      const { key } = await channelKey(server, frank);
      // Our own RTMP client, so that every publish request leaves in the same turn. Without
      // admission's per-creator turn, PostgreSQL's pool lets two of them create a stream each.
      const clients = await Promise.all(
        Array.from({ length: 4 }, () => RtmpTestClient.open(server.rtmpPort)),
      );
      t.after(() => {
        for (const client of clients) client.close();
      });
      for (const client of clients) client.startPublish('live', key);
      const statuses = await Promise.all(clients.map((client) => client.nextStatus()));
      const codes = statuses.map((status) => status?.code).sort();
      assert.deepEqual(codes, [
        'NetStream.Publish.BadName',
        'NetStream.Publish.BadName',
        'NetStream.Publish.BadName',
        'NetStream.Publish.Start',
      ]);
      for (const status of statuses) {
        if (status?.code === 'NetStream.Publish.BadName') {
          assert.match(status.description, /Another encoder is already publishing this stream\./);
        }
      }
      const streams = await streamsOf(server, frank);
      assert.equal(streams.length, 1, 'one stream was created for them all');
    });

    test('a reset key is refused at once; the new one publishes', async (t) => {
      const server = await startMediaServer(t, { dialect, reconnectWindowSeconds: 2 });
      const erin = await server.createAccount('Erin');
      const old = await channelKey(server, erin);
      const reset = await server.request('POST', '/v1/ingest/reset-key', { key: erin.writeKey });
      assert.equal(reset.status, 200);

      const stale = push(t, old.url);
      const refused = await stale.exited;
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /Server error: The stream key is not valid\./);
      assert.deepEqual(await streamsOf(server, erin), [], 'the old key created nothing');

      push(t, `${reset.body.rtmp_url}/${reset.body.stream_key}`);
      await liveStreamOf(server, erin);
    });
  });
}
