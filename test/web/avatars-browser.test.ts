// Avatars and thumbnails in headless Chromium (issue 28): on the home page, a category, the
// search results, the following feed, a channel and a watch page, every picture a viewer sees
// has loaded (no <img> with naturalWidth 0 once the page has settled: nothing broken), a
// creator without an avatar has their initial on a circle, a card without a thumbnail its
// placeholder; and a picture whose file went missing after the page was made (an avatar, a
// thumbnail) is replaced by the same placeholder by app.js. The signed-in creator sees their
// avatar in the header. Passes axe; screenshots at 390 and 1440 px (TEST_SCREENSHOT_DIR).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { MediaPaths } from '../../src/media/media-paths.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { startTestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/media-browser.ts';
import { giveAvatar, giveThumbnail, PASSWORD, picture, setScene } from '../helpers/pictures.ts';
import { seedVideos } from '../helpers/seed.ts';
import { signInBrowser, signUp } from '../helpers/web.ts';
import { screenshotBothWidths } from '../helpers/web-browser.ts';

/**
 * Scrolls through the page (lazy images load as they come near), waits until every image has
 * settled, and returns the ones that are broken (loaded nothing), by src.
 */
async function brokenImages(page: Page): Promise<string[]> {
  // Page functions run in the browser (test code has no DOM types).
  await page.evaluate(async () => {
    const browser = globalThis as any;
    for (let y = 0; y < browser.document.body.scrollHeight; y += 400) {
      browser.scrollTo(0, y);
      await new Promise((resolve) => browser.requestAnimationFrame(resolve));
    }
    browser.scrollTo(0, 0);
  });
  await page.waitForFunction(
    () => [...(globalThis as any).document.images].every((image: any) => image.complete),
    undefined,
    { timeout: 30_000 },
  );
  // A missing file's error event reaches app.js just after `complete`: give it its turn.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
  return page.evaluate(() =>
    [...(globalThis as any).document.images]
      .filter((image: any) => image.naturalWidth === 0)
      .map((image: any) => String(image.src)),
  );
}

test('avatars and thumbnails load, or show their placeholders, on every page that has them', async (t) => {
  const server = await startTestApp(t, {
    dialect: 'sqlite',
    clock: systemClock,
    rateLimitPerIp: 10_000,
    uploadWorker: true,
    media: {},
  });
  const dir = fs.mkdtempSync(path.join(server.dataDir, 'pictures-'));
  const scene = await setScene(server, dir);
  const { pictured, plain } = scene;
  // A third creator whose avatar and one thumbnail are deleted after they were made (a disk
  // cleaned by hand): the pages still name them, and the browser must not show them broken.
  await signUp(server.origin, { name: 'Cleo Gone', email: 'cleo@example.com', password: PASSWORD });
  const cleo = (
    await server.services.logins.signIn({ email: 'cleo@example.com', password: PASSWORD, address: 't' })
  ).id;
  await giveAvatar(server, cleo, await picture(dir, 'cleo.png', 'testsrc=size=200x200'));
  const [gone] = await seedVideos(server.services.database.db, 1, () => ({
    creator_id: cleo,
    title: 'Cleo video whose files went missing',
    published_at: Date.now() - 30 * 60_000,
    category: 'music',
  }));
  if (!gone) throw new Error('seeding failed');
  await giveThumbnail(server, gone, fs.readFileSync(path.join(dir, 'thumb.jpg')));
  fs.rmSync(path.join(new MediaPaths(server.dataDir).videoDir(gone), 'thumbnail.jpg'));
  fs.rmSync(server.services.profiles.userDir(cleo), { recursive: true });

  const context = await launchBrowser(t);
  await signInBrowser(context, server.origin, { email: 'vi@example.com', password: PASSWORD });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  const pages: [string, string][] = [
    ['avatars-home', '/'],
    ['avatars-category', '/?category=music'],
    ['avatars-search', '/search?q=aurora'],
    ['avatars-channel', `/channels/${plain.userId}`],
    ['avatars-watch', `/watch/${pictured.video}`],
    ['avatars-watch-plain', `/watch/${plain.video}`],
  ];
  for (const [name, address] of pages) {
    await page.goto(`${server.origin}${address}`);
    assert.deepEqual(await brokenImages(page), [], `${address}: no broken image`);
    await screenshotBothWidths(page, name);
  }

  // The home page as the viewer sees it: the feed and the listing.
  await page.goto(`${server.origin}/`);
  await brokenImages(page);
  const feed = page.locator('#following');
  const card = (id: string) => feed.locator(`li:has(a[href="/watch/${id}"])`);
  // Aurora's avatar really loaded, at its size; Basil's initial on a circle.
  const avatar = card(pictured.video).locator('img.avatar');
  assert.equal(await avatar.evaluate((image: any) => image.naturalWidth), 64);
  assert.deepEqual(await avatar.boundingBox().then((box) => [box?.width, box?.height]), [24, 24]);
  assert.equal(await card(plain.video).locator('.avatar-initial').textContent(), 'B');
  // Cards without a picture: the placeholder's words, no image.
  assert.equal(await card(pictured.bareVideo).locator('img').count(), 1, 'only the avatar');
  assert.equal(await card(pictured.bareVideo).locator('.thumb-empty-text').textContent(), 'No preview');
  assert.equal(await card(pictured.live).locator('.thumb-empty-text').textContent(), 'Preview soon');
  // The files that went missing: replaced by the placeholders, in the listing.
  const goneCard = page.locator(`#video-list li:has(a[href="/watch/${gone}"])`);
  assert.equal(await goneCard.locator('img').count(), 0, 'neither the thumbnail nor the avatar is left');
  assert.equal(await goneCard.locator('.thumb-empty-text').textContent(), 'No preview');
  assert.equal(await goneCard.locator('.avatar-initial').textContent(), 'C');
  // The viewer has no avatar: the header's initial.
  assert.equal(await page.locator('header a.nav-user').getAttribute('data-initial'), 'V');

  // Aurora signed in: her avatar in the header, loaded.
  await context.clearCookies();
  await signInBrowser(context, server.origin, { email: 'aurora@example.com', password: PASSWORD });
  await page.goto(`${server.origin}/?category=music`);
  assert.deepEqual(await brokenImages(page), []);
  const header = page.locator('header a.nav-user img.avatar');
  assert.equal(await header.evaluate((image: any) => image.naturalWidth), 64);
  assert.equal(await page.locator('header .nav-user-name').textContent(), 'Aurora Pictured');
  await screenshotBothWidths(page, 'avatars-header');
  assert.deepEqual(errors, []);
});
