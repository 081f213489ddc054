// "Go live from the browser" in real Chromium (fake camera and microphone): the creator opens
// the page from the stream's dashboard page, presses Go live, and the stream goes live over
// WHIP with the key never reaching the page; its live HLS plays (ffprobe: H.264 and AAC), Stop
// ends it, and the recording is a normal video about as long as the publish. The page is
// screenshotted (and checked by axe-core) at 390 and 1440 px, before and while live.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { systemClock } from '../../src/shared/clock.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { countSegments, probe, waitFor } from '../helpers/media-tools.ts';
import { signInBrowser, signUp } from '../helpers/web.ts';
import { screenshotBothWidths } from '../helpers/web-browser.ts';
import { launchPublisherBrowser } from '../helpers/whip-browser.ts';

const PASSWORD = 'go live password';

test('the creator goes live from the browser, the HLS plays, Stop ends it and the recording is a video', async (t) => {
  const server = await startMediaServer(t, {
    dialect: 'sqlite',
    clock: systemClock,
    reconnectWindowSeconds: 3,
    cleanStopGraceSeconds: 3,
    rateLimitPerIp: 10_000,
  });
  await signUp(server.origin, { name: 'Camila', email: 'camila@example.com', password: PASSWORD });
  const { id: userId } = await server.services.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'camila@example.com')
    .executeTakeFirstOrThrow();
  const { stream, streamKey } = await server.services.streams.create(userId, { title: 'Live from my desk' });
  const status = async () => (await server.services.streams.getShown(stream.id)).status;

  const browser = await launchPublisherBrowser(t);
  await signInBrowser(browser, server.origin, { email: 'camila@example.com', password: PASSWORD });
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(`${server.origin}/dashboard/streams/${stream.id}`);
  await page.click('#go-live-browser');
  await page.waitForURL(`${server.origin}/dashboard/streams/${stream.id}/go-live`);
  await page.locator('#go-live-start:not([disabled])').waitFor();
  await screenshotBothWidths(page, 'go-live');
  // The key is held by the server: not in the page, not in its URLs.
  assert.equal((await page.content()).includes(streamKey), false, 'the stream key is not on the page');

  const pressedAt = Date.now();
  await page.click('#go-live-start');
  await page.locator('#go-live[data-state="live"]').waitFor({ timeout: 30_000 });
  assert.match((await page.textContent('#go-live-status')) ?? '', /^Live/);
  assert.equal(await page.isEnabled('#go-live-stop'), true);

  await waitFor('the stream to go live', async () => ((await status()) === 'live' ? true : undefined), {
    timeoutMs: 60_000,
    intervalMs: 250,
  });
  const liveAt = Date.now();
  const playlistUrl = `${server.origin}/media/streams/${stream.id}/index.m3u8`;
  await waitFor(
    'three live segments',
    async () => {
      const response = await fetch(playlistUrl);
      return response.status === 200 && countSegments(await response.text()) >= 3 ? true : undefined;
    },
    { timeoutMs: 90_000, intervalMs: 1000 },
  );
  const live = await probe(playlistUrl);
  const codecs = live.streams.map((item) => item.codec_name);
  assert.ok(codecs.includes('h264') && codecs.includes('aac'), `live HLS: ${codecs.join(',')}`);
  // Chrome sends 720p from the start (the answer's bitrate hints), as the ingest measures it.
  const health = server.services.ingestHealth.report(stream.id);
  t.diagnostic(`ingest measures ${health?.video?.width}x${health?.video?.height}`);
  assert.ok(
    (health?.video?.height ?? 0) >= 540,
    `720p-ish from the browser: ${JSON.stringify(health?.video)}`,
  );
  await screenshotBothWidths(page, 'go-live-live');

  // It goes on: the playlist grows past what it had.
  const listedBefore = countSegments(await (await fetch(playlistUrl)).text());
  await waitFor(
    'the live playlist to grow',
    async () =>
      countSegments(await (await fetch(playlistUrl)).text()) >= listedBefore + 2 ? true : undefined,
    { timeoutMs: 30_000, intervalMs: 1000 },
  );
  // The recording holds at least what came from the stream going live (its first segment, a
  // second and more after its first frame: longer on a busy machine) to the Stop press, and
  // at most what the browser sent from the Go live press to it.
  const stopAt = Date.now();
  const publishedSeconds = (stopAt - liveAt) / 1000;
  const sentSeconds = (stopAt - pressedAt) / 1000;
  await page.click('#go-live-stop');
  await page.locator('#go-live-status', { hasText: /^Stopped/ }).waitFor();
  t.diagnostic(`Stop took ${Date.now() - stopAt} ms`);
  assert.equal(server.whip.size, 0, 'the WHIP session is gone');
  await waitFor('the stream to end', async () => ((await status()) === 'ended' ? true : undefined), {
    timeoutMs: 60_000,
    intervalMs: 250,
  });
  const videoId = await waitFor(
    'video.published',
    async () => (await server.events('video.published'))[0]?.data.id as string | undefined,
    { timeoutMs: 90_000 },
  );
  const recording = await probe(`${server.origin}/media/videos/${videoId}/index.m3u8`);
  const kinds = recording.streams.map((item) => item.codec_type);
  assert.ok(kinds.includes('video') && kinds.includes('audio'), `the recording: ${kinds.join(',')}`);
  t.diagnostic(
    `live ${publishedSeconds.toFixed(1)} s, sent ${sentSeconds.toFixed(1)} s, recorded ${recording.durationSeconds.toFixed(1)} s`,
  );
  assert.ok(
    recording.durationSeconds > publishedSeconds - 1 && recording.durationSeconds < sentSeconds + 1,
    `recording ${recording.durationSeconds} s against ${publishedSeconds} s live and ${sentSeconds} s sent`,
  );
  assert.deepEqual(errors, [], 'no console errors');
});
