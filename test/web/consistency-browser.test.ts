// The smaller things a new user tripped over (issue 28), in headless Chromium: category names
// rather than slugs; one date format on every page, in the viewer's time zone (India's here, half
// an hour off whole hours); one button style on every form; destructive actions that ask first
// and leave a page a reload does not send again (redirect after POST); and the signed-in name in
// the header that reads as a link. Screenshots at 390 and 1440 px (TEST_SCREENSHOT_DIR).
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import type { Page } from 'playwright-core';
import { systemClock } from '../../src/shared/clock.ts';
import { startTestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/media-browser.ts';
import { signInBrowser, signUp } from '../helpers/web.ts';
import { expectNoSeriousAxeViolations, screenshotBothWidths } from '../helpers/web-browser.ts';

const PASSWORD = 'browser test password';
const ACCENT = 'rgb(91, 43, 214)';
/** "26 Nov 2026" or "26 Nov 2026, 14:30 GMT+5:30": the one format, in the browser's zone. */
const ONE_FORMAT = /^\d{1,2} [A-Z][a-z]{2} \d{4}(, \d\d:\d\d GMT\+5:30)?$/;

interface ButtonLook {
  text: string;
  kind: 'primary' | 'danger' | 'secondary';
  radius: string;
  weight: string;
  background: string;
  border: string;
}

/** Every visible button of the page's main content (and links styled as buttons). */
async function buttonsOf(page: Page): Promise<ButtonLook[]> {
  return page.evaluate(() => {
    const win = globalThis as any;
    return [...win.document.querySelectorAll('main button, main a.button')]
      .filter((el: any) => el.offsetParent !== null)
      .map((el: any) => {
        const style = win.getComputedStyle(el);
        const kind = el.classList.contains('primary')
          ? 'primary'
          : el.classList.contains('danger')
            ? 'danger'
            : 'secondary';
        return {
          text: el.textContent.trim(),
          kind,
          radius: style.borderTopLeftRadius,
          weight: style.fontWeight,
          background: style.backgroundColor,
          border: style.borderTopColor,
        };
      });
  });
}

async function timesOf(page: Page): Promise<string[]> {
  return page.locator('main time').evaluateAll((times) => times.map((t) => (t.textContent ?? '').trim()));
}

/** A creator with a scheduled stream, a video, a webhook and a key, signed in, in India's time zone. */
async function setUp(t: TestContext) {
  const server = await startTestApp(t, { dialect: 'sqlite', clock: systemClock, rateLimitPerIp: 10_000 });
  await signUp(server.origin, { name: 'Ada', email: 'ada@example.com', password: PASSWORD });
  const { id: userId } = await server.services.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'ada@example.com')
    .executeTakeFirstOrThrow();
  // Tomorrow at 09:00 UTC is 14:30 in Kolkata.
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' }).format(
    new Date(`${tomorrow}T09:00:00Z`),
  );
  const { stream } = await server.services.streams.create(userId, {
    title: 'Morning chat',
    category: 'just-chatting',
    scheduledAt: `${tomorrow}T09:00:00.000Z`,
  });
  const video = await server.services.videos.publish({
    creatorId: userId,
    title: 'Last week',
    durationSeconds: 754,
    category: 'science-and-technology',
  });
  const hook = await server.services.webhooks.register(userId, {
    url: 'https://hooks.example.com/tributary',
    events: ['*'],
  });
  await server.services.accounts.createKey(userId, 'read');

  const context = await launchBrowser(t);
  await signInBrowser(context, server.origin, { email: 'ada@example.com', password: PASSWORD });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setTimezoneOverride', { timezoneId: 'Asia/Kolkata' });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push(new URL(request.url()).pathname);
  });

  return { server, userId, stream, video, hook, page, errors, posts, day };
}

test('category menus and pages show names, never slugs', async (t) => {
  const { server, video, page, errors } = await setUp(t);
  // Category names, never slugs: the form's menu, the list, the video's page.
  await page.goto(`${server.origin}/dashboard/streams/new`);
  const options = await page.locator('#category option').allTextContents();
  assert.ok(options.includes('Just chatting') && options.includes('Science and technology'), options.join());
  assert.ok(
    options.every((label) => !label.includes('-')),
    options.join(),
  );
  await page.goto(`${server.origin}/dashboard/uploads`);
  const uploadOptions = await page.locator('#category option').allTextContents();
  assert.deepEqual(uploadOptions, options, 'the upload form names them alike');
  await page.goto(`${server.origin}/dashboard/streams`);
  assert.match((await page.locator('#stream-list tbody tr').first().textContent()) ?? '', /Just chatting/);
  await page.goto(`${server.origin}/dashboard/videos/${video.id}`);
  assert.match((await page.locator('dl.details').textContent()) ?? '', /Science and technology/);

  assert.deepEqual(errors, []);
});

test('every date is in one format, in the viewer’s time zone', async (t) => {
  const { server, userId, stream, video, hook, page, errors, day } = await setUp(t);
  // One date format, in the viewer's time zone, on every page that shows dates.
  const datedPages = [
    '/dashboard/streams',
    `/dashboard/streams/${stream.id}`,
    '/dashboard/videos',
    `/dashboard/videos/${video.id}`,
    '/dashboard/webhooks',
    `/dashboard/webhooks/${hook.row.id}`,
    '/dashboard/keys',
    '/',
    `/channels/${userId}`,
  ];
  for (const path of datedPages) {
    await page.goto(`${server.origin}${path}`);
    const times = await timesOf(page);
    assert.ok(times.length > 0, `${path} shows dates`);
    for (const text of times) assert.match(text, ONE_FORMAT, `${path}: "${text}"`);
  }
  await page.goto(`${server.origin}/dashboard/streams/${stream.id}`);
  assert.equal(
    ((await page.locator('#standby-note').textContent()) ?? '').trim(),
    `Starts ${day}, 14:30 GMT+5:30.`,
    'the scheduled start in local time',
  );
  await page.goto(`${server.origin}/`);
  assert.match(
    (await page.locator('#upcoming-list').textContent()) ?? '',
    new RegExp(`${day}, 14:30 GMT\\+5:30`),
  );

  assert.deepEqual(errors, []);
});

test('every button of every form has the one style: primary, secondary or danger', async (t) => {
  const { server, userId, stream, video, hook, page, errors } = await setUp(t);
  // One button style: the same corners and weight everywhere; primary actions in the accent,
  // secondary ones alike, destructive ones in red.
  const looks: (ButtonLook & { path: string })[] = [];
  for (const path of [
    '/dashboard/streams',
    '/dashboard/streams/new',
    `/dashboard/streams/${stream.id}`,
    `/dashboard/videos/${video.id}`,
    '/dashboard/ingest',
    '/dashboard/keys',
    '/dashboard/webhooks',
    `/dashboard/webhooks/${hook.row.id}`,
    '/account',
    `/channels/${userId}`,
  ]) {
    await page.goto(`${server.origin}${path}`);
    looks.push(...(await buttonsOf(page)).map((look) => ({ ...look, path })));
  }
  const describe = (look: ButtonLook & { path: string }) => `${look.path} "${look.text}"`;
  assert.ok(looks.length >= 20, `buttons found: ${looks.length}`);
  for (const look of looks) {
    assert.equal(look.radius, '6px', describe(look));
    assert.equal(look.weight, '600', describe(look));
    if (look.kind === 'primary') assert.equal(look.background, ACCENT, describe(look));
    if (look.kind === 'secondary') {
      assert.equal(look.background, 'rgb(255, 255, 255)', describe(look));
      assert.equal(look.border, 'rgb(140, 149, 159)', describe(look));
    }
    if (look.kind === 'danger') assert.equal(look.border, 'rgb(180, 35, 24)', describe(look));
  }
  for (const text of ['Create key', 'New stream', 'Save password']) {
    assert.ok(
      looks.some((look) => look.text === text && look.kind === 'primary'),
      `${text} is a primary action`,
    );
  }

  assert.deepEqual(errors, []);
});

test('the signed-in name in the header reads as a link', async (t) => {
  const { server, page, errors } = await setUp(t);
  // The signed-in name in the header reads as a link to the account.
  await page.goto(`${server.origin}/dashboard/streams`);
  const name = page.locator('header a.nav-user');
  const nameLook = await name.evaluate((a) => {
    const win = globalThis as any;
    return { color: win.getComputedStyle(a).color, initial: win.getComputedStyle(a, '::before').content };
  });
  assert.deepEqual(nameLook, { color: ACCENT, initial: '"A"' });
  await name.hover();
  assert.equal(
    await name
      .locator('.nav-user-name')
      .evaluate((span) => (globalThis as any).getComputedStyle(span).textDecorationLine),
    'underline',
  );
  await screenshotBothWidths(page, 'web-header-link');

  assert.deepEqual(errors, []);
});

test('destructive actions ask first and redirect after POST; a reload repeats nothing', async (t) => {
  const { server, userId, hook, page, errors, posts } = await setUp(t);
  // Deleting a webhook asks first; Cancel keeps it.
  await page.goto(`${server.origin}/dashboard/webhooks/${hook.row.id}`);
  await page.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete webhook?' });
  await dialog.waitFor();
  assert.match(
    (await dialog.textContent()) ?? '',
    /Delete the webhook for https:\/\/hooks\.example\.com\/tributary\?/,
  );
  assert.equal(
    await page.evaluate(() => (globalThis as any).document.activeElement.textContent),
    'Cancel',
    'Cancel has the focus',
  );
  await expectNoSeriousAxeViolations(page);
  await screenshotBothWidths(page, 'dashboard-webhook-delete-confirm');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  assert.deepEqual(posts, [], 'nothing was sent');
  assert.equal((await server.services.webhooks.list(userId)).length, 1);

  // Confirmed, it is deleted and the browser is on a page a reload does not send again.
  await page.getByRole('button', { name: 'Delete' }).click();
  await Promise.all([
    page.waitForURL(/\/dashboard\/webhooks\?deleted=1$/),
    dialog.getByRole('button', { name: 'Delete webhook' }).click(),
  ]);
  assert.match((await page.locator('.notice').textContent()) ?? '', /Webhook deleted/);
  assert.deepEqual(await server.services.webhooks.list(userId), []);
  assert.deepEqual(posts, [`/dashboard/webhooks/${hook.row.id}/delete`]);
  await page.reload();
  assert.deepEqual(posts, [`/dashboard/webhooks/${hook.row.id}/delete`], 'a reload sends nothing');

  // A new API key: created, shown on the page the form redirects to, and not made again by a reload.
  await page.goto(`${server.origin}/dashboard/keys`);
  await Promise.all([
    page.waitForURL(/\/dashboard\/keys#new-key-title$/),
    page.getByRole('button', { name: 'Create key' }).click(),
  ]);
  const key = await page.locator('#new-key').inputValue();
  assert.match(key, /^tk_/);
  await page.reload();
  assert.equal(await page.locator('#new-key').count(), 0, 'shown once');
  assert.equal((await server.services.accounts.listKeysWithUsage(userId)).length, 2, 'one key made, not two');
  assert.deepEqual(errors, []);
});
