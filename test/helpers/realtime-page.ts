// What a realtime stream's watch page shows, read from the page (tests of issue 30): how it
// plays (data-transport on the player box: `webrtc` over WHEP, `hls` after a refusal), why
// WebRTC was refused, how many frames its player has decoded; and the recording a publish
// leaves, waited for and probed.
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { waitUntilPlaying } from './media-browser.ts';
import type { MediaTestServer } from './media-server.ts';
import { probe, type Probe } from './media-tools.ts';
import { waitFor } from './wait.ts';

/** The page's transport: `webrtc` (WHEP) or `hls` (hls.js), undefined before it has chosen. */
export function transportOf(page: Page): Promise<string | undefined> {
  return page.evaluate(() => (globalThis as any).document.getElementById('player-box').dataset.transport);
}

/** The refusal's code when WebRTC was refused (`realtime_capacity`...). */
export function refusalOf(page: Page): Promise<string | undefined> {
  return page.evaluate(
    () => (globalThis as any).document.getElementById('player-box').dataset.realtimeRefused,
  );
}

/** Frames the page's player has decoded (its video's playback quality). */
export async function framesDecoded(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const video = (globalThis as any).document.querySelector('#player');
    const stream = video.srcObject;
    if (!stream) return 0;
    // The page's connection is not reachable from here; the video's own count is.
    return Number(video.getVideoPlaybackQuality().totalVideoFrames);
  });
}

/** Waits until the page plays over `transport`. */
export async function waitForTransport(page: Page, transport: 'webrtc' | 'hls', what: string): Promise<void> {
  await waitFor(async () => (await transportOf(page)) === transport || undefined, {
    timeoutMs: 30_000,
    what,
  });
}

/** Waits until the page's WebRTC player has decoded `frames` more frames. */
export async function waitForMoreFrames(page: Page, frames: number, what: string): Promise<void> {
  const before = await framesDecoded(page);
  await waitFor(async () => (await framesDecoded(page)) > before + frames || undefined, {
    timeoutMs: 15_000,
    what,
  });
}

/**
 * The stream's recording, once published (video.published): asserts it is a normal video
 * (H.264 and AAC, recorded from the stream) and returns its probe.
 */
export async function expectNormalRecording(
  server: MediaTestServer,
  readKey: string,
  streamId: string,
): Promise<Probe> {
  const published = await waitFor(
    async () => {
      const events = await server.events('video.published');
      return events.length > 0 ? events : undefined;
    },
    { timeoutMs: 90_000, what: 'the recording to be published' },
  );
  const videoId = published[0]!.data.id as string;
  const recording = await server.request('GET', `/v1/videos/${videoId}`, { key: readKey });
  assert.equal(recording.body.source_stream_id, streamId);
  const measured = await probe(recording.body.playback_url as string);
  const kinds = measured.streams.map((s) => `${s.codec_type}:${s.codec_name}`).sort();
  assert.deepEqual(kinds, ['audio:aac', 'video:h264']);
  return measured;
}

/** Opens the watch page at `url` and waits until it plays over WebRTC, frames decoded. */
export async function watchOverWebRtc(browser: BrowserContext, url: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(url);
  await waitForTransport(page, 'webrtc', 'the viewer to play over WebRTC');
  await waitUntilPlaying(page, 1, 30_000);
  const decoded = await framesDecoded(page);
  assert.ok(decoded > 10, `frames decoded over WebRTC: ${decoded}`);
  return page;
}

/**
 * With the WebRTC capacity taken by `webrtcViewer`: opens the watch page at `url`, which is
 * refused WebRTC (realtime_capacity) and plays the HLS, while the WebRTC viewer keeps decoding.
 */
export async function watchRefusedToHls(
  browser: BrowserContext,
  url: string,
  webrtcViewer: Page,
): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(url);
  await waitForTransport(page, 'hls', 'the second viewer to fall back to HLS');
  assert.equal(await refusalOf(page), 'realtime_capacity');
  await waitUntilPlaying(page, 1, 60_000);
  assert.equal(await transportOf(webrtcViewer), 'webrtc');
  await waitForMoreFrames(webrtcViewer, 15, 'the WebRTC viewer to keep decoding');
  return page;
}
