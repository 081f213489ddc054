// POST /v1/streams/{id}/end during a real ffmpeg push: the ingest's upkeep cuts the encoder off,
// the stream's key is refused from then on, and the recording is published as a video as when
// the encoder stops by itself.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { mediaDialects } from '../helpers/databases.ts';
import { pushEncoder } from '../helpers/encoder-push.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { pushTestPattern, waitFor } from '../helpers/media-tools.ts';

const SMOKE =
  'ending a live stream from the API disconnects the encoder, refuses its key, and publishes the recording';

for (const { dialect, test } of mediaDialects(SMOKE)) {
  describe(`ending a stream from the API on ${dialect}`, () => {
    test(SMOKE, async (t) => {
      // A long reconnect window: the stream ends because the API said so, not because it timed out.
      const server = await startMediaServer(t, { dialect, reconnectWindowSeconds: 60 });
      const account = await server.createAccount('Ending Studio');
      const stream = await server.createStream(account, { title: 'Cut short' });
      const url = `${stream.ingest.rtmp_url}/${stream.ingest.stream_key}`;
      const push = pushTestPattern(url, 120);
      t.after(() => {
        push.stop();
      });
      await waitFor('the stream to go live', async () =>
        (await server.events('stream.started')).some((event) => event.data.id === stream.id),
      );
      // A few segments, so the recording has something in it.
      await waitFor(
        'a thumbnail (segments are being packaged)',
        async () =>
          (await server.request('GET', `/v1/streams/${stream.id}`, { key: account.readKey })).body
            .thumbnail_url !== null,
        { timeoutMs: 30_000 },
      );

      const ended = await server.request('POST', `/v1/streams/${stream.id}/end`, { key: account.writeKey });
      assert.equal(ended.status, 200, JSON.stringify(ended.body));
      assert.equal(ended.body.status, 'ended');
      const endedAt = Date.now();

      const exit = await push.exited;
      assert.ok(Date.now() - endedAt < 15_000, 'the encoder was cut off within a few seconds');
      assert.ok(Date.now() - push.startedAt < 100_000, 'long before its push would have finished');
      assert.ok(exit.code !== 0 || exit.stderr !== '', `ffmpeg noticed: ${exit.code} ${exit.stderr}`);

      const again = await pushEncoder(url, 5).exited;
      assert.notEqual(again.code, 0);
      assert.match(again.stderr, /Server error: This stream has ended\./);

      const published = await waitFor(
        'the recording to be published',
        async () =>
          (await server.events('video.published')).find((e) => e.data.source_stream_id === stream.id),
        { timeoutMs: 60_000 },
      );
      const video = await server.request('GET', `/v1/videos/${published.data.id}`, { key: account.readKey });
      assert.equal(video.status, 200);
      assert.ok(video.body.duration_seconds >= 1, `duration ${video.body.duration_seconds}`);
      const playlist = await server.request('GET', video.body.playback_url);
      assert.equal(playlist.status, 200);
      assert.match(String(playlist.body), /#EXT-X-ENDLIST/);

      assert.equal((await server.events('stream.ended')).length, 1, 'ended once');
      const after = await server.request('GET', `/v1/streams/${stream.id}`, { key: account.readKey });
      assert.equal(after.body.status, 'ended');
    });
  });
}
