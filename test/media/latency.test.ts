// Live latency as a viewer sees it: a publisher pushes frames stamped with the wall clock
// (test/helpers/latency-probe.ts), the watch page plays the stream in Chromium, and each frame
// shown is compared with its stamp. `low` streams are packaged in 1 s segments and `normal` in
// 2 s, both with EXT-X-PROGRAM-DATE-TIME; the player sits near the live edge per
// playerConfigFor (public/watch.js) and comes back to it after the publisher reconnects.
// SQLite only: real-time media tests are slow, and dialects are covered by the API tests.
import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import type { Page } from 'playwright-core';
import {
  firstFrameStamp,
  percentile,
  pushClockPattern,
  readLatencySamples,
  startLatencyProbe,
  type LatencySample,
} from '../helpers/latency-probe.ts';
import { launchBrowser, waitUntilPlaying } from '../helpers/media-browser.ts';
import { startMediaServer, type MediaTestServer } from '../helpers/media-server.ts';
import { waitFor } from '../helpers/media-tools.ts';

type Mode = 'normal' | 'low';
const SEGMENT_SECONDS: Record<Mode, number> = { normal: 2, low: 1 };
/** The targets (p50, ms); see BOUND_MS for what this test asserts. */
const TARGET_MS: Record<Mode, number> = { normal: 6000, low: 3500 };
/** How long each mode is measured once playing (the bench measures 2 minutes). */
const MEASURE_SECONDS = Number(process.env.TEST_LATENCY_SECONDS ?? 20);

async function liveStream(t: TestContext, server: MediaTestServer, mode: Mode) {
  const account = await server.createAccount(`Lena ${mode}`);
  const created = await server.request('POST', '/v1/streams', {
    key: account.writeKey,
    body: { title: `Latency ${mode}`, latency_mode: mode },
  });
  assert.equal(created.status, 201);
  const url = `${created.body.ingest.rtmp_url}/${created.body.ingest.stream_key}`;
  const push = () => {
    const started = pushClockPattern(url, 300, { keyframeSeconds: SEGMENT_SECONDS[mode] });
    t.after(() => {
      started.stop();
    });
    return started;
  };
  const first = push();
  const stream = await waitFor('the stream to go live', async () => {
    const res = await server.request('GET', `/v1/streams/${created.body.id}`, { key: account.readKey });
    return res.body.status === 'live' ? res.body : undefined;
  });
  return { stream, first, push };
}

/** Samples until they span `seconds` of display time. */
async function collect(page: Page, seconds: number): Promise<LatencySample[]> {
  const samples: LatencySample[] = [];
  await waitFor(
    `${seconds} s of latency samples`,
    async () => {
      samples.push(...(await readLatencySamples(page)).samples);
      const first = samples[0];
      const last = samples.at(-1);
      return first && last && last.at - first.at >= seconds * 1000;
    },
    { timeoutMs: (seconds + 20) * 1000, intervalMs: 250 },
  );
  return samples;
}

function summary(samples: readonly LatencySample[]) {
  const ms = samples.map((sample) => sample.ms);
  return {
    samples: ms.length,
    p50: Math.round(percentile(ms, 50)),
    p90: Math.round(percentile(ms, 90)),
    min: Math.round(Math.min(...ms)),
    max: Math.round(Math.max(...ms)),
  };
}

describe('live latency in Chromium, on sqlite', () => {
  for (const mode of ['low', 'normal'] as const) {
    test(`${mode}: ${SEGMENT_SECONDS[mode]} s segments with program dates, p50 under ${TARGET_MS[mode] / 1000} s`, async (t) => {
      const server = await startMediaServer(t, { dialect: 'sqlite' });
      const browser = await launchBrowser(t);
      const { stream } = await liveStream(t, server, mode);
      const info = (await server.request('GET', `/watch/${stream.id}/info`)).body;
      assert.equal(info.latency_mode, mode, 'the page tunes its player from the info');

      const page = await browser.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      // Opened as soon as the stream is live, as by a viewer waiting for it.
      await page.goto(stream.stream_url);
      await waitUntilPlaying(page);
      await startLatencyProbe(page);

      // The playlist players fetch: segments of the mode's length, each dated.
      const playlist = await waitFor('four segments', async () => {
        const res = await fetch(new URL(info.playback_url, stream.stream_url));
        const text = await res.text();
        return (text.match(/#EXTINF:/g) ?? []).length >= 4 ? text : undefined;
      });
      assert.match(playlist, new RegExp(`#EXT-X-TARGETDURATION:${SEGMENT_SECONDS[mode]}\\n`));
      const entries = [...playlist.matchAll(/#EXT-X-PROGRAM-DATE-TIME:(\S+)\n#EXTINF:([\d.]+),\n(\S+)/g)];
      assert.equal(entries.length, (playlist.match(/#EXTINF:/g) ?? []).length, 'every segment is dated');
      for (const [index, [, date, duration]] of entries.entries()) {
        assert.ok(
          Math.abs(Number(duration) - SEGMENT_SECONDS[mode]) < 0.1,
          `segment ${index} lasts ${duration} s, not ${SEGMENT_SECONDS[mode]}`,
        );
        const next = entries[index + 1];
        if (next) {
          // Dates advance by the segment's duration: they are the media's own timeline.
          const step = Date.parse(next[1]!) - Date.parse(date!);
          assert.ok(Math.abs(step - Number(duration) * 1000) < 50, `date step ${step} ms`);
        }
      }
      // Each segment is dated when its first frame reached the ingest: the clock burned into
      // that frame says when it was made (a frame's encode and a loopback send earlier).
      // ffmpeg's own dates were about 2 s late here, from when its muxer started. The bound
      // allows for a starved publisher on a loaded machine: a frame made late is sent late.
      for (const [, date, , uri] of entries.slice(0, 3)) {
        const made = await firstFrameStamp(new URL(uri!, new URL(info.playback_url, stream.stream_url)).href);
        const offset = Date.parse(date!) - made;
        assert.ok(Math.abs(offset) < 800, `${uri} is dated ${offset} ms after its first frame was made`);
      }

      const samples = await collect(page, MEASURE_SECONDS);
      const figures = summary(samples);
      t.diagnostic(`${mode}: ${JSON.stringify(figures)}`);
      assert.ok(figures.samples > MEASURE_SECONDS * 20, 'most frames were read');
      assert.ok(figures.min > 0, 'no frame is shown before it was made: the stamps are read right');
      assert.ok(figures.p50 < TARGET_MS[mode], `p50 ${figures.p50} ms`);
      assert.deepEqual(pageErrors, []);
    });
  }

  test('low: after the publisher drops and reconnects, the player returns under the target', async (t) => {
    // A long window: the test decides when the publisher comes back.
    const server = await startMediaServer(t, { dialect: 'sqlite', reconnectWindowSeconds: 60 });
    const browser = await launchBrowser(t);
    const { stream, first, push } = await liveStream(t, server, 'low');
    const page = await browser.newPage();
    await page.goto(stream.stream_url);
    await waitUntilPlaying(page);
    await startLatencyProbe(page);
    const before = summary(await collect(page, 6));

    first.stop();
    const info = async () => (await server.request('GET', `/watch/${stream.id}/info`)).body;
    await waitFor('the stream to wait for its publisher', async () => (await info()).reconnecting === true);
    const second = push();
    await waitFor('the stream to take media again', async () => (await info()).reconnecting === false);

    // Frames made by the second push: the stall shows as a jump in latency, which the player
    // must win back (jumping to the edge or playing faster) rather than keep.
    const after: LatencySample[] = [];
    const madeBySecond = (sample: LatencySample) => sample.at - sample.ms >= second.startedAt;
    await waitFor(
      'the latency to come back under the target',
      async () => {
        after.push(...(await readLatencySamples(page)).samples.filter(madeBySecond));
        const last = after.at(-1);
        if (!last) return false;
        const recent = after.filter((sample) => sample.at > last.at - 3000);
        return (
          last.at - after[0]!.at > 3000 &&
          percentile(
            recent.map((sample) => sample.ms),
            50,
          ) < TARGET_MS.low
        );
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    const firstAfter = summary(after.slice(0, 30));
    // And it stays there: no drift for the rest of the stream.
    const settled = summary(await collect(page, 8));
    t.diagnostic(`before ${JSON.stringify(before)}`);
    t.diagnostic(`first second after the reconnect ${JSON.stringify(firstAfter)}`);
    t.diagnostic(`settled ${JSON.stringify(settled)}`);
    assert.ok(settled.p50 < TARGET_MS.low, `settled p50 ${settled.p50} ms`);
    assert.ok(settled.p50 < before.p50 + 500, `no drift: ${before.p50} ms before, ${settled.p50} ms after`);
    assert.ok(settled.p90 < TARGET_MS.low + 1000, `settled p90 ${settled.p90} ms`);
  });
});
