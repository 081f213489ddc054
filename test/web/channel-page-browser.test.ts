// The channel key in the dashboard, in headless Chromium (issue 28): the streams list points to
// it, the Channel page shows the server URL and the key with Reveal, Copy and Reset (Reset asks
// first), and says which stream the next broadcast goes live on: a new one when there is none, the
// newest in standby, a scheduled one near its start over that, the live one while live; always
// the stream the ingest's own choice (NextStream.pick) would take. Passes axe; screenshots at 390
// and 1440 px (TEST_SCREENSHOT_DIR).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { systemClock } from '../../src/shared/clock.ts';
import { startTestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/media-browser.ts';
import { signInBrowser, signUp } from '../helpers/web.ts';
import { expectNoSeriousAxeViolations, screenshotBothWidths } from '../helpers/web-browser.ts';

const PASSWORD = 'browser test password';

test('the Channel page: the key and server URL up front, and which stream the next broadcast goes live on', async (t) => {
  const server = await startTestApp(t, { dialect: 'sqlite', clock: systemClock, rateLimitPerIp: 10_000 });
  await signUp(server.origin, { name: 'Ada', email: 'ada@example.com', password: PASSWORD });
  const { id: userId } = await server.services.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'ada@example.com')
    .executeTakeFirstOrThrow();
  const { streams, nextStream } = server.services;

  const context = await launchBrowser(t);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
  await signInBrowser(context, server.origin, { email: 'ada@example.com', password: PASSWORD });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const next = () => page.locator('#next-stream');
  /** The sentence, its line breaks and indentation as one space each. */
  const said = async () => ((await next().textContent()) ?? '').replace(/\s+/g, ' ').trim();
  /** The stream the ingest would pick now (the preview must agree with it). */
  const picked = async () => (await nextStream.pick(userId, () => false)).id;
  const check = async (name: string) => {
    await screenshotBothWidths(page, name);
    await expectNoSeriousAxeViolations(page);
    assert.deepEqual(errors, [], `errors on ${name}`);
  };

  // The streams list leads to it.
  await page.goto(`${server.origin}/dashboard/streams`);
  await Promise.all([
    page.waitForURL(/\/dashboard\/ingest$/),
    page.locator('#channel-key-tip').getByRole('link', { name: 'channel key' }).click(),
  ]);

  // No stream yet: going live makes a new one.
  assert.match(
    await said(),
    /no stream waiting, so going live creates a new public stream titled Live stream, \d{4}-\d\d-\d\d \d\d:\d\d UTC/,
  );
  assert.equal(await page.locator('#server-url').inputValue(), server.services.urls.rtmpIngest);
  assert.equal(await page.locator('#stream-key').inputValue(), '', 'hidden until revealed');
  await check('dashboard-channel-new-stream');

  // Reveal and Copy.
  await page.getByRole('link', { name: 'Reveal' }).click();
  await page.locator('#reveal-key', { hasText: 'Revealed' }).waitFor();
  const key = (await server.services.channels.show(userId)).streamKey;
  assert.equal(await page.locator('#stream-key').inputValue(), key);
  await page.getByRole('button', { name: 'Copy stream key' }).click();
  await page.locator('#copy-status', { hasText: 'copied' }).waitFor();
  assert.equal(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText()), key);

  // Reset asks first: Cancel keeps the key; confirmed, a new key is issued and shown.
  await page.getByRole('button', { name: 'Reset channel key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset key?' });
  await dialog.waitFor();
  assert.match((await dialog.textContent()) ?? '', /Reset your channel key\?/);
  await screenshotBothWidths(page, 'dashboard-channel-reset-confirm');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  assert.equal((await server.services.channels.show(userId)).streamKey, key, 'cancelled: the same key');
  await page.getByRole('button', { name: 'Reset channel key' }).click();
  await Promise.all([
    page.waitForURL(/\/dashboard\/ingest\?reveal=key&reset=1$/),
    dialog.getByRole('button', { name: 'Reset key' }).click(),
  ]);
  const fresh = (await server.services.channels.show(userId)).streamKey;
  assert.notEqual(fresh, key);
  assert.equal(await page.locator('#stream-key').inputValue(), fresh);

  // A stream in standby: the next broadcast goes live on it.
  const { stream: standby } = await streams.create(userId, { title: 'Whenever I am ready' });
  await page.goto(`${server.origin}/dashboard/ingest`);
  assert.match(await said(), /goes live on Whenever I am ready \(in standby, with no scheduled start\)/);
  assert.equal(await next().getByRole('link').getAttribute('href'), `/dashboard/streams/${standby.id}`);
  assert.equal(await picked(), standby.id);
  await check('dashboard-channel-standby');

  // A scheduled stream starting within the window is chosen over it; one days away is not.
  await streams.create(userId, {
    title: 'Next week',
    scheduledAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
  });
  const { stream: soon } = await streams.create(userId, {
    title: 'Tonight’s show',
    scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
  });
  await page.reload();
  assert.match(await said(), /goes live on Tonight’s show \(scheduled for \d+ \w+ \d{4}, \d\d:\d\d/);
  assert.equal(await next().getByRole('link').getAttribute('href'), `/dashboard/streams/${soon.id}`);
  assert.equal(await picked(), soon.id);

  // Live: the broadcast goes on there.
  await streams.goLive(standby.id);
  await page.reload();
  assert.match(await said(), /Live now on Whenever I am ready\./);
  assert.equal(await picked(), standby.id);
  await check('dashboard-channel-live');
});
