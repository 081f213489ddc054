// Simulcast in the dashboard, in headless Chromium: a stream's page lists its destinations (name,
// URL, key hint, state with its reason, on or off); a destination is added through the form (a
// bad URL is refused next to its field first), disabled, enabled and removed; the channel page
// shows the channel key and the defaults, and a default added there is on the next new stream's
// page. The key typed is never in a page. Pages pass axe with no CSP or script error.
// Screenshots at 390 and 1440 px (TEST_SCREENSHOT_DIR).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { systemClock } from '../../src/shared/clock.ts';
import { startTestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/media-browser.ts';
import { signInBrowser, signUp } from '../helpers/web.ts';
import { expectNoSeriousAxeViolations, screenshotBothWidths } from '../helpers/web-browser.ts';

const PASSWORD = 'browser test password';
const YOUTUBE_KEY = 'wxyz-1234-abcd-5678-k9q2';
const TWITCH_KEY = 'live_98765_AbCdEfGhIj';

async function checkPage(page: Page, name: string, errors: string[]): Promise<void> {
  await screenshotBothWidths(page, `dashboard-${name}`);
  await expectNoSeriousAxeViolations(page);
  assert.deepEqual(errors, [], `console errors on ${name}`);
  const content = await page.content();
  for (const key of [YOUTUBE_KEY, TWITCH_KEY]) assert.equal(content.includes(key), false, `a key on ${name}`);
}

test('a stream’s simulcast destinations and the channel defaults, from the dashboard', async (t) => {
  const server = await startTestApp(t, { dialect: 'sqlite', clock: systemClock, rateLimitPerIp: 10_000 });
  await signUp(server.origin, { name: 'Ada', email: 'ada@example.com', password: PASSWORD });
  const { id: userId } = await server.services.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'ada@example.com')
    .executeTakeFirstOrThrow();
  const { stream } = await server.services.streams.create(userId, { title: 'Friday build' });

  const context = await launchBrowser(t);
  await signInBrowser(context, server.origin, { email: 'ada@example.com', password: PASSWORD });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    // The preview asks for a playlist a stream without an encoder never has: not under test.
    if (message.location().url.includes('/media/')) return;
    if (message.type() === 'error' && message.location().url !== page.url()) {
      errors.push(`${message.text()} ${message.location().url}`);
    }
  });
  page.on('pageerror', (error) => errors.push(error.message));

  await page.goto(`${server.origin}/dashboard/streams/${stream.id}`);
  assert.equal(await page.locator('#simulcast-empty').textContent(), 'No destinations yet.');
  await Promise.all([
    page.waitForURL(/\/simulcast\/new$/),
    page.getByRole('link', { name: 'Add destination' }).click(),
  ]);
  await checkPage(page, 'simulcast-new', errors);

  // A URL that is not RTMP is refused next to its field, and what was typed stays (not the key).
  await page.getByLabel(/Name/).fill('YouTube');
  await page.getByLabel('Server URL').fill('https://www.youtube.com/live');
  await page.getByLabel('Stream key').fill(YOUTUBE_KEY);
  await page.getByRole('button', { name: 'Add destination' }).click();
  await page.locator('#form-error').waitFor();
  assert.match((await page.locator('#url-error').textContent()) ?? '', /rtmp:\/\/ or rtmps:\/\//);
  assert.equal(await page.getByLabel('Server URL').getAttribute('aria-invalid'), 'true');
  assert.equal(await page.getByLabel(/Name/).inputValue(), 'YouTube');
  assert.equal(await page.getByLabel('Stream key').inputValue(), '', 'the key is not sent back');
  await checkPage(page, 'simulcast-new-refused', errors);

  await page.getByLabel('Server URL').fill('rtmp://a.rtmp.youtube.com/live2');
  await page.getByLabel('Stream key').fill(YOUTUBE_KEY);
  await Promise.all([
    page.waitForURL(/\?simulcast=added#simulcast$/),
    page.getByRole('button', { name: 'Add destination' }).click(),
  ]);
  assert.match((await page.locator('.notice').textContent()) ?? '', /next time the stream goes live/);
  const row = page.locator('#simulcast-targets tbody tr');
  assert.equal(await row.count(), 1);
  assert.equal(await row.locator('th').textContent(), 'YouTube');
  assert.match((await row.textContent()) ?? '', /rtmp:\/\/a\.rtmp\.youtube\.com\/live2/);
  assert.match((await row.textContent()) ?? '', /••••k9q2/);
  assert.match((await row.textContent()) ?? '', /Not started/);

  // A second destination, and states as a live stream's relays would record them.
  const [youtube] = await server.services.simulcast.list(userId, stream.id);
  const twitch = await server.services.simulcast.create(userId, stream.id, {
    name: 'Twitch',
    url: 'rtmp://live.twitch.tv/app',
    streamKey: TWITCH_KEY,
  });
  await server.services.simulcast.recordRunStart(youtube!.id);
  await server.services.simulcast.recordState(youtube!.id, { state: 'live' });
  await server.services.simulcast.recordRunStart(twitch.id);
  await server.services.simulcast.recordState(twitch.id, {
    state: 'failing',
    reason: 'Error opening output rtmp://live.twitch.tv/app/[key]: Connection refused',
    retryInMs: 3000,
  });
  await page.reload();
  const rows = page.locator('#simulcast-targets tbody tr');
  assert.equal(await rows.count(), 2);
  assert.match((await rows.nth(0).textContent()) ?? '', /Live/);
  assert.match((await rows.nth(1).locator('.state-reason').textContent()) ?? '', /Connection refused/);
  await checkPage(page, 'simulcast-stream', errors);

  // Disable, enable, remove.
  await Promise.all([
    page.waitForURL(/\?simulcast=disabled#simulcast$/),
    page.getByRole('button', { name: 'Disable Twitch' }).click(),
  ]);
  assert.match((await page.locator('#simulcast-targets tbody tr').nth(1).textContent()) ?? '', /Off/);
  assert.equal((await server.services.simulcast.get(userId, stream.id, twitch.id)).enabled, 0);
  await Promise.all([
    page.waitForURL(/\?simulcast=enabled#simulcast$/),
    page.getByRole('button', { name: 'Enable Twitch' }).click(),
  ]);
  assert.equal((await server.services.simulcast.get(userId, stream.id, twitch.id)).enabled, 1);
  await page.getByRole('button', { name: 'Remove Twitch' }).click();
  await Promise.all([
    page.waitForURL(/\?simulcast=removed#simulcast$/),
    page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click(),
  ]);
  assert.equal(await page.locator('#simulcast-targets tbody tr').count(), 1);

  // The channel page: the channel key's settings and the defaults.
  await Promise.all([
    page.waitForURL(/\/dashboard\/ingest$/),
    page.getByRole('link', { name: 'Channel', exact: true }).click(),
  ]);
  assert.equal(await page.locator('#simulcast-empty').textContent(), 'No destinations yet.');
  assert.equal(
    await page.locator('#stream-key').inputValue(),
    '',
    'the channel key is hidden until revealed',
  );
  await checkPage(page, 'channel', errors);
  await page.getByRole('link', { name: 'Reveal' }).click();
  await page.locator('#reveal-key', { hasText: 'Revealed' }).waitFor();
  assert.equal(
    await page.locator('#stream-key').inputValue(),
    (await server.services.channels.show(userId)).streamKey,
  );
  await Promise.all([
    page.waitForURL(/\/simulcast\/new$/),
    page.getByRole('link', { name: 'Add destination' }).click(),
  ]);
  await page.getByLabel(/Name/).fill('Twitch');
  await page.getByLabel('Server URL').fill('rtmp://live.twitch.tv/app');
  await page.getByLabel('Stream key').fill(TWITCH_KEY);
  await Promise.all([
    page.waitForURL(/\/dashboard\/ingest\?simulcast=added#simulcast$/),
    page.getByRole('button', { name: 'Add destination' }).click(),
  ]);
  assert.equal(await page.locator('#simulcast-targets tbody tr th').textContent(), 'Twitch');
  await page.reload();
  await checkPage(page, 'channel-defaults', errors);

  // The next stream starts with the default; the first one is as it was.
  const { stream: next } = await server.services.streams.create(userId, { title: 'Saturday build' });
  await page.goto(`${server.origin}/dashboard/streams/${next.id}`);
  assert.equal(await page.locator('#simulcast-targets tbody tr th').textContent(), 'Twitch');
  assert.equal((await server.services.simulcast.list(userId, stream.id)).length, 1);
  assert.deepEqual(errors, []);
});
