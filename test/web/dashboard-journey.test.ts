// The creator's journey in headless Chromium against a real server with real ffmpeg (SQLite
// only: real-time media is slow, and the pages' queries are covered on both databases by the
// other dashboard tests): sign up, create a stream on the page, read its ingest settings (the
// revealed key, the values the copy buttons copy), publish with ffmpeg to exactly those, watch
// the page go live without a reload with a playing preview and a rising viewer count, end the
// push and find the video; register a webhook with a real HTTPS receiver and see its ping and a
// test event in the delivery log. Every page: no serious axe violations, screenshots at 390
// and 1440 px.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { startReceiver } from '../helpers/https-receiver.ts';
import { launchBrowser, waitUntilPlaying } from '../helpers/media-browser.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { pushTestPattern, waitFor } from '../helpers/media-tools.ts';
import { expectNoSeriousAxeViolations, screenshotBothWidths } from '../helpers/web-browser.ts';

/** The <video> with this selector has played past `seconds` and is still advancing. */
async function playing(page: Page, selector: string, timeoutMs = 45_000): Promise<void> {
  await page.waitForFunction(
    (sel) => {
      const video = (globalThis as any).document.querySelector(sel);
      return video.currentTime > 1 && !video.paused;
    },
    selector,
    { timeout: timeoutMs, polling: 250 },
  );
  const before = await page.evaluate(
    (sel) => Number((globalThis as any).document.querySelector(sel).currentTime),
    selector,
  );
  await page.waitForFunction(
    ([sel, start]) => (globalThis as any).document.querySelector(sel).currentTime > start + 0.5,
    [selector, before] as const,
    { timeout: 10_000, polling: 250 },
  );
}

async function check(page: Page, name: string): Promise<void> {
  await screenshotBothWidths(page, name);
  await expectNoSeriousAxeViolations(page);
}

test('sqlite: sign up, create a stream, push to its ingest settings, watch it live, find the video; a webhook and its log', async (t) => {
  const server = await startMediaServer(t, {
    dialect: 'sqlite',
    reconnectWindowSeconds: 2,
    viewerWindowMs: 5000,
    deliverWebhooks: true,
  });
  const receiver = await startReceiver();
  t.after(() => receiver.close());
  const browser = await launchBrowser(t);
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    // Failed loads are judged by their responses below, which name the URL.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      errors.push(message.text());
  });
  page.on('response', (response) => {
    const url = new URL(response.url());
    const expected =
      url.pathname === '/favicon.ico' ||
      (response.status() === 400 &&
        url.pathname === '/dashboard/streams' &&
        response.request().method() === 'POST');
    if (response.status() >= 400 && !expected) errors.push(`${response.status()} ${url.pathname}`);
  });

  // Sign up; the dashboard opens on the (empty) streams list.
  await page.goto(`${server.origin}/sign-up`);
  await page.getByLabel('Name').fill('Ada Creator');
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Password').fill('correct horse battery');
  await Promise.all([
    page.waitForURL(/\/dashboard\/streams$/),
    page.getByRole('button', { name: 'Create account' }).click(),
  ]);
  await check(page, 'dashboard-streams-empty');

  // Create a stream on the page: a blank title first, refused next to the field.
  await page.getByRole('link', { name: 'New stream' }).click();
  await page.waitForURL(/\/dashboard\/streams\/new$/);
  await check(page, 'dashboard-stream-new');
  await page.getByRole('button', { name: 'Create stream' }).click();
  await page.waitForSelector('#title-error');
  assert.equal(await page.textContent('#title-error'), "The field 'title' must not be empty.");
  await check(page, 'dashboard-stream-new-error');
  await page.getByLabel('Title').fill('Friday night build');
  await page.getByLabel('Description (optional)').fill('Shipping the dashboard');
  await page.getByLabel('Category').selectOption('coding');
  await Promise.all([
    page.waitForURL(/\/dashboard\/streams\/str_\w+\?created=1$/),
    page.getByRole('button', { name: 'Create stream' }).click(),
  ]);
  const streamId = /str_\w+/.exec(page.url())?.[0] ?? '';
  assert.equal(await page.textContent('#stream-status'), 'Standby', 'no start time: standby');
  await check(page, 'dashboard-stream-scheduled');

  // The ingest settings: the key is hidden until revealed; the copy buttons copy these values.
  const keyInput = page.locator('#stream-key');
  assert.equal(await keyInput.getAttribute('type'), 'password');
  assert.equal(await keyInput.inputValue(), '', 'the key is not in the page before Reveal');
  await page.getByRole('link', { name: 'Reveal' }).click();
  await page.waitForFunction(() => (globalThis as any).document.querySelector('#stream-key').type === 'text');
  const streamKey = await keyInput.inputValue();
  assert.match(streamKey, /^sk_\w{32}$/);
  await page.getByRole('button', { name: 'Copy server URL' }).click();
  await page.getByRole('button', { name: 'Copy stream key' }).click();
  await page.waitForFunction(
    () => (globalThis as any).document.querySelector('#stream-key').dataset.copied !== undefined,
  );
  const copiedUrl = await page.locator('#server-url').getAttribute('data-copied');
  const copiedKey = await keyInput.getAttribute('data-copied');
  assert.equal(copiedUrl, await page.locator('#server-url').inputValue());
  assert.equal(copiedKey, streamKey);
  assert.match(copiedUrl, /^rtmp:\/\/[^/]+:\d+\/live$/);

  // Publish with ffmpeg to exactly what was copied; the page goes live without a reload.
  const push = pushTestPattern(`${copiedUrl}/${copiedKey}`, 120);
  t.after(() => {
    push.stop();
  });
  await page.waitForFunction(
    () => (globalThis as any).document.querySelector('#stream-status').textContent === 'Live',
    null,
    {
      timeout: 30_000,
    },
  );
  await playing(page, '#preview');

  // A second player watches the public page: the count on the dashboard rises.
  const before = Number(await page.locator('#viewer-count').getAttribute('data-count'));
  const viewer = await browser.newPage();
  await viewer.goto(`${server.origin}/watch/${streamId}`);
  await waitUntilPlaying(viewer);
  await page.waitForFunction(
    (start) => Number((globalThis as any).document.querySelector('#viewer-count').dataset.count) > start,
    before,
    { timeout: 20_000, polling: 250 },
  );
  await page.waitForSelector('#viewer-chart canvas');
  await check(page, 'dashboard-stream-live');
  await viewer.close();

  // The push ends: the page says so, and the recording appears among the videos.
  push.end();
  await push.exited;
  await page.waitForFunction(
    () => (globalThis as any).document.querySelector('#stream-status').textContent === 'Ended',
    null,
    {
      timeout: 20_000,
    },
  );
  await waitFor('video.published', async () => (await server.events('video.published'))[0], {
    timeoutMs: 60_000,
  });
  await page.goto(`${server.origin}/dashboard/videos`);
  await page.getByRole('link', { name: 'Friday night build' }).click();
  await page.waitForURL(/\/dashboard\/videos\/vid_\w+$/);
  // Pressing play (the player's own control, through the DevTools protocol).
  await page.locator('#video-player').evaluate((video) => (video as any).play());
  await playing(page, '#video-player');
  assert.match((await page.textContent('#video-duration')) ?? '', /^0:\d\d$/);
  assert.equal(await page.getAttribute('#video-source', 'href'), `/dashboard/streams/${streamId}`);
  await check(page, 'dashboard-video');
  await page.goto(`${server.origin}/dashboard/videos`);
  await check(page, 'dashboard-videos');
  await page.goto(`${server.origin}/dashboard/streams/${streamId}`);
  await page.waitForSelector('#viewer-chart canvas');
  await check(page, 'dashboard-stream-ended');
  await page.goto(`${server.origin}/dashboard/streams`);
  await check(page, 'dashboard-streams');

  // A webhook: registered on the page, its secret shown once, its ping in the delivery log.
  await page.goto(`${server.origin}/dashboard/webhooks`);
  await check(page, 'dashboard-webhooks-empty');
  await page.getByLabel('Endpoint URL').fill(receiver.url());
  await page.getByRole('button', { name: 'Register webhook' }).click();
  await page.waitForSelector('#webhook-secret');
  assert.match(await page.locator('#webhook-secret').inputValue(), /^whsec_\w+$/);
  await check(page, 'dashboard-webhook-secret');
  await page.getByRole('link', { name: 'Continue to the webhook' }).click();
  await receiver.waitForRequests(1);
  await waitFor(
    'the ping in the log',
    async () => {
      await page.reload();
      return (
        (await page.locator('#delivery-log tr[data-event-type="ping"][data-status="succeeded"]').count()) ===
        1
      );
    },
    { timeoutMs: 15_000 },
  );
  await page.getByRole('button', { name: 'Send test event' }).click();
  await page.waitForURL(/\?done=test$/);
  await receiver.waitForRequests(2);
  await waitFor(
    'the test event in the log',
    async () => {
      await page.reload();
      return (await page.locator('#delivery-log tr[data-status="succeeded"]').count()) === 2;
    },
    { timeoutMs: 15_000 },
  );
  await page.waitForSelector('#delivery-chart canvas');
  await check(page, 'dashboard-webhook');
  await page.locator('#delivery-log tbody a').first().click();
  await page.waitForSelector('#attempts');
  await check(page, 'dashboard-webhook-delivery');

  assert.deepEqual(errors, [], 'no script errors or failed loads on any page');
});
