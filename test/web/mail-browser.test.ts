// The mail flows in headless Chromium against a real server and a real SMTP server on
// loopback (issue 27): sign up and confirm the address from the mailed link, forget and reset
// the password, subscribe on a channel page and get its go-live mail, and stop those mails in
// one click. Screenshots of each page at 390 and 1440 px, axe at both.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { launchBrowser } from '../helpers/media-browser.ts';
import { startTestApp } from '../helpers/app.ts';
import { linkIn, startSmtpReceiver } from '../helpers/smtp.ts';
import { screenshotBothWidths } from '../helpers/web-browser.ts';

const PASSWORD = 'a long enough password';

test('sign up, confirm, forget and reset the password, subscribe, get a go-live mail and stop it in one click', async (t) => {
  const smtp = await startSmtpReceiver(t);
  const server = await startTestApp(t, { dialect: 'sqlite', mail: { smtpUrl: smtp.url } });
  /** A mailed link (under PUBLIC_URL) opened on the test server. */
  const local = (url: string) => `${server.origin}${new URL(url).pathname}`;
  const context = await launchBrowser(t);
  const page = await context.newPage();

  await page.goto(`${server.origin}/sign-up`);
  await page.getByLabel('Name').fill('Grace');
  await page.getByLabel('Email').fill('grace@example.com');
  await page.getByLabel('Password').fill(PASSWORD);
  await Promise.all([
    page.waitForURL(/\/dashboard/),
    page.getByRole('button', { name: 'Create account' }).click(),
  ]);
  await page.goto(`${server.origin}/account`);
  assert.match((await page.locator('#verify-notice').textContent()) ?? '', /Confirm your address/);
  await screenshotBothWidths(page, 'mail-account-unconfirmed');

  const confirmation = await smtp.waitFor((m) => m.subject.startsWith('Confirm your email'));
  await page.goto(local(linkIn(confirmation, '/verify-email/')));
  await screenshotBothWidths(page, 'mail-verify-confirm');
  await page.getByRole('button', { name: 'Confirm my address' }).click();
  await page.locator('#verified').waitFor();
  assert.match((await page.locator('#verified').textContent()) ?? '', /grace@example\.com is confirmed/);
  await screenshotBothWidths(page, 'mail-verify-done');

  // Forgot password, from the sign-in page.
  await context.clearCookies();
  await page.goto(`${server.origin}/sign-in`);
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await page.getByLabel('Email').fill('grace@example.com');
  await screenshotBothWidths(page, 'mail-forgot');
  await page.getByRole('button', { name: 'Mail me a link' }).click();
  await page.locator('#forgot-sent').waitFor();
  await screenshotBothWidths(page, 'mail-forgot-sent');
  const reset = await smtp.waitFor((m) => m.subject === 'Reset your Tributary password');
  await page.goto(local(linkIn(reset, '/reset-password/')));
  await page.getByLabel(/New password/).fill('my brand new password');
  await screenshotBothWidths(page, 'mail-reset');
  await Promise.all([
    page.waitForURL(/\/account\?reset=1/),
    page.getByRole('button', { name: 'Save the new password' }).click(),
  ]);
  assert.match(
    (await page.locator('#account-notice').textContent()) ?? '',
    /Every other session is signed out/,
  );
  await screenshotBothWidths(page, 'mail-reset-done');

  // Subscribe on a channel page; the channel goes live; the mail's one-click link stops them.
  const creator = await server.createAccount('Evening Radio');
  await page.goto(`${server.origin}/channels/${creator.userId}`);
  await page.getByRole('button', { name: 'Subscribe' }).click();
  // subscribe.js subscribes without a reload; the mail setting shows with the page's next load.
  await page.getByRole('button', { name: 'Unsubscribe' }).waitFor();
  await page.reload();
  await page.getByText('You get a mail when this channel goes live.').waitFor();
  await screenshotBothWidths(page, 'mail-channel-notify');
  const stream = await server.createStream(creator, { title: 'Late show' });
  await server.services.streams.goLive(stream.id);
  const live = await smtp.waitFor((m) => m.subject === 'Evening Radio is live: Late show');
  assert.deepEqual(live.to, ['grace@example.com']);
  const unsubscribe = /^<([^>]+)>$/.exec(live.header('list-unsubscribe') ?? '')?.[1] ?? '';
  await page.goto(local(unsubscribe));
  await screenshotBothWidths(page, 'mail-unsubscribe');
  await page.getByRole('button', { name: 'Stop these mails' }).click();
  await page.locator('#unsubscribed').waitFor();
  await screenshotBothWidths(page, 'mail-unsubscribed');
  await page.goto(`${server.origin}/channels/${creator.userId}`);
  await page.getByText('Go-live mails are off for this channel.').waitFor();
});
