// web-core's pages in headless Chromium, driven like a person would: sign up with the
// keyboard, make a key and copy it with the button, use it, revoke it, the account page, sign
// out and back in, a sign-in link. Every page: no serious or critical axe-core violation, no
// CSP or script error, and screenshots at 390 and 1440 px (TEST_SCREENSHOT_DIR).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { systemClock } from '../../src/shared/clock.ts';
import { startTestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/media-browser.ts';
import { signInBrowser } from '../helpers/web.ts';
import { expectNoSeriousAxeViolations, screenshotBothWidths } from '../helpers/web-browser.ts';

const PASSWORD = 'browser test password';

/** Axe, screenshots, and no error in the console (a CSP refusal is one). */
async function checkPage(page: Page, name: string, errors: string[]): Promise<void> {
  await screenshotBothWidths(page, `web-core-${name}`);
  await expectNoSeriousAxeViolations(page);
  assert.deepEqual(errors, [], `console errors on ${name}`);
}

test('sign up, make, copy, use and revoke a key, the account page, sign out and in, a sign-in link', async (t) => {
  const server = await startTestApp(t, { dialect: 'sqlite', clock: systemClock, rateLimitPerIp: 10_000 });
  const context = await launchBrowser(t);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    // A page answered with 401 or 404 on purpose is reported too; only its resources count.
    if (message.type() === 'error' && message.location().url !== page.url()) {
      errors.push(`${message.text()} ${message.location().url}`);
    }
  });
  page.on('pageerror', (error) => errors.push(error.message));

  await page.goto(`${server.origin}/sign-up?next=/dashboard/keys`);
  await checkPage(page, 'sign-up', errors);
  // By keyboard: the skip link first, then the navigation, then the form.
  await page.keyboard.press('Tab');
  assert.equal(
    await page.evaluate(() => (globalThis as any).document.activeElement.textContent),
    'Skip to content',
  );
  await page.getByLabel('Name').fill('Ada <Lovelace>');
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Password').fill(PASSWORD);
  await Promise.all([page.waitForURL(/\/dashboard\/keys$/), page.keyboard.press('Enter')]);
  assert.equal(await page.locator('.nav-user').textContent(), 'Ada <Lovelace>', 'escaped, shown as typed');
  await checkPage(page, 'keys-empty', errors);

  await page.getByLabel('Scope').selectOption('write');
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = await page.locator('#new-key').inputValue();
  assert.match(key, /^tk_[0-9A-Za-z]{32}$/);
  await page.getByRole('button', { name: 'Copy' }).click();
  await page.getByRole('button', { name: 'Copied' }).waitFor();
  assert.equal(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText()), key);
  await checkPage(page, 'keys-created', errors);

  const used = await server.request('POST', '/v1/streams', { key, body: { title: 'From the page key' } });
  assert.equal(used.status, 201);
  await page.goto(`${server.origin}/dashboard/keys`);
  assert.equal(await page.locator('#new-key').count(), 0, 'shown once');
  // Revoking asks first; confirmed, the page it redirects to says so (a reload sends nothing).
  await page.getByRole('button', { name: `Revoke key ending in ${key.slice(-4)}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke key?' });
  await confirm.waitFor();
  await checkPage(page, 'keys-revoke-confirm', errors);
  await Promise.all([
    page.waitForURL(/\/dashboard\/keys\?revoked=key_\w+$/),
    confirm.getByRole('button', { name: 'Revoke key' }).click(),
  ]);
  await page.getByText('the API refuses it within a second').waitFor();
  await checkPage(page, 'keys-revoked', errors);

  await page.getByRole('link', { name: 'Ada <Lovelace>' }).click();
  await page.waitForURL(/\/account$/);
  await checkPage(page, 'account', errors);

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.waitForURL(/\/sign-in$/);
  await checkPage(page, 'sign-in', errors);
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').waitFor();
  assert.equal(await page.getByLabel('Password').getAttribute('aria-invalid'), 'true');
  await checkPage(page, 'sign-in-failed', errors);

  await signInBrowser(context, server.origin, { email: 'ada@example.com', password: PASSWORD });
  await page.goto(`${server.origin}/account`);
  assert.equal(page.url(), `${server.origin}/account`, 'the context is signed in');

  // A CLI-made user (no email) with a one-time link: asked first, then signed in, once.
  const demo = await server.services.accounts.createUser('Demo creator');
  const token = await server.services.logins.createSignInLink(demo.id);
  const other = await context.browser()?.newContext();
  const linkPage = other ? await other.newPage() : await context.newPage();
  t.after(() => other?.close());
  const linkErrors: string[] = [];
  linkPage.on('console', (message) => {
    if (message.type() === 'error' && message.location().url !== linkPage.url()) {
      linkErrors.push(`${message.text()} ${message.location().url}`);
    }
  });
  await page.context().clearCookies();
  await linkPage.goto(`${server.origin}/sign-in/link/${token}`);
  await checkPage(linkPage, 'sign-in-link', linkErrors);
  await linkPage.getByRole('button', { name: 'Sign in as Demo creator' }).click();
  await linkPage.waitForURL(/\/account$/);
  assert.match((await linkPage.locator('main').textContent()) ?? '', /Set an email and a password/);
  await checkPage(linkPage, 'account-without-email', linkErrors);
  await linkPage.getByRole('button', { name: 'Sign out', exact: true }).click();
  await linkPage.waitForURL(/\/sign-in$/);
  const reused = await linkPage.goto(`${server.origin}/sign-in/link/${token}`);
  assert.equal(reused?.status(), 404);
  await checkPage(
    linkPage,
    'sign-in-link-used',
    linkErrors.filter((e) => !e.includes('404')),
  );
});
