// The viewer's journey in headless Chromium against a real server with real ffmpeg (SQLite
// only, like the other media tests): a creator pushes a stream; a viewer signs up in the
// browser, finds the stream on the home page, watches it (muted autoplay, then the Unmute
// button), subscribes and unsubscribes on the watch page without a reload while the creator's
// HTTPS webhook receives subscription.created and subscription.cancelled, signed, with the
// subscription object; the push ends and the recording appears on the channel page.
// Screenshots of each page at 390 and 1440 px, and axe on each.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { launchBrowser, waitUntilPlaying } from '../helpers/media-browser.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { pushTestPattern, waitFor } from '../helpers/media-tools.ts';
import { startReceiver, type HttpsReceiver, type ReceivedRequest } from '../helpers/https-receiver.ts';
import { expectNoSeriousAxeViolations, screenshotBothWidths } from '../helpers/web-browser.ts';
import { registerWebhook } from '../webhooks/harness.ts';

const PASSWORD = 'a long enough password';

function signed(secret: string, request: ReceivedRequest): boolean {
  const expected = createHmac('sha256', secret).update(request.rawBody).digest('hex');
  return request.headers['x-service-signature'] === expected;
}

/** The first request of this event type the receiver got (after the registration's ping). */
async function delivered(receiver: HttpsReceiver, type: string): Promise<ReceivedRequest> {
  return waitFor(type, () => receiver.requests.find((request) => request.body?.type === type), {
    timeoutMs: 15_000,
  });
}

async function buttonText(page: Page): Promise<string> {
  return ((await page.locator('#subscribe button').textContent()) ?? '').trim();
}

test('a viewer finds a live stream on the home page, watches, subscribes and unsubscribes; the video reaches the channel', async (t) => {
  const server = await startMediaServer(t, {
    dialect: 'sqlite',
    deliverWebhooks: true,
    reconnectWindowSeconds: 2,
    viewerWindowMs: 5000,
  });
  const receiver = await startReceiver();
  t.after(() => receiver.close());
  const creator = await server.createAccount('Ada Lovelace');
  const hook = await registerWebhook(server, creator.writeKey, receiver.url(), [
    'subscription.created',
    'subscription.cancelled',
  ]);
  const stream = await server.createStream(creator, { title: 'Evening jam', category: 'music' });
  const get = async () =>
    (await server.request('GET', `/v1/streams/${stream.id}`, { key: creator.readKey })).body;
  const push = pushTestPattern(`${stream.ingest.rtmp_url}/${stream.ingest.stream_key}`, 120);
  t.after(() => {
    push.stop();
  });
  await waitFor('live', async () => (await get()).status === 'live');

  const browser = await launchBrowser(t);
  const page = await browser.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));

  // Sign up as a viewer through the real form.
  await page.goto(`${server.origin}/sign-up`);
  await page.getByLabel('Name').fill('Bo Viewer');
  await page.getByLabel('Email').fill('bo@example.com');
  await page.getByLabel('Password').fill(PASSWORD);
  await Promise.all([
    page.waitForURL(/\/dashboard/),
    page.getByRole('button', { name: 'Create account' }).click(),
  ]);

  // The home page lists the live stream (its listing is at most a second old).
  const card = page.locator(`#live-list a[href="/watch/${stream.id}"]`);
  await waitFor('the stream on the home page', async () => {
    await page.goto(`${server.origin}/`);
    return (await card.count()) === 1;
  });
  assert.match((await card.textContent()) ?? '', /Evening jam/);
  await expectNoSeriousAxeViolations(page);
  await screenshotBothWidths(page, 'viewer-home');
  await page.getByRole('link', { name: 'Music' }).click();
  await page.waitForURL(/\?category=music$/);
  assert.equal(await card.count(), 1, 'the category filter keeps it');

  // Watch: it plays muted, with an Unmute button that turns the sound on.
  await Promise.all([page.waitForURL(`**/watch/${stream.id}`), card.click()]);
  await waitUntilPlaying(page);
  const unmute = page.getByRole('button', { name: 'Unmute' });
  await unmute.waitFor({ state: 'visible' });
  assert.equal(await page.locator('#creator').getAttribute('href'), `/channels/${creator.userId}`);
  await page.locator('#subscribe button').waitFor({ state: 'visible' });
  assert.equal(await buttonText(page), 'Subscribe');
  await expectNoSeriousAxeViolations(page);
  await screenshotBothWidths(page, 'viewer-watch');
  await unmute.click();
  await unmute.waitFor({ state: 'hidden' });
  assert.equal(await page.evaluate(() => (globalThis as any).document.querySelector('#player').muted), false);

  // Subscribe without a reload: the button and the count change; the creator's webhook hears it.
  const url = page.url();
  await page.locator('#subscribe button').click();
  await waitFor('Unsubscribe', async () => (await buttonText(page)) === 'Unsubscribe');
  assert.equal(page.url(), url);
  assert.equal(
    (await page.locator('#subscribe [data-subscriber-count]').textContent())?.trim(),
    '1 subscriber',
  );
  const created = await delivered(receiver, 'subscription.created');
  assert.ok(signed(hook.secret, created), 'signed with the webhook secret');
  assert.equal(created.body.type, 'subscription.created');
  const subscription = created.body.data;
  assert.deepEqual(Object.keys(subscription).sort(), [
    'cancelled_at',
    'created_at',
    'creator_id',
    'id',
    'status',
    'viewer_id',
  ]);
  assert.match(subscription.id, /^sub_/);
  assert.equal(subscription.creator_id, creator.userId);
  assert.match(subscription.viewer_id, /^usr_/);
  assert.equal(subscription.status, 'active');
  assert.equal(subscription.cancelled_at, null);
  await screenshotBothWidths(page, 'viewer-watch-subscribed');

  await page.locator('#subscribe button').click();
  await waitFor('Subscribe again', async () => (await buttonText(page)) === 'Subscribe');
  const cancelled = await delivered(receiver, 'subscription.cancelled');
  assert.ok(signed(hook.secret, cancelled));
  assert.equal(cancelled.body.type, 'subscription.cancelled');
  assert.equal(cancelled.body.data.id, subscription.id);
  assert.equal(cancelled.body.data.status, 'cancelled');
  assert.match(cancelled.body.data.cancelled_at, /^\d{4}-\d\d-\d\dT/);
  // The page still shows its state on reload (server-side, not only in the page).
  await page.reload();
  await page.locator('#subscribe button').waitFor({ state: 'visible' });
  assert.equal(await buttonText(page), 'Subscribe');

  // The push ends; the recording is published and listed on the channel page.
  push.end();
  await push.exited;
  const published = await waitFor(
    'video.published',
    async () => (await server.events('video.published'))[0],
    {
      timeoutMs: 30_000,
    },
  );
  await page.goto(`${server.origin}/channels/${creator.userId}`);
  const videoLink = page.locator(`#video-list a[href="/watch/${published.data.id}"]`);
  assert.equal(await videoLink.count(), 1);
  assert.equal((await page.locator('#channel-name').textContent())?.trim(), 'Ada Lovelace');
  assert.equal(await page.locator(`#live-list a[href="/watch/${stream.id}"]`).count(), 0, 'no longer live');
  await expectNoSeriousAxeViolations(page);
  await screenshotBothWidths(page, 'viewer-channel');
  // Subscribing from the channel page works the same way.
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await page.getByRole('button', { name: 'Unsubscribe' }).waitFor();
  assert.equal((await page.locator('[data-subscriber-count]').textContent())?.trim(), '1 subscriber');
  await waitFor(
    'a second subscription.created',
    () => receiver.requests.filter((request) => request.body?.type === 'subscription.created').length === 2,
  );
  assert.deepEqual(pageErrors, []);
});
