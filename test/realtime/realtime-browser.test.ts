// A realtime stream (issue 30) pushed over RTMP plays on its watch page in Chromium over WebRTC
// (WHEP): frames are decoded (getStats framesDecoded grows, video.currentTime advances). In the
// same test, with the process's WebRTC capacity taken, a second viewer is refused and the page
// plays the low-latency HLS with hls.js instead. The recording is a normal video (ffprobe).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { launchBrowser, WEBRTC_LOOPBACK_ARGS } from '../helpers/media-browser.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { pushTestPattern } from '../helpers/media-tools.ts';
import { pushEncoder } from '../helpers/encoder-push.ts';
import { expectNormalRecording, watchOverWebRtc, watchRefusedToHls } from '../helpers/realtime-page.ts';
import { waitFor } from '../helpers/wait.ts';

test('a realtime stream plays over WebRTC, falls back to HLS past capacity, and records a normal video', async (t) => {
  const server = await startMediaServer(t, { dialect: 'sqlite', realtime: { maxViewers: 1 } });
  const creator = await server.createAccount();
  const stream = await server.createStream(creator, { latency_mode: 'realtime', record: true });
  assert.equal(stream.latency_mode, 'realtime');
  const push = pushTestPattern(`${stream.ingest.rtmp_url}/${stream.ingest.stream_key}`, 120, {
    size: '640x360',
  });
  t.after(() => {
    push.stop();
  });
  await waitFor(
    async () =>
      (await server.request('GET', `/v1/streams/${stream.id}`, { key: creator.readKey })).body.status ===
        'live' || undefined,
    { timeoutMs: 30_000, what: 'the stream to go live' },
  );

  const browser = await launchBrowser(t, WEBRTC_LOOPBACK_ARGS);
  const first = await watchOverWebRtc(browser, `${server.origin}/watch/${stream.id}`);

  // The cap (1) is taken: the second viewer is refused WebRTC and plays the HLS.
  const second = await watchRefusedToHls(browser, `${server.origin}/watch/${stream.id}`, first);

  // The creator is told the picture is re-encoded (the test pattern has B-frames).
  const detail = await server.request('GET', `/v1/streams/${stream.id}`, { key: creator.writeKey });
  const codes = (detail.body.ingest.health.warnings as { code: string }[]).map((w) => w.code);
  assert.ok(codes.includes('realtime_reencoded'), JSON.stringify(codes));

  push.end();
  await first.close();
  await second.close();
  const measured = await expectNormalRecording(server, creator.readKey, stream.id);
  assert.ok(measured.durationSeconds > 5, `recording of ${measured.durationSeconds} s`);
});

test('an encoder without B-frames is sent to WebRTC viewers as it is (no re-encode, no warning)', async (t) => {
  const server = await startMediaServer(t, { dialect: 'sqlite' });
  const creator = await server.createAccount();
  const stream = await server.createStream(creator, { latency_mode: 'realtime', record: false });
  // What OBS sends with bframes=0: High profile, a keyframe a second.
  const push = pushEncoder(`${stream.ingest.rtmp_url}/${stream.ingest.stream_key}`, 120, {
    video: [
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-profile:v', 'high'],
      ...['-pix_fmt', 'yuv420p', '-g', '30', '-sc_threshold', '0'],
    ],
    size: '640x360',
  });
  t.after(() => {
    push.stop();
  });
  await waitFor(
    async () =>
      (await server.request('GET', `/v1/streams/${stream.id}`, { key: creator.readKey })).body.status ===
        'live' || undefined,
    { timeoutMs: 30_000, what: 'the stream to go live' },
  );
  const browser = await launchBrowser(t, WEBRTC_LOOPBACK_ARGS);
  const page = await watchOverWebRtc(browser, `${server.origin}/watch/${stream.id}`);
  assert.ok(server.logs.some((line) => line.includes('sent to WebRTC viewers as the encoder made it')));
  const detail = await server.request('GET', `/v1/streams/${stream.id}`, { key: creator.writeKey });
  const codes = (detail.body.ingest.health.warnings as { code: string }[]).map((w) => w.code);
  assert.ok(!codes.includes('realtime_reencoded'), JSON.stringify(codes));
  // Leaving the page ends its session (DELETE on pagehide).
  await page.close();
  await waitFor(() => server.services.realtime.viewerCount === 0 || undefined, {
    timeoutMs: 10_000,
    what: 'the session to end when the page closes',
  });
});
