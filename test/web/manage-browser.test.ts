// The edit and confirmation pages in headless Chromium: a stream's planned start is shown and
// edited in the browser's time zone (India's, half an hour off whole hours) and survives a save
// untouched; the video edit form and both confirmations pass axe with no CSP or script error.
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

async function checkPage(page: Page, name: string, errors: string[]): Promise<void> {
  await screenshotBothWidths(page, `dashboard-${name}`);
  await expectNoSeriousAxeViolations(page);
  assert.deepEqual(errors, [], `console errors on ${name}`);
}

test('edit a stream in local time, edit a video, and the end and delete confirmations', async (t) => {
  const server = await startTestApp(t, { dialect: 'sqlite', clock: systemClock, rateLimitPerIp: 10_000 });
  await signUp(server.origin, { name: 'Ada', email: 'ada@example.com', password: PASSWORD });
  const { id: userId } = await server.services.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'ada@example.com')
    .executeTakeFirstOrThrow();
  // Tomorrow at 09:00 UTC: 14:30 in Kolkata (UTC+05:30).
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const start = `${tomorrow}T09:00:00.000Z`;
  const { stream } = await server.services.streams.create(userId, {
    title: 'Morning build',
    scheduledAt: start,
    category: 'coding',
  });
  const video = await server.services.videos.publish({
    creatorId: userId,
    title: 'Last week',
    durationSeconds: 754,
    tags: ['rust', 'compilers'],
    description: 'The whole session, with the bug hunt at the end.',
  });

  const context = await launchBrowser(t);
  await signInBrowser(context, server.origin, { email: 'ada@example.com', password: PASSWORD });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setTimezoneOverride', { timezoneId: 'Asia/Kolkata' });
  const errors: string[] = [];
  page.on('console', (message) => {
    // The stream's preview and the video's player ask for playlists that media made without an
    // encoder never has: expected here, and not the pages under test.
    if (message.location().url.includes('/media/')) return;
    if (message.type() === 'error' && message.location().url !== page.url()) {
      errors.push(`${message.text()} ${message.location().url}`);
    }
  });
  page.on('pageerror', (error) => errors.push(error.message));

  await page.goto(`${server.origin}/dashboard/streams/${stream.id}`);
  await Promise.all([page.waitForURL(/\/edit$/), page.getByRole('link', { name: 'Edit details' }).click()]);
  assert.equal(
    await page.getByLabel(/Scheduled start/).inputValue(),
    `${tomorrow}T14:30`,
    'shown in local time',
  );
  assert.equal(await page.locator('#tz_offset').inputValue(), '-330');
  await checkPage(page, 'stream-edit', errors);

  await page.getByLabel('Title').fill('Morning build, part 2');
  await page.getByLabel(/Unlisted/).check();
  await Promise.all([
    page.waitForURL(/\?updated=1$/),
    page.getByRole('button', { name: 'Save changes' }).click(),
  ]);
  assert.equal(await page.locator('#stream-title').textContent(), 'Morning build, part 2');
  await checkPage(page, 'stream-saved', errors);
  assert.equal(await page.locator('#end-stream').isVisible(), false, 'nothing to end before it is live');
  const saved = await server.services.streams.get(stream.id);
  assert.equal(saved.privacy, 'private');
  assert.equal(
    new Date(saved.scheduled_at ?? 0).toISOString(),
    start,
    'the start survived the local round trip',
  );

  // Live: the End button appears as the status changes, without a reload.
  await server.services.streams.goLive(stream.id);
  await page.locator('#end-stream:not([hidden])').waitFor({ timeout: 15_000 });
  await Promise.all([page.waitForURL(/\/end$/), page.getByRole('link', { name: 'End stream' }).click()]);
  await checkPage(page, 'stream-end-confirm', errors);
  await Promise.all([
    page.waitForURL(/\?ended=1$/),
    page.getByRole('button', { name: 'End stream' }).click(),
  ]);
  assert.equal((await server.services.streams.get(stream.id)).status, 'ended');

  await page.goto(`${server.origin}/dashboard/videos/${video.id}`);
  await Promise.all([page.waitForURL(/\/edit$/), page.getByRole('link', { name: 'Edit details' }).click()]);
  assert.equal(await page.getByLabel(/Tags/).inputValue(), 'rust, compilers');
  await checkPage(page, 'video-edit', errors);
  await page.getByLabel(/Tags/).fill('rust, compilers, debugging');
  await Promise.all([
    page.waitForURL(/\?updated=1$/),
    page.getByRole('button', { name: 'Save changes' }).click(),
  ]);
  assert.equal(await page.locator('#video-tags').textContent(), 'rust, compilers, debugging');

  await Promise.all([page.waitForURL(/\/delete$/), page.getByRole('link', { name: 'Delete' }).click()]);
  await checkPage(page, 'video-delete-confirm', errors);
  await Promise.all([
    page.waitForURL(/\/dashboard\/videos\?deleted=1$/),
    page.getByRole('button', { name: 'Delete video' }).click(),
  ]);
  assert.equal(await page.locator('.notice').textContent(), 'Video deleted.');
  assert.deepEqual(errors, []);
});
