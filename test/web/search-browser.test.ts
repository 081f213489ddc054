// Search and the following feed in headless Chromium (issue 28): a visitor types in the
// header's search box and gets the results page (tabs by kind, the matching streams,
// channels and videos), follows a result to its channel, subscribes, and then finds that
// channel's live stream and newest video first on the home page. Passes axe; screenshots at
// 390 and 1440 px (TEST_SCREENSHOT_DIR).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { systemClock } from '../../src/shared/clock.ts';
import { startTestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/media-browser.ts';
import { seedStreams, seedVideos } from '../helpers/seed.ts';
import { signInBrowser, signUp } from '../helpers/web.ts';
import { screenshotBothWidths } from '../helpers/web-browser.ts';

const PASSWORD = 'browser test password';
const HOUR = 3_600_000;

test('search from the header, its results, and a following feed on the home page', async (t) => {
  const server = await startTestApp(t, { dialect: 'sqlite', clock: systemClock, rateLimitPerIp: 10_000 });
  const db = server.services.database.db;
  const now = Date.now();
  const creator = await server.createAccount('Lumen Orchard');
  const other = await server.createAccount('Pixel Harbour');
  const [live] = await seedStreams(db, 1, () => ({
    creator_id: creator.userId,
    title: 'Orchard pruning, live from the hill',
    status: 'live',
    started_at: now - HOUR,
    viewer_count: 42,
    category: 'education',
  }));
  await seedStreams(db, 1, () => ({
    creator_id: creator.userId,
    title: 'Orchard harvest planning',
    status: 'scheduled',
    scheduled_at: now + 26 * HOUR,
  }));
  await seedVideos(db, 6, (i) => ({
    creator_id: creator.userId,
    title:
      ['Grafting apple trees', 'Orchard tour in spring', 'Cider pressing day', 'Pruning basics'][i % 4] ?? '',
    description: 'A walk through the orchard.',
    tags: JSON.stringify(['orchard', 'gardening']),
    // Published oldest first, as a channel grows: the index reads the newest first.
    published_at: now - (6 - i) * 24 * HOUR,
    duration_seconds: 600 + i * 37,
  }));
  const others = await seedVideos(db, 14, (i) => ({
    creator_id: other.userId,
    title: `Harbour timelapse ${i + 1}`,
    published_at: now - i * HOUR,
  }));
  await signUp(server.origin, { name: 'Vi Viewer', email: 'vi@example.com', password: PASSWORD });

  const context = await launchBrowser(t);
  await signInBrowser(context, server.origin, { email: 'vi@example.com', password: PASSWORD });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    // Seeded videos have no media, so their thumbnails are 404s; anything else is a fault.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      errors.push(message.text());
    }
  });

  // Before following anyone, the home page has no feed.
  await page.goto(`${server.origin}/`);
  assert.equal(await page.locator('#following').count(), 0);

  // Typed in the header's box, submitted with Enter.
  await page.getByRole('searchbox', { name: 'Search streams, videos and channels' }).fill('orchard');
  await Promise.all([page.waitForURL(/\/search\?q=orchard$/), page.keyboard.press('Enter')]);
  assert.equal(await page.locator('h1').textContent(), 'Results for “orchard”');
  assert.equal(await page.locator('#site-search-q').inputValue(), 'orchard', 'the box keeps the words');
  const tabs = page.getByRole('navigation', { name: 'Result types' });
  assert.deepEqual(
    (await tabs.getByRole('link').allTextContents()).map((text) => text.trim()),
    ['All', 'Streams', 'Videos', 'Channels'],
  );
  assert.equal(await page.locator(`#stream-results a[href="/watch/${live}"]`).count(), 1, 'the live stream');
  assert.equal(await page.locator('#upcoming-results li').count(), 1, 'the upcoming stream');
  assert.equal(await page.locator('#channel-results li').count(), 1, 'the channel');
  assert.equal(await page.locator('#video-results li').count(), 6);
  for (const id of others) assert.equal(await page.locator(`a[href="/watch/${id}"]`).count(), 0);
  // On a phone every tab is in sight: the row does not scroll sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  assert.ok(
    await tabs.locator('ul').evaluate((list) => list.scrollWidth <= list.clientWidth),
    'the tabs fit at 390 px',
  );
  await screenshotBothWidths(page, 'search-results');

  // One kind: the videos tab.
  await Promise.all([page.waitForURL(/type=videos/), tabs.getByRole('link', { name: /^Videos/ }).click()]);
  assert.equal(
    await tabs
      .locator('[aria-current="page"]')
      .textContent()
      .then((s) => s?.trim()),
    'Videos',
  );
  assert.equal(await page.locator('#video-results li').count(), 6);

  // Nothing found, and nothing searchable.
  await page.goto(`${server.origin}/search?q=${encodeURIComponent('zzzqqq nothing')}`);
  assert.match((await page.locator('#search-empty').textContent()) ?? '', /Nothing matches “zzzqqq nothing”/);
  await screenshotBothWidths(page, 'search-nothing-found');
  await page.goto(`${server.origin}/search?q=${encodeURIComponent('"*)(')}`);
  assert.match((await page.locator('#search-problem').textContent()) ?? '', /nothing to search for/);

  // To the channel from its result, subscribe, and home: the feed comes first.
  await page.goto(`${server.origin}/search?q=lumen`);
  await Promise.all([
    page.waitForURL(new RegExp(`/channels/${creator.userId}$`)),
    page.locator('#channel-results a').first().click(),
  ]);
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await page.getByRole('button', { name: 'Unsubscribe' }).waitFor();
  await page.goto(`${server.origin}/`);
  const feed = page.locator('#following');
  assert.equal(await feed.getByRole('heading', { level: 2 }).textContent(), 'From channels you follow');
  assert.equal(await feed.locator(`#following-live a[href="/watch/${live}"]`).count(), 1);
  assert.equal(await feed.locator('#following-videos li').count(), 6);
  const order = await page.locator('main h2').allTextContents();
  assert.deepEqual(order.slice(0, 2), ['From channels you follow', 'Live now'], 'the feed first');
  await screenshotBothWidths(page, 'home-following');
  assert.deepEqual(errors, []);
});
