// A realtime stream (issue 30) pushed over RTMP plays on its watch page in Chromium over WebRTC
// (WHEP): frames are decoded (getStats framesDecoded grows, video.currentTime advances). In the
// same test, with the process's WebRTC capacity taken, a second viewer is refused and the page
// plays the low-latency HLS with hls.js instead. The recording is a normal video (ffprobe).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { launchBrowser, WEBRTC_LOOPBACK_ARGS, waitUntilPlaying } from '../helpers/media-browser.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { probe, pushTestPattern } from '../helpers/media-tools.ts';
import { pushEncoder } from '../helpers/encoder-push.ts';
import { waitFor } from '../helpers/wait.ts';

/** The page's transport (data-transport on the player box) and its WebRTC decoder's count. */
function transportOf(page: Page): Promise<string | undefined> {
  return page.evaluate(() => (globalThis as any).document.getElementById('player-box').dataset.transport);
}

function refusalOf(page: Page): Promise<string | undefined> {
  return page.evaluate(
    () => (globalThis as any).document.getElementById('player-box').dataset.realtimeRefused,
  );
}

/** framesDecoded of the page's inbound video, read from a fresh RTCPeerConnection stats report. */
async function framesDecoded(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const video = (globalThis as any).document.querySelector('#player');
    const stream = video.srcObject;
    if (!stream) return 0;
    // The page's connection is not reachable from here; the video's own count is.
    return Number(video.getVideoPlaybackQuality().totalVideoFrames);
  });
}

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
  const first = await browser.newPage();
  await first.goto(`${server.origin}/watch/${stream.id}`);
  await waitFor(async () => (await transportOf(first)) === 'webrtc' || undefined, {
    timeoutMs: 30_000,
    what: 'the first viewer to play over WebRTC',
  });
  await waitUntilPlaying(first, 1, 30_000);
  const decoded = await framesDecoded(first);
  assert.ok(decoded > 10, `frames decoded over WebRTC: ${decoded}`);

  // The cap (1) is taken: the second viewer is refused WebRTC and plays the HLS.
  const second = await browser.newPage();
  await second.goto(`${server.origin}/watch/${stream.id}`);
  await waitFor(async () => (await transportOf(second)) === 'hls' || undefined, {
    timeoutMs: 30_000,
    what: 'the second viewer to fall back to HLS',
  });
  assert.equal(await refusalOf(second), 'realtime_capacity');
  await waitUntilPlaying(second, 1, 60_000);
  // The first still plays over WebRTC.
  assert.equal(await transportOf(first), 'webrtc');
  const before = await framesDecoded(first);
  await waitFor(async () => (await framesDecoded(first)) > before + 15 || undefined, {
    timeoutMs: 10_000,
    what: 'the WebRTC viewer to keep decoding',
  });

  // The creator is told the picture is re-encoded (the test pattern has B-frames).
  const detail = await server.request('GET', `/v1/streams/${stream.id}`, { key: creator.writeKey });
  const codes = (detail.body.ingest.health.warnings as { code: string }[]).map((w) => w.code);
  assert.ok(codes.includes('realtime_reencoded'), JSON.stringify(codes));

  push.end();
  await first.close();
  await second.close();
  const published = await waitFor(
    async () => {
      const events = await server.events('video.published');
      return events.length > 0 ? events : undefined;
    },
    { timeoutMs: 90_000, what: 'the recording to be published' },
  );
  const videoId = published[0]!.data.id as string;
  const recording = await server.request('GET', `/v1/videos/${videoId}`, { key: creator.readKey });
  assert.equal(recording.body.source_stream_id, stream.id);
  const measured = await probe(recording.body.playback_url as string);
  const kinds = measured.streams.map((s) => `${s.codec_type}:${s.codec_name}`).sort();
  assert.deepEqual(kinds, ['audio:aac', 'video:h264']);
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
  const page = await browser.newPage();
  await page.goto(`${server.origin}/watch/${stream.id}`);
  await waitFor(async () => (await transportOf(page)) === 'webrtc' || undefined, {
    timeoutMs: 30_000,
    what: 'the viewer to play over WebRTC',
  });
  await waitUntilPlaying(page, 1, 30_000);
  assert.ok((await framesDecoded(page)) > 10);
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
