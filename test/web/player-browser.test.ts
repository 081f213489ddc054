// The watch page's player in headless Chromium (issue 28): a video uploaded with a ladder offers
// its renditions in the Quality menu (Auto plus each hls.js level, the one playing named) and
// switching plays the chosen one; the keyboard shortcuts the page lists act on the player;
// theatre mode, full screen and Share; a live stream shows its latency; the embeddable player
// plays inside a page of another origin, where the watch page itself is refused. Passes axe;
// screenshots at 390 and 1440 px (TEST_SCREENSHOT_DIR).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { systemClock } from '../../src/shared/clock.ts';
import { parseLadder, type TranscodeConfig } from '../../src/transcode/ladder.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser, waitForText, waitUntilPlaying } from '../helpers/media-browser.ts';
import { pushTestPattern } from '../helpers/media-tools.ts';
import { waitFor } from '../helpers/wait.ts';
import { screenshotBothWidths, screenshotFolder } from '../helpers/web-browser.ts';

const run = promisify(execFile);

const LADDER: TranscodeConfig = {
  mode: 'auto',
  rungs: parseLadder('360:600') ?? [],
  preset: 'ultrafast',
  cpuCores: 64,
  headroomPercent: 0,
};

/** A 720p H.264 video with sound, uploaded through tus; returns the published video's id. */
async function uploadLadderVideo(server: TestApp, key: string, title: string): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-player-'));
  try {
    const file = path.join(dir, 'source.mp4');
    await run('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'testsrc=size=1280x720:rate=25:duration=20'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=330:duration=20'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '50'],
      ...['-c:a', 'aac', '-shortest', file],
    ]);
    const data = fs.readFileSync(file);
    const created = await server.request('POST', '/v1/uploads', { key, body: { size: data.length, title } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const patch = await fetch(created.body.upload_url, {
      method: 'PATCH',
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': '0',
        'Content-Type': 'application/offset+octet-stream',
      },
      body: data,
    });
    assert.equal(patch.status, 204);
    const ready = await waitFor(
      async () => {
        const { body } = await server.request('GET', `/v1/uploads/${created.body.id}`, { key });
        if (body.status === 'errored') throw new Error(JSON.stringify(body));
        return body.status === 'ready' ? body : undefined;
      },
      { timeoutMs: 120_000, what: 'the upload to be ready', failOnError: true },
    );
    return ready.video_id as string;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The page's player state, read through the DevTools protocol. */
function playerState(page: Page) {
  return page.evaluate(() => {
    const doc = (globalThis as any).document;
    const video = doc.querySelector('#player');
    return {
      paused: Boolean(video.paused),
      muted: Boolean(video.muted),
      volume: Number(video.volume),
      time: Number(video.currentTime),
      fullscreen: doc.fullscreenElement?.id ?? null,
      theatre: doc.querySelector('#watch').classList.contains('theatre'),
      announced: doc.querySelector('#player-status').textContent as string,
    };
  });
}

/** Serves one page of HTML on its own port: another origin than the app's. */
async function otherSite(t: { after(fn: () => Promise<void>): void }, body: string): Promise<string> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  );
  const address = server.address();
  assert.ok(address !== null && typeof address === 'object');
  // localhost, not 127.0.0.1: another origin than the app's even on the same machine.
  return `http://localhost:${address.port}/`;
}

test('quality menu, shortcuts, theatre, full screen, Share, latency and the embed in Chromium', async (t) => {
  const server = await startTestApp(t, {
    dialect: 'sqlite',
    clock: systemClock,
    rateLimitPerIp: 1000,
    media: { transcode: LADDER },
    uploadWorker: true,
  });
  const creator = await server.createAccount('Ada Lovelace');
  const videoId = await uploadLadderVideo(server, creator.writeKey, 'Ladder & levels');
  const context = await launchBrowser(t);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
  const page = await context.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  await page.goto(`${server.origin}/watch/${videoId}`);
  await waitUntilPlaying(page);

  // Quality: Auto and each rendition, highest first; Auto names what plays.
  const quality = page.getByLabel('Quality');
  await page.waitForFunction(() => !(globalThis as any).document.querySelector('#quality').disabled);
  const labels = await quality.locator('option').allTextContents();
  assert.equal(labels.length, 3, labels.join(', '));
  assert.match(labels[0] ?? '', /^Auto( \((720|360)p\))?$/);
  assert.deepEqual(labels.slice(1), ['720p', '360p']);
  await quality.selectOption({ label: '360p' });
  await page.waitForFunction(
    () => (globalThis as any).document.querySelector('#quality-current').textContent === 'Playing 360p',
    null,
    { timeout: 20_000 },
  );
  await page.waitForFunction(
    () => (globalThis as any).document.querySelector('#player').videoHeight === 360,
    null,
    { timeout: 20_000 },
  );
  await quality.selectOption({ label: '720p' });
  await page.waitForFunction(
    () => (globalThis as any).document.querySelector('#player').videoHeight === 720,
    null,
    { timeout: 20_000 },
  );
  assert.equal(await page.textContent('#quality-current'), 'Playing 720p');
  await quality.selectOption({ index: 0 });
  await page.waitForFunction(() =>
    /^Auto \((720|360)p\)$/.test((globalThis as any).document.querySelector('#quality option').textContent),
  );
  assert.equal(await quality.inputValue(), '-1');

  // Keyboard shortcuts, from the page (not a focused control).
  await page.locator('#title').click();
  await page.keyboard.press('k');
  await page.waitForFunction(() => (globalThis as any).document.querySelector('#player').paused);
  // The element's pause event, which the announcement follows, is queued after paused is set.
  await waitForText(page, '#player-status', 'Paused');
  await page.keyboard.press(' ');
  await page.waitForFunction(() => !(globalThis as any).document.querySelector('#player').paused);
  const mutedBefore = (await playerState(page)).muted;
  await page.keyboard.press('m');
  assert.equal((await playerState(page)).muted, !mutedBefore);
  await page.evaluate(() => {
    (globalThis as any).document.querySelector('#player').volume = 0.5;
  });
  await page.keyboard.press('ArrowUp');
  let state = await playerState(page);
  assert.equal(state.volume, 0.6);
  assert.equal(state.muted, false, 'turning the volume up turns the sound on');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  assert.equal((await playerState(page)).volume, 0.4);
  await page.keyboard.press('k');
  await page.evaluate(() => {
    (globalThis as any).document.querySelector('#player').currentTime = 10;
  });
  await page.keyboard.press('ArrowRight');
  assert.ok(Math.abs((await playerState(page)).time - 15) < 0.5);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  state = await playerState(page);
  assert.ok(Math.abs(state.time - 5) < 0.5, `seeked to ${state.time}`);
  assert.equal(state.announced, 'Back 5 seconds');
  // Typing in a field is not a shortcut.
  await page.getByRole('button', { name: 'Share' }).click();
  await page.locator('#share-link').press('k');
  assert.equal((await playerState(page)).paused, true);
  await page.getByRole('button', { name: 'Share' }).click();

  // Theatre (wide screens), by key and by button; remembered across pages.
  await page.locator('#title').click();
  await page.keyboard.press('t');
  assert.equal((await playerState(page)).theatre, true);
  assert.equal(await page.getByRole('button', { name: 'Theatre' }).getAttribute('aria-pressed'), 'true');
  const wide = await page.locator('#player-box').boundingBox();
  assert.ok(wide && wide.width >= 1400, `the theatre player is ${wide?.width} px wide`);
  await page.screenshot({ path: path.join(screenshotFolder(), 'player-theatre-1440.png') });
  await screenshotBothWidths(page, 'player-video');
  await page.reload();
  await page.waitForFunction(() =>
    (globalThis as any).document.querySelector('#watch').classList.contains('theatre'),
  );
  await page.getByRole('button', { name: 'Theatre' }).click();
  assert.equal((await playerState(page)).theatre, false);
  // On a phone there is no theatre mode.
  await page.setViewportSize({ width: 390, height: 844 });
  assert.equal(await page.getByRole('button', { name: 'Theatre' }).isVisible(), false);
  await page.keyboard.press('t');
  assert.equal((await playerState(page)).theatre, false);
  await page.setViewportSize({ width: 1440, height: 900 });

  // Full screen: the player's box, by key and out again.
  await page.locator('#title').click();
  await page.keyboard.press('f');
  await page.waitForFunction(() => (globalThis as any).document.fullscreenElement?.id === 'player-box');
  await page.keyboard.press('f');
  await page.waitForFunction(() => (globalThis as any).document.fullscreenElement === null);
  // Picture in picture, when the browser offers it.
  const pip = await page.evaluate(() => Boolean((globalThis as any).document.pictureInPictureEnabled));
  if (pip) {
    await page.keyboard.press('i');
    await page.waitForFunction(
      () =>
        (globalThis as any).document.pictureInPictureElement?.id === 'player' ||
        /not available/.test((globalThis as any).document.querySelector('#player-status').textContent),
    );
  }
  // The shortcuts are on the page.
  await page.getByText('Keyboard shortcuts').click();
  assert.equal(await page.locator('#shortcuts dt').count(), 7);

  // Share: the link, copied.
  await page.getByRole('button', { name: 'Share' }).click();
  assert.equal(await page.getByRole('button', { name: 'Share' }).getAttribute('aria-expanded'), 'true');
  await page.getByRole('button', { name: 'Copy link' }).click();
  await page.getByRole('button', { name: 'Copied' }).waitFor();
  const copied = await page.evaluate(() => (globalThis as any).navigator.clipboard.readText());
  assert.equal(copied, `${server.origin}/watch/${videoId}`);
  await screenshotBothWidths(page, 'player-share');

  // The embed, inside a page of another origin: it plays; the watch page itself is refused.
  const site = await otherSite(
    t,
    `<!doctype html><html lang="en"><head><title>Blog</title></head><body><h1>My blog</h1>
<iframe id="embed" src="${server.origin}/embed/${videoId}" width="640" height="360" title="Ladder" allow="autoplay; fullscreen; picture-in-picture"></iframe>
<iframe id="framed" src="${server.origin}/watch/${videoId}" width="640" height="360" title="Watch page"></iframe></body></html>`,
  );
  const blog = await context.newPage();
  await blog.goto(site);
  const embed = blog.frameLocator('#embed');
  const frame = blog.frames().find((f) => f.url().includes('/embed/'));
  assert.ok(frame, 'the embed frame loaded');
  await frame.waitForFunction(
    () => {
      const video = (globalThis as any).document.querySelector('#player');
      return video !== null && video.currentTime > 1 && !video.paused;
    },
    null,
    { timeout: 30_000, polling: 200 },
  );
  assert.equal(await embed.locator('.embed-title a').textContent(), 'Ladder & levels');
  await embed.getByLabel('Quality').locator('option').nth(2).waitFor({ state: 'attached' });
  const refused = blog
    .frames()
    .find((f) => f.url().includes('/watch/') || f.url().startsWith('chrome-error'));
  const refusedTitle = refused ? await refused.locator('#title').count() : 0;
  assert.equal(refusedTitle, 0, 'the watch page is not shown in a frame');
  await blog.screenshot({ path: path.join(screenshotFolder(), 'embed-other-origin.png') });
  const alone = await context.newPage();
  await alone.goto(`${server.origin}/embed/${videoId}`);
  await waitUntilPlaying(alone);
  await screenshotBothWidths(alone, 'embed');
  await alone.close();

  // A live stream shows how far behind it plays.
  const stream = await server.createStream(creator, { title: 'Live latency' });
  const push = pushTestPattern(`${stream.ingest.rtmp_url}/${stream.ingest.stream_key}`, 90, {
    size: '640x360',
  });
  t.after(() => {
    push.stop();
  });
  await waitFor(
    async () =>
      (await server.request('GET', `/v1/streams/${stream.id}`, { key: creator.readKey })).body.status ===
      'live',
    { timeoutMs: 30_000, what: 'live' },
  );
  await page.goto(stream.stream_url);
  await waitUntilPlaying(page, 1, 45_000);
  await page.waitForFunction(
    () => /^Latency \d+\.\d s$/.test((globalThis as any).document.querySelector('#latency').textContent),
    null,
    { timeout: 20_000 },
  );
  assert.equal(await page.locator('#latency').isVisible(), true);
  await screenshotBothWidths(page, 'player-live');
  push.end();
  assert.deepEqual(errors, []);
});
