// The creator's upload journey in headless Chromium against a real server with real ffmpeg and
// the media job runner (SQLite only, like the other real-time media journeys): sign up, Videos
// -> Upload, pick a file made by ffmpeg and send it through a throttled connection (DevTools
// network emulation), reload the page mid-transfer, pick the file again and see the upload
// resume at the offset the server had (not at 0), pause and resume, see processing and then
// ready, open the video and see it play. A file that is not a video ends with the reason.
// Every page: no serious axe violations, screenshots at 390 and 1440 px.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { CDPSession, Page } from 'playwright-core';
import { systemClock } from '../../src/shared/clock.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/media-browser.ts';
import { makeTestFile } from '../helpers/media-tools.ts';
import { expectNoSeriousAxeViolations, screenshotBothWidths } from '../helpers/web-browser.ts';

async function check(page: Page, name: string): Promise<void> {
  await screenshotBothWidths(page, name);
  await expectNoSeriousAxeViolations(page);
}

/** The upload's bandwidth, in bytes per second (-1: unthrottled). */
async function throttle(cdp: CDPSession, uploadBytesPerSecond: number): Promise<void> {
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: uploadBytesPerSecond,
  });
}

async function panelNumber(page: Page, attribute: string): Promise<number> {
  return Number(await page.locator('#progress-panel').getAttribute(attribute));
}

async function panelState(page: Page, state: string, timeoutMs = 30_000): Promise<void> {
  await page.waitForFunction(
    (expected) => (globalThis as any).document.querySelector('#progress-panel').dataset.state === expected,
    state,
    { timeout: timeoutMs, polling: 100 },
  );
}

test('sqlite: upload a video from the dashboard, reload mid-transfer, resume, pause, watch it ready and play', async (t) => {
  const server = await startTestApp(t, {
    dialect: 'sqlite',
    clock: systemClock,
    rateLimitPerIp: 1000,
    logger: 'capture',
    secretKey: Buffer.alloc(32, 9),
    media: {},
    uploadWorker: true,
  });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-upload-journey-'));
  t.after(() => {
    fs.rmSync(work, { recursive: true, force: true });
  });
  const video = path.join(work, 'Harbour at dawn.mp4');
  await makeTestFile(video, 60);
  const size = fs.statSync(video).size;
  t.diagnostic(`the file is ${size} bytes`);

  const browser = await launchBrowser(t);
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      errors.push(message.text());
  });
  page.on('response', (response) => {
    const url = new URL(response.url());
    // A tus request that meets the previous request's lock (423) is retried by tus-js-client.
    const retried = response.status() === 423 && url.pathname.startsWith('/uploads/');
    if (response.status() >= 400 && url.pathname !== '/favicon.ico' && !retried)
      errors.push(`${response.status()} ${response.request().method()} ${url.pathname}`);
  });

  await page.goto(`${server.origin}/sign-up`);
  await page.getByLabel('Name').fill('Uma Uploader');
  await page.getByLabel('Email').fill('uma@example.com');
  await page.getByLabel('Password').fill('correct horse battery');
  await Promise.all([
    page.waitForURL(/\/dashboard\/streams$/),
    page.getByRole('button', { name: 'Create account' }).click(),
  ]);

  // Videos -> Upload.
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Videos' }).click();
  await page.waitForURL(/\/dashboard\/videos$/);
  await page.getByRole('link', { name: 'Upload a video' }).click();
  await page.waitForURL(/\/dashboard\/uploads$/);
  await check(page, 'dashboard-upload-empty');

  // Nothing chosen: said next to the file field, nothing created.
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  assert.equal(await page.textContent('#file-error'), 'choose a video file first.');

  // A slow connection (about 12 s for the file), so the reload lands mid-transfer.
  const cdp = await browser.newCDPSession(page);
  await cdp.send('Network.enable');
  await throttle(cdp, Math.ceil(size / 12));

  await page.setInputFiles('#file', video);
  assert.equal(await page.getByLabel('Title').inputValue(), 'Harbour at dawn', 'the title is the file name');
  await page.getByLabel('Description (optional)').fill('Boats leaving at first light');
  await page.getByLabel('Category').selectOption('travel');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await panelState(page, 'sending');
  await page.waitForFunction(
    (total) =>
      Number((globalThis as any).document.querySelector('#progress-panel').dataset.sent) > total * 0.3,
    size,
    { timeout: 30_000, polling: 100 },
  );
  assert.match((await page.textContent('#upload-stats')) ?? '', /^\d+% · .+ of .+ · .+\/s · about .+ left$/);
  await screenshotBothWidths(page, 'dashboard-upload-sending');
  const [upload] = await server.services.uploads.list(
    (await userId(server, 'uma@example.com'))!,
    undefined,
    5,
  );
  assert.ok(upload);
  assert.equal(upload.title, 'Harbour at dawn');

  // Reload mid-transfer: the upload is listed as unfinished; picking the file again resumes it.
  await page.reload();
  const stored = await server.services.uploads.find(upload.id);
  assert.ok(stored && stored.received_bytes > 0 && stored.received_bytes < size, 'stopped mid-transfer');
  await page.waitForSelector(`#unfinished-list tr[data-upload-id="${upload.id}"]`);
  await check(page, 'dashboard-upload-unfinished');
  await page.setInputFiles('#file', video);
  await page.waitForSelector('#resume-note:not([hidden])');
  assert.match(
    (await page.textContent('#resume-note')) ?? '',
    /You already started uploading this file as “Harbour at dawn”/,
  );
  // Slower still, so the screenshots and Pause below land before the last byte does.
  await throttle(cdp, Math.ceil(size / 30));
  await page.getByRole('button', { name: 'Resume upload' }).click();
  await page.waitForFunction(
    () => (globalThis as any).document.querySelector('#progress-panel').dataset.resumedFrom !== undefined,
    null,
    { timeout: 15_000, polling: 100 },
  );
  const resumedFrom = await panelNumber(page, 'data-resumed-from');
  t.diagnostic(`resumed at byte ${resumedFrom} of ${size}`);
  assert.ok(resumedFrom > 0, 'the upload resumed where it stopped, not at 0');
  assert.match((await page.textContent('#upload-stage')) ?? '', /^Resumed at \d+%/);

  await page.waitForFunction(
    () => / · about .+ left$/.test((globalThis as any).document.querySelector('#upload-stats').textContent),
    null,
    { timeout: 15_000, polling: 100 },
  );
  await screenshotBothWidths(page, 'dashboard-upload');

  // Pause and Resume.
  await page.getByRole('button', { name: 'Pause' }).click();
  await panelState(page, 'paused');
  const paused = (await server.services.uploads.find(upload.id))!;
  assert.notEqual(paused.status, 'processing');
  await screenshotBothWidths(page, 'dashboard-upload-paused');
  await throttle(cdp, -1);
  await page.getByRole('button', { name: 'Resume', exact: true }).click();

  // The rest arrives; processing, then ready with the video's link.
  await panelState(page, 'ready', 90_000);
  assert.equal(await page.textContent('#upload-stage'), 'Your video is ready and published.');
  const done = (await server.services.uploads.find(upload.id))!;
  assert.equal(done.status, 'ready');
  assert.ok(done.video_id);
  await page.waitForSelector(`#recent-uploads tr[data-upload-id="${upload.id}"] [data-role="video"]`);
  await check(page, 'dashboard-upload-ready');

  // The video plays.
  await Promise.all([page.waitForURL(/\/dashboard\/videos\/vid_\w+$/), page.click('#video-link')]);
  assert.equal(await page.textContent('h1'), 'Harbour at dawn');
  await page.evaluate(() => (globalThis as any).document.querySelector('#video-player').play());
  await page.waitForFunction(
    () => {
      const player = (globalThis as any).document.querySelector('#video-player');
      return player.currentTime > 1 && !player.paused;
    },
    null,
    { timeout: 30_000, polling: 200 },
  );

  // A file that is not a video: the upload ends with the reason.
  await page.goto(`${server.origin}/dashboard/uploads`);
  const notVideo = path.join(work, 'notes.mp4');
  fs.writeFileSync(notVideo, 'These are my notes, not a video.\n'.repeat(100));
  await page.setInputFiles('#file', notVideo);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await panelState(page, 'errored', 60_000);
  assert.match((await page.textContent('#upload-stage')) ?? '', /^The video could not be made: .+/);
  await check(page, 'dashboard-upload-errored');

  assert.deepEqual(errors, []);
});

async function userId(server: TestApp, email: string): Promise<string | undefined> {
  const row = await server.services.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirst();
  return row?.id;
}
