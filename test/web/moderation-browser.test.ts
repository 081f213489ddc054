// Moderation in headless Chromium against a real server with real ffmpeg (SQLite only, like
// the other media tests): a viewer watching a live stream reports it from the watch page; an
// operator finds the report in the admin area, follows it to the creator and suspends them
// while they are live; the viewer's player stops and the page says the stream is gone; the
// creator signs in and reads why. Screenshots of each page at 390 and 1440 px, axe on each.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLI_ACTOR } from '../../src/moderation/moderation.service.ts';
import { launchBrowser, waitUntilPlaying } from '../helpers/media-browser.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { pushTestPattern, waitFor } from '../helpers/media-tools.ts';
import { screenshotBothWidths } from '../helpers/web-browser.ts';

const PASSWORD = 'a long enough password';

test('a viewer reports a live stream; an operator suspends its creator; the stream ends for the viewer', async (t) => {
  const server = await startMediaServer(t, { dialect: 'sqlite', reconnectWindowSeconds: 60 });
  const { logins, accounts, moderation } = server.services;
  const creator = await logins.createUser({
    name: 'Rex Spammer',
    email: 'rex@example.com',
    password: PASSWORD,
  });
  const creatorKey = (await accounts.createKey(creator.id, 'write')).key;
  await logins.createUser({ name: 'Opal Operator', email: 'opal@example.com', password: PASSWORD });
  await moderation.setRole(CLI_ACTOR, 'opal@example.com', 'operator');
  const stream = await server.createStream(
    { userId: creator.id, writeKey: creatorKey, readKey: creatorKey },
    { title: 'Free prizes, click now', category: 'gaming' },
  );
  const push = pushTestPattern(`${stream.ingest.rtmp_url}/${stream.ingest.stream_key}`, 180, {
    size: '640x360',
  });
  t.after(() => {
    push.stop();
  });
  await waitFor(
    'live with media',
    async () => {
      const info = await server.request('GET', `/watch/${stream.id}/info`);
      return info.status === 200 && info.body.status === 'live' && info.body.playback_url !== null;
    },
    { timeoutMs: 30_000 },
  );

  const browser = await launchBrowser(t);
  const pageErrors: string[] = [];
  const signUpAs = async (name: string, email: string) => {
    const page = await browser.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${server.origin}/sign-up`);
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await Promise.all([
      page.waitForURL(/\/dashboard/),
      page.getByRole('button', { name: 'Create account' }).click(),
    ]);
    return page;
  };

  // The viewer watches, then reports from the watch page.
  const viewer = await signUpAs('Vic Viewer', 'vic@example.com');
  await viewer.goto(`${server.origin}/watch/${stream.id}`);
  await waitUntilPlaying(viewer);
  const reportPage = await browser.newPage();
  await reportPage.goto(`${server.origin}/watch/${stream.id}`);
  await Promise.all([
    reportPage.waitForURL(/\/report\?kind=stream/),
    reportPage.getByRole('link', { name: 'Report this stream' }).click(),
  ]);
  await reportPage.getByLabel('What is wrong with it?').fill('A scam: asks viewers for card numbers.');
  await screenshotBothWidths(reportPage, 'moderation-report-form');
  await Promise.all([
    reportPage.waitForURL(/\/report\/sent/),
    reportPage.getByRole('button', { name: 'Send the report' }).click(),
  ]);
  assert.match((await reportPage.locator('#report-sent').textContent()) ?? '', /Your report was sent/);
  await screenshotBothWidths(reportPage, 'moderation-report-sent');

  // The operator signs in (the same browser: the viewer's player keeps playing in its tab).
  await reportPage.goto(`${server.origin}/sign-in?next=/admin`);
  await reportPage.getByRole('button', { name: 'Sign out' }).click();
  await reportPage.goto(`${server.origin}/sign-in?next=/admin`);
  await reportPage.getByLabel('Email').fill('opal@example.com');
  await reportPage.getByLabel('Password').fill(PASSWORD);
  await Promise.all([
    reportPage.waitForURL(/\/admin\/reports$/),
    reportPage.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  const admin = reportPage;
  assert.match((await admin.locator('#report-list').textContent()) ?? '', /card numbers/);
  await screenshotBothWidths(admin, 'moderation-admin-reports');
  await Promise.all([
    admin.waitForURL(/\/admin\/reports\/rpt_/),
    admin.locator('#report-list a').first().click(),
  ]);
  await screenshotBothWidths(admin, 'moderation-admin-report');
  // To the creator's page: suspend them there.
  await Promise.all([
    admin.waitForURL(/\/admin\/users\/usr_/),
    admin.getByRole('link', { name: 'Rex Spammer' }).click(),
  ]);
  assert.match((await admin.locator('#user-content').textContent()) ?? '', /live/);
  await admin.getByLabel('Reason (the user reads it)').fill('Scam streams asking for card numbers.');
  await screenshotBothWidths(admin, 'moderation-admin-user');
  const suspendedAt = Date.now();
  await Promise.all([
    admin.waitForURL(/done=suspended/),
    admin.getByRole('button', { name: 'Suspend Rex Spammer' }).click(),
  ]);
  assert.match((await admin.locator('#user-standing').textContent()) ?? '', /Suspended/);
  await screenshotBothWidths(admin, 'moderation-admin-user-suspended');

  // The encoder is cut off, and the viewer's page stops and says so (it polls every 5 s).
  await push.exited;
  t.diagnostic(`encoder cut off ${Date.now() - suspendedAt} ms after the click`);
  await viewer.waitForFunction(
    () =>
      (globalThis as any).document.querySelector('#notice')?.textContent ===
      'This stream is no longer available.',
    undefined,
    { timeout: 15_000, polling: 200 },
  );
  t.diagnostic(`the viewer's page said so ${Date.now() - suspendedAt} ms after the click`);
  const paused = await viewer.evaluate(
    () => (globalThis as any).document.querySelector('#player').paused as boolean,
  );
  assert.equal(paused, true, 'the player stopped');
  assert.equal(((await viewer.locator('#status').textContent()) ?? '').trim(), 'Unavailable');
  await screenshotBothWidths(viewer, 'moderation-watch-removed');

  // The audit log shows it.
  await admin.goto(`${server.origin}/admin/audit`);
  assert.match((await admin.locator('#audit-log').textContent()) ?? '', /user\.suspend/);
  await screenshotBothWidths(admin, 'moderation-admin-audit');

  // The creator signs in and reads why.
  await admin.getByRole('button', { name: 'Sign out' }).click();
  await admin.goto(`${server.origin}/sign-in?next=/dashboard`);
  await admin.getByLabel('Email').fill('rex@example.com');
  await admin.getByLabel('Password').fill(PASSWORD);
  await Promise.all([
    // The path: the sign-in page's own URL (?next=/dashboard) would match a pattern at once.
    admin.waitForURL((url) => url.pathname.startsWith('/dashboard')),
    admin.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  assert.match((await admin.locator('#suspension-reason').textContent()) ?? '', /card numbers/);
  await screenshotBothWidths(admin, 'moderation-suspended');
  assert.deepEqual(pageErrors, []);
});
