// Addresses with nothing behind them, in headless Chromium (issue 28): a browser gets the site's
// styled 404 page with its header (and the signed-in user in it), for an unknown address and for
// /watch/ of an id with nothing to watch; API clients keep the JSON envelope: anything under /v1,
// and elsewhere any request that does not ask for HTML (fetch, curl, the SDK). The pages pass axe;
// screenshots at 390 and 1440 px (TEST_SCREENSHOT_DIR).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { systemClock } from '../../src/shared/clock.ts';
import { startTestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/media-browser.ts';
import { signInBrowser, signUp } from '../helpers/web.ts';
import { expectNoSeriousAxeViolations, screenshotBothWidths } from '../helpers/web-browser.ts';

const PASSWORD = 'browser test password';
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** The page is the site's: its header and navigation, app.css applied, the 404 said plainly. */
async function expectSitePage(page: Page, heading: string): Promise<void> {
  assert.equal(
    await page.locator('header.site-header nav[aria-label="Main"] a.brand').textContent(),
    'Tributary',
  );
  assert.equal(await page.locator('main h1').textContent(), heading);
  const styled = await page.evaluate(() => {
    const body = (globalThis as any).getComputedStyle((globalThis as any).document.body);
    return { background: body.backgroundColor, font: body.fontFamily };
  });
  assert.equal(styled.background, 'rgb(246, 247, 249)', 'app.css is applied');
  assert.match(styled.font, /system-ui/);
  await expectNoSeriousAxeViolations(page);
}

test('browsers get the site’s 404 page; API clients keep the JSON envelope', async (t) => {
  const server = await startTestApp(t, { dialect: 'sqlite', clock: systemClock, rateLimitPerIp: 10_000 });
  await signUp(server.origin, { name: 'Ada', email: 'ada@example.com', password: PASSWORD });
  const context = await launchBrowser(t);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('requestfailed', (request) => errors.push(`failed: ${request.url()}`));

  // A visitor: an unknown address.
  const nope = await page.goto(`${server.origin}/nope`);
  assert.ok(nope);
  assert.equal(nope.status(), 404);
  assert.match(nope.headers()['content-type'] ?? '', /^text\/html/);
  assert.match(nope.headers()['content-security-policy'] ?? '', /frame-ancestors 'none'/);
  await expectSitePage(page, 'Page not found');
  assert.match((await page.locator('#error-message').textContent()) ?? '', /There is no page at \/nope\./);
  assert.equal(await page.getByRole('link', { name: 'Sign in' }).count(), 1, 'the header of a visitor');
  await screenshotBothWidths(page, 'web-not-found');

  // /watch/ of an id with nothing to watch: the same page, the watch page's own words.
  const unknownWatch = await page.goto(`${server.origin}/watch/str_unknown`);
  assert.equal(unknownWatch?.status(), 404);
  await expectSitePage(page, 'Page not found');
  assert.match((await page.locator('#error-message').textContent()) ?? '', /Nothing to watch here/);
  await screenshotBothWidths(page, 'web-watch-not-found');

  // Signed in, the header says who (an unknown address is outside the web app's routes).
  await signInBrowser(context, server.origin, { email: 'ada@example.com', password: PASSWORD });
  await page.goto(`${server.origin}/streams/nowhere?x=1`);
  await expectSitePage(page, 'Page not found');
  assert.equal(await page.locator('.nav-user').textContent(), 'Ada');
  assert.equal(await page.getByRole('link', { name: 'Your dashboard' }).getAttribute('href'), '/dashboard');
  assert.deepEqual(errors, []);

  // API clients: the envelope, whatever the path, unless they ask for HTML outside /v1.
  const json = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.origin}${path}`, { headers });
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/, path);
    return { status: response.status, body: (await response.json()) as { error: { code: string } } };
  };
  assert.deepEqual(await json('/nope'), {
    status: 404,
    body: { error: { code: 'route_not_found', message: 'No route matches GET /nope.' } },
  });
  assert.equal((await json('/nope', { accept: 'application/json' })).body.error.code, 'route_not_found');
  const underApi = await json('/v1/nope', { accept: BROWSER_ACCEPT });
  assert.equal(underApi.status, 401, 'under /v1 a browser gets the envelope too (no key: 401 first)');
  const api = await server.createAccount('Bo');
  const keyed = await json('/v1/nope', { accept: BROWSER_ACCEPT, authorization: `Bearer ${api.readKey}` });
  assert.deepEqual([keyed.status, keyed.body.error.code], [404, 'route_not_found']);
  const watchJson = await json('/watch/str_unknown', { accept: 'application/json' });
  assert.deepEqual([watchJson.status, watchJson.body.error.code], [404, 'resource_not_found']);
  // A POST to an unknown address from a form is a page as well.
  const posted = await fetch(`${server.origin}/nope`, {
    method: 'POST',
    headers: { accept: BROWSER_ACCEPT },
  });
  assert.equal(posted.status, 404);
  assert.match(posted.headers.get('content-type') ?? '', /^text\/html/);
  assert.match(await posted.text(), /class="site-header"/);
});
