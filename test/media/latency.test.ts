// Live latency as a viewer sees it: the test publishes frames stamped with the wall clock and
// numbered (test/helpers/latency-probe.ts), the watch page plays the stream in Chromium, and
// each frame shown is compared with its stamp and with when the test handed it to the ingest.
// `low` streams are packaged in 1 s segments and `normal` in 2 s, both with
// EXT-X-PROGRAM-DATE-TIME; the player sits near the live edge per playerConfigFor
// (public/watch.js) and comes back to it after the publisher reconnects. SQLite only:
// real-time media tests are slow, and dialects are covered by the API tests.
//
// What the machine's speed cannot change is asserted as such. The targets are checked on the
// service's part of the latency, from the ingest to the screen (the stamp also counts the test
// publisher's own encode), and waited for (WINDOW_MS). The program dates are checked by what
// must come before what: a publish's first segment is dated no earlier than its first frame
// was made and no later than its media reached the ingest. The player's drift is counted in
// stalls.
import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import type { Page } from 'playwright-core';
import {
  exposePlayer,
  firstFrameOffset,
  firstFrameStamp,
  percentile,
  readLatencySamples,
  readPlayer,
  relayClockPattern,
  startLatencyProbe,
  type LatencySample,
  type RelayedPush,
} from '../helpers/latency-probe.ts';
import { launchBrowser, waitUntilPlaying } from '../helpers/media-browser.ts';
import { startMediaServer, type MediaTestServer } from '../helpers/media-server.ts';
import { waitFor } from '../helpers/media-tools.ts';

type Mode = 'normal' | 'low';
const SEGMENT_SECONDS: Record<Mode, number> = { normal: 2, low: 1 };
/** The targets (p50, ms), asserted on the latency from the ingest to the screen. */
const TARGET_MS: Record<Mode, number> = { normal: 6000, low: 3500 };
/** How far behind the live edge the watch page's player aims (liveSyncDuration in watch.js). */
const LIVE_SYNC_S: Record<Mode, number> = { normal: 3, low: 1.5 };
/** How far hls.js moves its target back after each stall (liveSyncOnStallIncrease in watch.js). */
const STALL_INCREASE_S = 0.25;
/** How long each mode is measured once playing, at least (the bench measures 2 minutes). */
const MEASURE_SECONDS = Number(process.env.TEST_LATENCY_SECONDS ?? 20);
/**
 * The target is met when the p50 of the frames shown over this long is under it. Waited for
 * (up to WAIT_MS), not asserted of one stretch: another job on the machine raises the latency
 * for as long as it runs, by more than the room under the target (the normal mode's p50 went
 * from 4.9 s to 6.1 s with both cores busy elsewhere). A player or a packager that keeps viewers
 * further behind never gets there.
 */
const WINDOW_MS = 5000;
/** How late (three frames at 30 fps) the first frame's stamp may be against the date it fixed. */
const FIRST_STAMP_LATENESS_MS = 100;
const WAIT_MS = 180_000;

async function liveStream(t: TestContext, server: MediaTestServer, mode: Mode) {
  const account = await server.createAccount(`Lena ${mode}`);
  const created = await server.request('POST', '/v1/streams', {
    key: account.writeKey,
    body: { title: `Latency ${mode}`, latency_mode: mode },
  });
  assert.equal(created.status, 201);
  const url = `${created.body.ingest.rtmp_url}/${created.body.ingest.stream_key}`;
  const push = async () => {
    const started = await relayClockPattern(url, 300, { keyframeSeconds: SEGMENT_SECONDS[mode] });
    t.after(() => {
      started.stop();
    });
    return started;
  };
  const first = await push();
  const stream = await waitFor(
    'the stream to go live',
    async () => {
      const res = await server.request('GET', `/v1/streams/${created.body.id}`, { key: account.readKey });
      return res.body.status === 'live' ? res.body : undefined;
    },
    { timeoutMs: 60_000 },
  );
  return { stream, first, push };
}

/** When the publish's first frame reached the ingest (epoch ms), from the ingest's log line. */
function firstFrameReachedIngest(server: MediaTestServer): number {
  const line = server.logs
    .map((text) => JSON.parse(text) as { msg?: string; time?: string; msSinceFirstFrame?: number })
    .find((entry) => entry.msg === 'stream is live');
  assert.ok(
    line?.time !== undefined && line.msSinceFirstFrame !== undefined,
    'the ingest logged its go-live',
  );
  return Date.parse(line.time) - line.msSinceFirstFrame;
}

/**
 * Reads the samples of the frames shown (those `keep` keeps) until `enough` says so, and counts
 * the frames that had no readable stamp.
 */
async function sample(
  page: Page,
  what: string,
  enough: (samples: LatencySample[]) => boolean,
  options: { keep?: (sample: LatencySample) => boolean; timeoutMs: number },
): Promise<{ samples: LatencySample[]; rejected: number }> {
  const samples: LatencySample[] = [];
  let rejected = 0;
  await waitFor(
    what,
    async () => {
      const read = await readLatencySamples(page);
      samples.push(...read.samples.filter(options.keep ?? (() => true)));
      rejected += read.rejected;
      return enough(samples);
    },
    { timeoutMs: options.timeoutMs, intervalMs: 250 },
  );
  return { samples, rejected };
}

/** The samples span at least `ms` of display time. */
function spanning(samples: readonly LatencySample[], ms: number): boolean {
  const first = samples[0];
  const last = samples.at(-1);
  return first !== undefined && last !== undefined && last.at - first.at >= ms;
}

/** The p50 of the ingest-to-screen latency of the last WINDOW_MS of frames is under `targetMs`. */
function lastWindowUnder(samples: readonly LatencySample[], push: RelayedPush, targetMs: number): boolean {
  const last = samples.at(-1);
  if (!last || !spanning(samples, WINDOW_MS)) return false;
  const recent = samples.filter((sample) => sample.at > last.at - WINDOW_MS);
  return percentile(fromIngest(recent, push), 50) < targetMs;
}

/**
 * The service's part of each sample's latency: from when `push` handed the frame to the ingest.
 * A frame the push has no time for (a stamp read wrong, or a frame the loaded encoder numbered
 * apart from its timestamp) is left out; more than 2% of them (at least 3) is a failure, as a
 * stamp reader that misreads cannot be trusted for the rest.
 */
function fromIngest(samples: readonly LatencySample[], push: RelayedPush): number[] {
  const latencies: number[] = [];
  const unknown: number[] = [];
  for (const sample of samples) {
    const sent = push.sentAt(sample.frame);
    if (sent === undefined) unknown.push(sample.frame);
    else latencies.push(sample.at - sent);
  }
  assert.ok(
    unknown.length <= Math.max(2, samples.length * 0.02),
    `${unknown.length} of ${samples.length} frames shown were never sent: ${unknown.slice(0, 10).join(', ')}`,
  );
  return latencies;
}

function summary(ms: readonly number[]) {
  return {
    samples: ms.length,
    p50: Math.round(percentile(ms, 50)),
    p90: Math.round(percentile(ms, 90)),
    min: Math.round(Math.min(...ms)),
    max: Math.round(Math.max(...ms)),
  };
}

/** Both figures of samples of frames `push` sent. */
function figures(samples: readonly LatencySample[], push: RelayedPush) {
  return {
    glassToGlass: summary(samples.map((sample) => sample.ms)),
    ingestToScreen: summary(fromIngest(samples, push)),
  };
}

describe('live latency in Chromium, on sqlite', () => {
  for (const mode of ['low', 'normal'] as const) {
    test(`${mode}: ${SEGMENT_SECONDS[mode]} s segments with program dates, p50 under ${TARGET_MS[mode] / 1000} s`, async (t) => {
      const server = await startMediaServer(t, { dialect: 'sqlite' });
      const browser = await launchBrowser(t);
      const { stream, first } = await liveStream(t, server, mode);
      const info = (await server.request('GET', `/watch/${stream.id}/info`)).body;
      assert.equal(info.latency_mode, mode, 'the page tunes its player from the info');

      const page = await browser.newPage();
      await exposePlayer(page);
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      // Opened as soon as the stream is live, as by a viewer waiting for it.
      await page.goto(stream.stream_url);
      await waitUntilPlaying(page);
      await startLatencyProbe(page);

      // The playlist players fetch: segments of the mode's length, each dated.
      const playlist = await waitFor(
        'four segments',
        async () => {
          const res = await fetch(new URL(info.playback_url, stream.stream_url));
          const text = await res.text();
          return (text.match(/#EXTINF:/g) ?? []).length >= 4 ? text : undefined;
        },
        { timeoutMs: 60_000 },
      );
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
      // The publish is dated when its media reached the ingest (estimated from the frame that
      // arrived least late), the later segments by adding durations (checked above). So the
      // first segment's date lies between the moment its first video frame was made (the clock
      // burned into it, less how far into the segment that frame comes) and the moment the
      // publish's first message reached the ingest (the ingest's log): an order of events, up to
      // how late the first frame was stamped (below). ffmpeg's own dates, from when its muxer
      // started, came after the media reached the ingest (about 2 s, on an idle machine).
      const [, firstDate, , firstUri] = entries[0]!;
      assert.match(firstUri!, /seg00000\.ts$/);
      const segment = new URL(firstUri!, new URL(info.playback_url, stream.stream_url)).href;
      const dated = Date.parse(firstDate!);
      const made = (await firstFrameStamp(segment)) - (await firstFrameOffset(segment));
      const reached = firstFrameReachedIngest(server);
      t.diagnostic(
        `${firstUri} dated ${dated - made} ms after its media was made, ` +
          `${reached - dated} ms before it reached the ingest`,
      );
      // Within a few frames: a stamp is taken when its frame leaves the paced source, so on a
      // loaded machine the first frame can leave (and be stamped) tens of ms late while a later
      // frame, on time, fixes the date (the full suite once saw 26 ms). ffmpeg's own dates were
      // about 2 s off, so this still tells the two apart.
      assert.ok(
        made <= dated + FIRST_STAMP_LATENESS_MS,
        `${firstUri} is dated ${made - dated} ms before its media was made`,
      );
      assert.ok(dated <= reached, `${firstUri} is dated ${dated - reached} ms after its media arrived`);

      const { samples, rejected } = await sample(
        page,
        `the latency under the target over ${WINDOW_MS} ms`,
        (read) => spanning(read, MEASURE_SECONDS * 1000) && lastWindowUnder(read, first, TARGET_MS[mode]),
        { timeoutMs: MEASURE_SECONDS * 1000 + WAIT_MS },
      );
      const measured = figures(samples, first);
      const player = await readPlayer(page);
      t.diagnostic(`${mode}: ${JSON.stringify({ ...measured, rejected, player })}`);
      // The page tuned its player for the mode: it aims LIVE_SYNC_S behind the edge (hls.js's
      // own default is three segments), and further only by its allowance for stalls.
      assert.ok(
        player.targetLatency >= LIVE_SYNC_S[mode] &&
          player.targetLatency <= LIVE_SYNC_S[mode] + player.stalls * STALL_INCREASE_S + 0.001,
        `the player aims ${player.targetLatency} s behind the edge after ${player.stalls} stalls`,
      );
      assert.ok(
        rejected < samples.length / 10,
        `${rejected} frames had no readable stamp, ${samples.length} had`,
      );
      assert.ok(
        measured.glassToGlass.min > 0,
        'no frame is shown before it was made: the stamps are read right',
      );
      assert.ok(measured.ingestToScreen.min > 0, 'no frame is shown before it reached the ingest');
      assert.deepEqual(pageErrors, []);
    });
  }

  test('low: after the publisher drops and reconnects, the player returns under the target', async (t) => {
    // A long window: the test decides when the publisher comes back.
    const server = await startMediaServer(t, { dialect: 'sqlite', reconnectWindowSeconds: 60 });
    const browser = await launchBrowser(t);
    const { stream, first, push } = await liveStream(t, server, 'low');
    const page = await browser.newPage();
    await exposePlayer(page);
    await page.goto(stream.stream_url);
    await waitUntilPlaying(page);
    await startLatencyProbe(page);
    const before = figures(
      (await sample(page, '6 s of latency samples', (read) => spanning(read, 6000), { timeoutMs: WAIT_MS }))
        .samples,
      first,
    );
    const playerBefore = await readPlayer(page);

    first.stop();
    const info = async () => (await server.request('GET', `/watch/${stream.id}/info`)).body;
    await waitFor('the stream to wait for its publisher', async () => (await info()).reconnecting === true, {
      timeoutMs: 60_000,
    });
    const second = await push();
    await waitFor('the stream to take media again', async () => (await info()).reconnecting === false, {
      timeoutMs: 60_000,
    });

    // Frames made by the second push: the stall shows as a jump in latency, which the player
    // must win back (jumping to the edge or playing faster) rather than keep.
    const madeBySecond = (read: LatencySample) => read.at - read.ms >= second.startedAt;
    const after = await sample(
      page,
      'the latency to come back under the target',
      (read) => lastWindowUnder(read, second, TARGET_MS.low),
      { keep: madeBySecond, timeoutMs: WAIT_MS },
    );
    const playerAfter = await readPlayer(page);
    t.diagnostic(`before ${JSON.stringify({ ...before, player: playerBefore })}`);
    t.diagnostic(
      `first second after the reconnect ${JSON.stringify(figures(after.samples.slice(0, 30), second))}`,
    );
    t.diagnostic(`after ${JSON.stringify({ ...figures(after.samples, second), player: playerAfter })}`);
    // And it stays there: the player aims no further behind than before, but for 0.25 s per
    // stall (hls.js's own default is 1 s per stall, which left viewers a second behind after
    // every reconnect). Counted in stalls, not in latencies measured before and after: another
    // job on the machine moves those by more than the allowance, and makes more stalls.
    const stalls = playerAfter.stalls - playerBefore.stalls;
    assert.ok(
      playerAfter.targetLatency <= playerBefore.targetLatency + stalls * STALL_INCREASE_S + 0.001,
      `no drift: the player's target went from ${playerBefore.targetLatency} s to ` +
        `${playerAfter.targetLatency} s over ${stalls} stalls`,
    );
  });
});
