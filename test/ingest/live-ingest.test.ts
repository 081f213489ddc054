// Live ingest end to end with real tools: ffmpeg publishes a test pattern over RTMP with the
// stream's key, the service packages it as HLS with its own ffmpeg, and everything is checked
// from the outside: the API, the media URLs, ffprobe, and the events outbox (webhooks' input).
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { mediaDialects } from '../helpers/databases.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { createHmac } from 'node:crypto';
import { startReceiver } from '../helpers/https-receiver.ts';
import {
  countSegments,
  countVideoFrames,
  probe,
  pushTestPattern,
  secondsPushed,
  waitFor,
} from '../helpers/media-tools.ts';

/**
 * The reconnect window, and the grace after a clean stop: the test's second push must reach the
 * ingest within it, however slowly ffmpeg starts on a busy machine.
 */
const RECONNECT_WINDOW_SECONDS = 10;

for (const { dialect, test } of mediaDialects(
  'a published stream goes live, plays, survives a reconnect and becomes a video',
)) {
  describe(`live ingest on ${dialect}`, () => {
    test('a published stream goes live, plays, survives a reconnect and becomes a video', async (t) => {
      const server = await startMediaServer(t, {
        dialect,
        reconnectWindowSeconds: RECONNECT_WINDOW_SECONDS,
        cleanStopGraceSeconds: RECONNECT_WINDOW_SECONDS,
        deliverWebhooks: true,
      });
      const account = await server.createAccount('Pattern Studio');
      // The creator's webhook hears about the stream, as an integrator's server would.
      const receiver = await startReceiver();
      t.after(() => receiver.close());
      const hook = await server.request('POST', '/v1/webhooks', {
        key: account.writeKey,
        body: { url: receiver.url('/hooks'), events: ['stream.started', 'stream.ended', 'video.published'] },
      });
      assert.equal(hook.status, 201);
      const created = await server.createStream(account, { title: 'Bars and tone', category: 'coding' });
      const { stream_key: streamKey, rtmp_url: rtmpUrl } = created.ingest;
      assert.equal(rtmpUrl, `rtmp://127.0.0.1:${server.rtmpPort}/live`);
      const get = () => server.request(`GET`, `/v1/streams/${created.id}`, { key: account.readKey });

      // Longer than the test needs it: the other publishers below must find it still publishing,
      // however long a busy machine takes to get there. The test stops it itself.
      const first = pushTestPattern(`${rtmpUrl}/${streamKey}`, 600, { progress: true });
      t.after(() => {
        first.stop();
      });
      const live = await waitFor('the stream to go live', async () => {
        const res = await get();
        return res.body.status === 'live' ? res.body : undefined;
      });
      assert.equal(live.viewer_count, 0);
      assert.ok(live.started_at);

      // stream.started is in the outbox once, for the creator, without the key.
      const started = await server.events('stream.started');
      assert.equal(started.length, 1);
      assert.equal(started[0]!.account_id, account.userId);
      assert.equal(started[0]!.data.id, created.id);
      assert.equal(started[0]!.data.status, 'live');
      assert.equal(JSON.stringify(started[0]!.data).includes(streamKey), false);

      // The live playlist is served with HLS's content type, is not cached, and grows.
      const playlistUrl = `${server.origin}/media/streams/${created.id}/index.m3u8`;
      const early = await fetch(playlistUrl);
      assert.equal(early.status, 200);
      assert.equal(early.headers.get('content-type'), 'application/vnd.apple.mpegurl');
      assert.equal(early.headers.get('cache-control'), 'no-cache');
      const earlyText = await early.text();
      assert.match(earlyText, /#EXT-X-PLAYLIST-TYPE:EVENT/);
      assert.doesNotMatch(earlyText, /#EXT-X-ENDLIST/);
      const earlyCount = countSegments(earlyText);
      assert.ok(earlyCount >= 1);
      await waitFor('the live playlist to grow', async () => {
        const text = await (await fetch(playlistUrl)).text();
        return countSegments(text) > earlyCount;
      });

      // A segment is MPEG-TS, cached for good, and holds H.264 video and AAC audio.
      const segmentPath = /^(p\d+\/seg\d+\.ts)$/m.exec(earlyText)?.[1];
      assert.ok(segmentPath);
      const segmentUrl = `${server.origin}/media/streams/${created.id}/${segmentPath}`;
      const segment = await fetch(segmentUrl);
      assert.equal(segment.status, 200);
      assert.equal(segment.headers.get('content-type'), 'video/mp2t');
      assert.match(segment.headers.get('cache-control') ?? '', /immutable/);
      const codecs = (await probe(segmentUrl)).streams.map((s) => s.codec_name).sort();
      assert.deepEqual(codecs, ['aac', 'h264']);

      // thumbnail_url answers with a JPEG that decodes.
      assert.ok(live.thumbnail_url, 'a thumbnail exists once live');
      const thumbnail = await fetch(live.thumbnail_url);
      assert.equal(thumbnail.status, 200);
      assert.equal(thumbnail.headers.get('content-type'), 'image/jpeg');
      const picture = await probe(live.thumbnail_url);
      assert.equal(picture.streams[0]!.codec_name, 'mjpeg');
      assert.equal(picture.streams[0]!.width, 640);

      // A wrong key, another application name and a second publisher are refused at once,
      // before they are told to start, and ffmpeg shows why.
      const publishesStarted = () => server.logs.filter((line) => line.includes('"publish started"')).length;
      assert.equal(publishesStarted(), 1);
      const wrongKey = pushTestPattern(`${rtmpUrl}/sk_${'x'.repeat(32)}`, 20);
      const wrongApp = pushTestPattern(server.rtmpUrl(streamKey, 'other'), 20);
      const second = pushTestPattern(`${rtmpUrl}/${streamKey}`, 20);
      const refusals = [
        [wrongKey, /Server error: The stream key is not valid\./],
        [wrongApp, /Server error: Publish to rtmp:\/\/<host>:<port>\/live with the stream key\./],
        [second, /Server error: Another encoder is already publishing this stream\./],
      ] as const;
      for (const [refused, message] of refusals) {
        const exit = await refused.exited;
        assert.notEqual(exit.code, 0, 'the refused publisher is told so');
        assert.match(exit.stderr, message);
      }
      assert.equal(publishesStarted(), 1, 'none of them was admitted');
      assert.equal((await get()).body.status, 'live');
      assert.equal((await server.events('stream.started')).length, 1);

      // The first publisher stops (the encoder's Stop button: a clean stop); publishing again
      // inside the grace continues the stream.
      first.end();
      const firstSeconds = secondsPushed((await first.exited).stderr);
      await waitFor('the clean-stop grace to begin', () =>
        server.logs.some((line) =>
          line.includes('"publisher stopped; the stream ends unless it publishes again"'),
        ),
      );
      assert.equal((await get()).body.status, 'live', 'still live inside the grace');
      const again = pushTestPattern(`${rtmpUrl}/${streamKey}`, 4);
      assert.equal((await again.exited).code, 0);
      const pushedSeconds = firstSeconds + 4;
      const afterReconnect = await (await fetch(playlistUrl)).text();
      assert.match(
        afterReconnect,
        /#EXT-X-DISCONTINUITY\n#EXT-X-PROGRAM-DATE-TIME:\S+\n#EXTINF:[\d.]+,\np1\/seg00000\.ts/,
      );
      assert.equal((await server.events('stream.started')).length, 1, 'one stream, started once');

      // After the window: ended, stream.ended, then the recording as a video.
      const ended = await waitFor(
        'the stream to end',
        async () => {
          const res = await get();
          return res.body.status === 'ended' ? res.body : undefined;
        },
        { timeoutMs: (RECONNECT_WINDOW_SECONDS + 60) * 1000 },
      );
      assert.equal(ended.viewer_count, null);
      assert.ok(ended.ended_at);
      const endedEvents = await server.events('stream.ended');
      assert.equal(endedEvents.length, 1);
      assert.equal(endedEvents[0]!.data.status, 'ended');

      const published = await waitFor('video.published', async () => {
        const events = await server.events('video.published');
        return events.length > 0 ? events : undefined;
      });
      assert.equal(published.length, 1);
      const videoId = published[0]!.data.id as string;
      assert.equal(published[0]!.data.source_stream_id, created.id);
      const video = await server.request('GET', `/v1/videos/${videoId}`, { key: account.readKey });
      assert.equal(video.status, 200);
      assert.equal(video.body.source_stream_id, created.id);
      assert.equal(video.body.title, 'Bars and tone');
      assert.equal(video.body.category, 'coding');
      assert.ok(
        Math.abs(video.body.duration_seconds - pushedSeconds) <= 2,
        `duration ${video.body.duration_seconds} s for ${pushedSeconds} s pushed`,
      );
      assert.equal(video.body.playback_url, `${server.origin}/media/videos/${videoId}/index.m3u8`);

      // The video's manifest is a finished playlist over the same, unre-encoded segments.
      const manifest = await fetch(video.body.playback_url);
      assert.equal(manifest.status, 200);
      assert.equal(manifest.headers.get('content-type'), 'application/vnd.apple.mpegurl');
      const manifestText = await manifest.text();
      assert.match(manifestText, /#EXT-X-PLAYLIST-TYPE:VOD/);
      assert.match(manifestText, /#EXT-X-ENDLIST\n$/);
      const measured = await probe(video.body.playback_url);
      assert.ok(
        Math.abs(measured.durationSeconds - pushedSeconds) <= 2,
        `ffprobe: ${measured.durationSeconds}`,
      );
      const frames = await countVideoFrames(video.body.playback_url);
      assert.ok(Math.abs(frames - pushedSeconds * 30) <= 60, `${frames} frames decoded at 30 fps`);
      const videoThumb = await probe(video.body.thumbnail_url);
      assert.equal(videoThumb.streams[0]!.codec_name, 'mjpeg');

      // The ended stream's own playlist is finished too, and its key is refused from now on.
      assert.match(await (await fetch(playlistUrl)).text(), /#EXT-X-ENDLIST/);
      const late = pushTestPattern(`${rtmpUrl}/${streamKey}`, 4);
      assert.notEqual((await late.exited).code, 0);
      assert.equal((await server.events('stream.started')).length, 1);

      // Each lifecycle event reached the webhook once, signed, and never with the stream key.
      const deliveries = await waitFor('the three deliveries', async () => {
        const got = receiver.requests.filter((r) => r.body?.type !== 'ping');
        return got.length >= 3 ? got : undefined;
      });
      assert.deepEqual(deliveries.map((r) => r.body.type).sort(), [
        'stream.ended',
        'stream.started',
        'video.published',
      ]);
      for (const delivery of deliveries) {
        const expected = createHmac('sha256', hook.body.secret).update(delivery.rawBody).digest('hex');
        assert.equal(delivery.headers['x-service-signature'], expected);
        assert.equal(delivery.rawBody.toString().includes(streamKey), false);
      }
      assert.equal(deliveries.find((r) => r.body.type === 'video.published')?.body.data.id, videoId);

      // The key never reached a log line.
      assert.ok(server.logs.some((line) => line.includes('publish refused')));
      assert.equal(
        server.logs.some((line) => line.includes(streamKey)),
        false,
      );
    });

    test('an operator ending a live stream disconnects its encoder and keeps the recording', async (t) => {
      const server = await startMediaServer(t, { dialect, reconnectWindowSeconds: 30 });
      const account = await server.createAccount();
      const created = await server.createStream(account);
      const push = pushTestPattern(`${created.ingest.rtmp_url}/${created.ingest.stream_key}`, 30);
      await waitFor('live', async () => (await server.events('stream.started')).length === 1);
      // A few seconds of media, so there is a recording to keep.
      const playlistUrl = `${server.origin}/media/streams/${created.id}/index.m3u8`;
      await waitFor('two segments', async () => countSegments(await (await fetch(playlistUrl)).text()) >= 2);
      await server.services.streams.end(created.id); // what `tributary streams end` does
      const exit = await push.exited;
      // A push that runs to its end exits with 0 (as the first test shows); a cut-off one fails.
      assert.notEqual(exit.code, 0, 'the encoder was cut off, not left pushing for 30 s');
      const published = await waitFor(
        'video.published',
        async () => (await server.events('video.published'))[0],
      );
      assert.equal(published.data.source_stream_id, created.id);
      assert.equal((await server.events('stream.ended')).length, 1);
      const again = pushTestPattern(`${created.ingest.rtmp_url}/${created.ingest.stream_key}`, 10);
      assert.notEqual((await again.exited).code, 0);
    });

    test('a stream created with record: false ends without leaving a video', async (t) => {
      const server = await startMediaServer(t, { dialect, reconnectWindowSeconds: 2 });
      const account = await server.createAccount();
      const created = await server.createStream(account, { record: false });
      const push = pushTestPattern(`${created.ingest.rtmp_url}/${created.ingest.stream_key}`, 4);
      await waitFor('live', async () => (await server.events('stream.started')).length === 1);
      assert.equal((await push.exited).code, 0);
      await waitFor('stream.ended', async () => (await server.events('stream.ended')).length === 1, {
        timeoutMs: 10_000,
      });
      if (server.ingest.enabled) await server.ingest.settle();
      assert.equal((await server.events('video.published')).length, 0);
      const videos = await server.request('GET', '/v1/videos', { key: account.readKey });
      assert.deepEqual(videos.body.data, []);
      // Its segments are gone; the thumbnail stays for thumbnail_url.
      const playlist = await fetch(`${server.origin}/media/streams/${created.id}/index.m3u8`);
      assert.equal(playlist.status, 404);
      assert.equal(((await playlist.json()) as any).error.code, 'resource_not_found');
      const stream = await server.request('GET', `/v1/streams/${created.id}`, { key: account.readKey });
      assert.equal((await fetch(stream.body.thumbnail_url)).status, 200);
    });
  });
}
