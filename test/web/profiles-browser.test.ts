// Profiles in headless Chromium (issue 28): a creator picks an avatar and a banner on the
// account page (real file inputs, multipart forms), fills in the bio and links, and the channel
// page shows them once the media job has made the images, as does the watch page beside the
// creator's name. A file that is not an image is refused on the page with the reason. Passes
// axe; screenshots at 390 and 1440 px (TEST_SCREENSHOT_DIR).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { systemClock } from '../../src/shared/clock.ts';
import { startTestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/media-browser.ts';
import { waitFor } from '../helpers/wait.ts';
import { signInBrowser, signUp } from '../helpers/web.ts';
import { screenshotBothWidths } from '../helpers/web-browser.ts';

const run = promisify(execFile);
const PASSWORD = 'browser profile password';

test('a creator uploads an avatar and a banner and writes a bio; the channel shows them', async (t) => {
  const server = await startTestApp(t, {
    dialect: 'sqlite',
    clock: systemClock,
    rateLimitPerIp: 1000,
    uploadWorker: true,
    media: {},
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-profile-browser-'));
  t.after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const avatarFile = path.join(dir, 'me.png');
  const bannerFile = path.join(dir, 'banner.jpg');
  const notImage = path.join(dir, 'notes.png');
  for (const [file, source] of [
    [avatarFile, 'mandelbrot=size=400x400'],
    [bannerFile, 'testsrc2=size=1920x600'],
  ] as const) {
    await run('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      source,
      '-frames:v',
      '1',
      file,
    ]);
  }
  fs.writeFileSync(notImage, 'not a picture at all\n');
  await signUp(server.origin, { name: 'Grace Hopper', email: 'grace@example.com', password: PASSWORD });
  const userId = (
    await server.services.logins.signIn({ email: 'grace@example.com', password: PASSWORD, address: 't' })
  ).id;

  const context = await launchBrowser(t);
  await signInBrowser(context, server.origin, { email: 'grace@example.com', password: PASSWORD });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.origin}/account`);

  // A file that is not an image: the page says why.
  await page.getByLabel('Avatar').setInputFiles(notImage);
  await page.getByRole('button', { name: 'Upload avatar' }).click();
  await page.locator('#account-notice').waitFor();
  assert.match((await page.textContent('#account-notice')) ?? '', /not a PNG, JPEG, GIF or WebP image/);

  // A file far over 5 MB: refused while it arrives, and the browser shows why, not a reset.
  const tooLarge = path.join(dir, 'huge.png');
  fs.writeFileSync(tooLarge, Buffer.alloc(24 * 1024 * 1024, 1));
  await page.getByLabel('Avatar').setInputFiles(tooLarge);
  const [refusal] = await Promise.all([
    page.waitForResponse((response) => response.url().endsWith('/account/avatar')),
    page.getByRole('button', { name: 'Upload avatar' }).click(),
  ]);
  assert.equal(refusal.status(), 413);
  await page.waitForLoadState();
  assert.match((await page.textContent('#account-notice')) ?? '', /larger than 5 MB: choose a smaller file/);
  await screenshotBothWidths(page, 'profile-image-too-large');
  // On a phone the page fits its width (the banner's preview once pushed it sideways).
  await page.setViewportSize({ width: 390, height: 844 });
  assert.ok(
    await page.evaluate(() => {
      const win = globalThis as unknown as {
        innerWidth: number;
        document: { documentElement: { scrollWidth: number } };
      };
      return win.document.documentElement.scrollWidth <= win.innerWidth;
    }),
    'no sideways scrolling at 390 px',
  );
  await page.setViewportSize({ width: 1280, height: 720 });

  await page.getByLabel('Avatar').setInputFiles(avatarFile);
  await Promise.all([
    page.waitForURL(/saved=avatar/),
    page.getByRole('button', { name: 'Upload avatar' }).click(),
  ]);
  assert.match((await page.textContent('#account-notice')) ?? '', /Your avatar is uploaded/);
  await page.getByLabel('Banner').setInputFiles(bannerFile);
  await Promise.all([
    page.waitForURL(/saved=banner/),
    page.getByRole('button', { name: 'Upload banner' }).click(),
  ]);
  await page.getByLabel('Bio').fill('Compilers, COBOL and nanoseconds.\nTalks on Thursdays.');
  await page.getByLabel('Links').fill('https://example.com/grace\nhttps://navy.example.mil/hopper');
  await Promise.all([
    page.waitForURL(/saved=profile/),
    page.getByRole('button', { name: 'Save profile' }).click(),
  ]);
  await waitFor(
    async () => {
      const profile = await server.services.profiles.find(userId);
      return profile?.avatar.status === 'ready' && profile.banner.status === 'ready';
    },
    { timeoutMs: 60_000, what: 'both images to be made' },
  );
  await page.goto(`${server.origin}/account`);
  await page.locator('#avatar-preview').waitFor();
  // On a desktop each picture has its upload form beside it, the banner as the avatar.
  await page.setViewportSize({ width: 1440, height: 900 });
  for (const kind of ['avatar', 'banner']) {
    const picture = await page.locator(`#${kind}-preview`).boundingBox();
    const label = await page.locator(`label[for="${kind}-file"]`).boundingBox();
    assert.ok(picture && label && label.x > picture.x + picture.width, `the ${kind}'s form beside it`);
  }
  await screenshotBothWidths(page, 'profile-account');

  // The channel: banner, avatar, bio and links; the images really load.
  await page.goto(`${server.origin}/channels/${userId}`);
  const loaded = await page.evaluate(() =>
    ['#channel-banner', '#channel-avatar'].map((css) => {
      const image = (globalThis as any).document.querySelector(css);
      return image && image.complete && image.naturalWidth > 0 ? String(image.currentSrc) : null;
    }),
  );
  assert.match(loaded[0] ?? '', /\/profiles\/usr_\w+\/banner-\d+-(800|1600)\.jpg$/);
  assert.match(loaded[1] ?? '', /\/profiles\/usr_\w+\/avatar-\d+-256\.jpg$/);
  assert.equal(
    await page.textContent('#channel-bio'),
    'Compilers, COBOL and nanoseconds.\nTalks on Thursdays.',
  );
  assert.deepEqual(await page.locator('#channel-links a').allTextContents(), [
    'example.com/grace',
    'navy.example.mil/hopper',
  ]);
  await screenshotBothWidths(page, 'profile-channel');

  // By the creator's name on a watch page.
  const { stream } = await server.services.streams.create(userId, { title: 'Nanoseconds explained' });
  await page.goto(`${server.origin}/watch/${stream.id}`);
  const avatar = page.locator('#creator img.avatar');
  assert.equal(await avatar.count(), 1);
  assert.equal(await avatar.evaluate((image: any) => image.naturalWidth), 64);
  assert.deepEqual(errors, []);
});
