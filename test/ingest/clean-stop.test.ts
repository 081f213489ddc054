// Stopping on purpose is not losing the connection. An encoder that stops cleanly (OBS's Stop
// Streaming; here ffmpeg reaching the end of its input, which sends FCUnpublish and
// deleteStream before it hangs up) ends the stream after CLEAN_STOP_GRACE_SECONDS, not after
// the whole RECONNECT_WINDOW_SECONDS, and viewers are never told the broadcaster lost their
// connection; starting again inside the grace continues the same stream. A publisher that
// dies (SIGKILL: nothing said) still gets the whole reconnect window.
//
// Windows are checked loosely: "ended long before the reconnect window" and "still live well
// after the grace", with margins of many seconds; what must happen is awaited with waitFor.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { mediaDialects } from '../helpers/databases.ts';
import { startMediaServer, type MediaTestServer } from '../helpers/media-server.ts';
import { countSegments, pushTestPattern, waitFor } from '../helpers/media-tools.ts';
import { pause } from '../helpers/wait.ts';
import type { Account } from '../helpers/app.ts';

const RECONNECT_WINDOW_SECONDS = 60;
const GRACE_SECONDS = 2;

/** The creator's streams, oldest first. */
async function streamsOf(
  server: MediaTestServer,
  account: Account,
): Promise<{ id: string; status: string }[]> {
  const res = await server.request('GET', `/v1/streams?creator_id=${account.userId}`, {
    key: account.readKey,
  });
  return (res.body.data as { id: string; status: string; created_at: string }[]).sort((a, b) =>
    a.created_at.localeCompare(b.created_at),
  );
}

for (const { dialect, test } of mediaDialects(
  'a clean stop ends the stream within the grace and publishes its recording',
)) {
  describe(`a clean stop, on ${dialect}`, () => {
    test('a clean stop ends the stream within the grace and publishes its recording', async (t) => {
      const server = await startMediaServer(t, {
        dialect,
        reconnectWindowSeconds: RECONNECT_WINDOW_SECONDS,
        cleanStopGraceSeconds: GRACE_SECONDS,
      });
      const account = await server.createAccount('Stella Stops');
      const created = await server.createStream(account, { title: 'Six seconds' });
      const push = pushTestPattern(`${created.ingest.rtmp_url}/${created.ingest.stream_key}`, 6, {
        size: '640x360',
      });
      t.after(() => {
        push.stop();
      });
      const get = () => server.request('GET', `/v1/streams/${created.id}`, { key: account.writeKey });
      await waitFor('the stream to go live', async () => (await get()).body.status === 'live');

      const exit = await push.exited;
      assert.equal(exit.code, 0, `ffmpeg ends normally: ${exit.stderr}`);
      // Until it ends, the watch page is never told the broadcaster lost their connection, and
      // the creator gets no disconnected warning: it keeps showing live, then ended.
      const seen = { reconnecting: false, warnings: new Set<string>() };
      const ended = await waitFor(
        'the stream to end within the grace',
        async () => {
          const info = (await server.request('GET', `/watch/${created.id}/info`)).body;
          if (info.reconnecting === true) seen.reconnecting = true;
          const res = await get();
          for (const warning of res.body.ingest?.health?.warnings ?? []) seen.warnings.add(warning.code);
          return res.body.status === 'ended' ? res.body : undefined;
        },
        // Far less than the reconnect window: a stream that waited for it would fail here.
        { timeoutMs: (RECONNECT_WINDOW_SECONDS / 2) * 1000 },
      );
      assert.ok(
        Date.parse(ended.ended_at) - exit.at < (RECONNECT_WINDOW_SECONDS / 2) * 1000,
        `ended ${Date.parse(ended.ended_at) - exit.at} ms after ffmpeg exited`,
      );
      assert.equal(seen.reconnecting, false, 'the watch page never said reconnecting');
      assert.deepEqual([...seen.warnings], [], 'no health warning after a clean stop');
      assert.equal(server.logs.filter((line) => line.includes('"publisher gone; waiting')).length, 0);
      assert.equal(
        server.logs.filter((line) => line.includes('"publisher stopped; the stream ends')).length,
        1,
      );
      assert.equal(server.logs.filter((line) => line.includes('publisher_disconnected')).length, 0);

      assert.equal((await server.events('stream.started')).length, 1);
      const published = await waitFor('video.published', async () => {
        const events = await server.events('video.published');
        return events.length > 0 ? events : undefined;
      });
      assert.equal(published.length, 1);
      assert.equal(published[0]!.data.source_stream_id, created.id);
      const video = await server.request('GET', `/v1/videos/${published[0]!.data.id as string}`, {
        key: account.readKey,
      });
      assert.equal(video.status, 200);
      assert.ok(video.body.playback_url);
      assert.ok(Math.abs(video.body.duration_seconds - 6) <= 2, `duration ${video.body.duration_seconds} s`);
      const endedEvents = await server.events('stream.ended');
      assert.equal(endedEvents.length, 1, 'stream.ended once');
      assert.equal(endedEvents[0]!.data.id, created.id);
    });

    test('a publisher that dies still gets the whole reconnect window', async (t) => {
      const server = await startMediaServer(t, {
        dialect,
        reconnectWindowSeconds: RECONNECT_WINDOW_SECONDS,
        cleanStopGraceSeconds: GRACE_SECONDS,
      });
      const account = await server.createAccount('Dmitri Drops');
      const created = await server.createStream(account, { title: 'Pulled cable' });
      const push = pushTestPattern(`${created.ingest.rtmp_url}/${created.ingest.stream_key}`, 120, {
        size: '640x360',
      });
      t.after(() => {
        push.stop();
      });
      const get = () => server.request('GET', `/v1/streams/${created.id}`, { key: account.writeKey });
      await waitFor('the stream to go live', async () => (await get()).body.status === 'live');
      const info = async () => (await server.request('GET', `/watch/${created.id}/info`)).body;

      push.stop();
      await waitFor('the info to say reconnecting', async () => (await info()).reconnecting === true);
      // Nothing should happen for a long while: waiting a few times the grace shows the drop
      // was not taken for a clean stop (which would have ended the stream by now).
      await pause((GRACE_SECONDS + 4) * 1000);
      const during = await get();
      assert.equal(during.body.status, 'live', 'still live well after the clean-stop grace');
      assert.equal((await info()).reconnecting, true);
      assert.equal(during.body.ingest.health.state, 'reconnecting');
      assert.deepEqual(
        during.body.ingest.health.warnings.map((warning: { code: string }) => warning.code),
        ['publisher_disconnected'],
      );
      const deadline = Date.parse(during.body.ingest.health.reconnect_deadline);
      assert.ok(
        deadline - Date.now() > (RECONNECT_WINDOW_SECONDS / 2) * 1000,
        `the reconnect deadline is the whole window away: ${deadline - Date.now()} ms`,
      );
      assert.equal((await server.events('stream.ended')).length, 0);
    });

    test('starting again within the grace continues the same stream', async (t) => {
      // A grace long enough for ffmpeg to start again on a busy machine.
      const server = await startMediaServer(t, {
        dialect,
        reconnectWindowSeconds: RECONNECT_WINDOW_SECONDS,
        cleanStopGraceSeconds: 10,
      });
      const account = await server.createAccount('Ronja Restarts');
      // The channel key: a publish after the stream ended would make a new stream.
      const settings = (await server.request('GET', '/v1/ingest', { key: account.writeKey })).body;
      const url = `${settings.rtmp_url}/${settings.stream_key}`;
      const first = pushTestPattern(url, 5, { size: '640x360' });
      t.after(() => {
        first.stop();
      });
      const [stream] = await waitFor('the stream to go live', async () => {
        const streams = await streamsOf(server, account);
        return streams.some((s) => s.status === 'live') ? streams : undefined;
      });
      assert.equal((await first.exited).code, 0);
      await waitFor('the grace to begin', () =>
        server.logs.some((line) => line.includes('"publisher stopped; the stream ends')),
      );
      const second = pushTestPattern(url, 4, { size: '640x360' });
      t.after(() => {
        second.stop();
      });
      assert.equal((await second.exited).code, 0);

      const playlist = await (await fetch(`${server.origin}/media/streams/${stream!.id}/index.m3u8`)).text();
      assert.match(
        playlist,
        /#EXT-X-DISCONTINUITY\n#EXT-X-PROGRAM-DATE-TIME:\S+\n#EXTINF:[\d.]+,\np1\/seg00000\.ts/,
      );
      assert.ok(countSegments(playlist) >= 3);
      await waitFor(
        'the stream to end after the second stop',
        async () => (await streamsOf(server, account)).every((s) => s.status === 'ended'),
        { timeoutMs: 45_000 },
      );
      const streams = await streamsOf(server, account);
      assert.deepEqual(
        streams.map((s) => s.id),
        [stream!.id],
        'one stream, not a second',
      );
      const started = await server.events('stream.started');
      assert.equal(started.length, 1, 'stream.started once');
      assert.equal(started[0]!.data.id, stream!.id);
      assert.equal((await server.events('stream.ended')).length, 1);
      assert.equal(server.logs.filter((line) => line.includes('"publish started"')).length, 2);
    });
  });
}
