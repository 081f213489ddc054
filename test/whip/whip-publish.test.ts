// WHIP ingest end to end: Chromium publishes its fake camera and microphone over WebRTC to
// POST /v1/whip with the stream key as its bearer token; the stream goes live, its HLS plays
// (ffprobe of the live playlist: H.264 and AAC), the DELETE on the session's Location ends it,
// and the recording is a normal video with both tracks and about the length published.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { mediaDialects } from '../helpers/databases.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { countSegments, probe, waitFor } from '../helpers/media-tools.ts';
import {
  launchPublisherBrowser,
  OUTBOUND_VIDEO_SCRIPT,
  type OutboundVideo,
} from '../helpers/whip-browser.ts';

/** In the page: getUserMedia, the offer, the POST; the answer applied. Returns the Location. */
const PUBLISH = `async ({ url, key }) => {
  const media = await navigator.mediaDevices.getUserMedia({ video: { width: 1280, height: 720 }, audio: true });
  const peer = new RTCPeerConnection();
  for (const track of media.getTracks()) peer.addTransceiver(track, { direction: 'sendonly' });
  await peer.setLocalDescription(await peer.createOffer());
  await new Promise((resolve) => {
    if (peer.iceGatheringState === 'complete') resolve();
    peer.addEventListener('icegatheringstatechange', () => { if (peer.iceGatheringState === 'complete') resolve(); });
    setTimeout(resolve, 3000);
  });
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/sdp', authorization: 'Bearer ' + key }, body: peer.localDescription.sdp });
  const answer = await response.text();
  if (response.status !== 201) return { status: response.status, body: answer };
  await peer.setRemoteDescription({ type: 'answer', sdp: answer });
  window.whipPeer = peer;
  return { status: 201, location: response.headers.get('location'), contentType: response.headers.get('content-type'), answer };
}`;

for (const { dialect, test } of mediaDialects(null)) {
  describe(`WHIP ingest on ${dialect}`, () => {
    test('Chromium publishes over WHIP: live, HLS plays, DELETE ends it, the recording is a video', async (t) => {
      const server = await startMediaServer(t, {
        dialect,
        reconnectWindowSeconds: 3,
        cleanStopGraceSeconds: 3,
      });
      const account = await server.createAccount('Browser Studio');
      const created = await server.createStream(account, { title: 'From the browser', category: 'coding' });
      const streamKey: string = created.ingest.stream_key;
      const get = async () =>
        (await server.request('GET', `/v1/streams/${created.id}`, { key: account.readKey })).body;

      const browser = await launchPublisherBrowser(t);
      const page = await browser.newPage();
      await page.goto(`${server.origin}/`);
      const published = await page.evaluate<{
        status: number;
        location?: string;
        contentType?: string;
        answer?: string;
        body?: string;
      }>(`(${PUBLISH})(${JSON.stringify({ url: `${server.origin}/v1/whip`, key: streamKey })})`);
      assert.equal(published.status, 201, published.body);
      assert.match(published.location ?? '', /^\/v1\/whip\/[\w-]{20,}$/);
      assert.equal(published.contentType, 'application/sdp');
      assert.match(published.answer ?? '', /x-google-start-bitrate=\d+/);
      assert.doesNotMatch(published.answer ?? '', /VP8|VP9|AV1/, 'the answer names only H.264 and Opus');
      const startedAt = Date.now();

      await waitFor(
        'the stream to go live',
        async () => ((await get()).status === 'live' ? true : undefined),
        {
          timeoutMs: 60_000,
        },
      );
      const playlistUrl = `${server.origin}/media/streams/${created.id}/index.m3u8`;
      await waitFor(
        'three live segments',
        async () => {
          const response = await fetch(playlistUrl);
          return response.status === 200 && countSegments(await response.text()) >= 3 ? true : undefined;
        },
        { timeoutMs: 90_000, intervalMs: 1000 },
      );
      const live = await probe(playlistUrl);
      const codecs = live.streams.map((stream) => stream.codec_name).sort();
      assert.ok(
        codecs.includes('h264') && codecs.includes('aac'),
        `live HLS has H.264 and AAC: ${codecs.join(',')}`,
      );

      // Chrome sends 720p at a few Mb/s from the start: the bitrate hints in the answer.
      const outbound = await page.evaluate<OutboundVideo | undefined>(OUTBOUND_VIDEO_SCRIPT);
      assert.ok(outbound && outbound.bytesSent > 0, 'Chromium sends video');
      t.diagnostic(`Chromium sends ${outbound.width}x${outbound.height}`);
      assert.ok(
        outbound.height >= 540,
        `Chromium sends ${outbound.width}x${outbound.height}, not a thumbnail`,
      );

      // The publisher's DELETE is its Stop: the stream ends after the clean-stop grace.
      const location = `${server.origin}${published.location}`;
      const wrongKey = await fetch(location, {
        method: 'DELETE',
        headers: { authorization: 'Bearer sk_wrong' },
      });
      assert.equal(wrongKey.status, 401);
      const publishedSeconds = (Date.now() - startedAt) / 1000;
      const deleted = await fetch(location, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${streamKey}` },
      });
      assert.equal(deleted.status, 200);
      const again = await fetch(location, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${streamKey}` },
      });
      assert.equal(again.status, 404);
      assert.equal(((await again.json()) as { error: { code: string } }).error.code, 'resource_not_found');

      await waitFor('the stream to end', async () => ((await get()).status === 'ended' ? true : undefined), {
        timeoutMs: 60_000,
      });
      const videoId = await waitFor(
        'video.published',
        async () => {
          const events = await server.events('video.published');
          return events[0]?.data.id as string | undefined;
        },
        { timeoutMs: 90_000 },
      );
      const video = (await server.request('GET', `/v1/videos/${videoId}`, { key: account.readKey })).body;
      assert.ok(video.playback_url, JSON.stringify(video));
      const recording = await probe(video.playback_url);
      const kinds = recording.streams.map((stream) => stream.codec_type).sort();
      assert.ok(
        kinds.includes('video') && kinds.includes('audio'),
        `the recording has video and audio: ${kinds.join(',')}`,
      );
      t.diagnostic(
        `published ${publishedSeconds.toFixed(1)} s, recorded ${recording.durationSeconds.toFixed(1)} s`,
      );
      assert.ok(
        Math.abs(recording.durationSeconds - publishedSeconds) < 6,
        `recording ${recording.durationSeconds} s against ${publishedSeconds} s published`,
      );
    });
  });
}
