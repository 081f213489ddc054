// The watch page as one of the site's pages, in headless Chromium (issue 28): the site header and
// navigation (with the signed-in user), app.css's colours and type rather than a white page of
// its own, the site's buttons, and an icon: /favicon.ico answers, and the page loads no address
// that fails. The player still plays (test/media/watch-browser.test.ts covers playback). Passes
// axe; screenshots at 390 and 1440 px (TEST_SCREENSHOT_DIR).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { launchBrowser } from '../helpers/media-browser.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { signInBrowser, signUp } from '../helpers/web.ts';
import { expectNoSeriousAxeViolations, screenshotBothWidths } from '../helpers/web-browser.ts';

const PASSWORD = 'browser test password';

test('the watch page has the site header, navigation and look, and the site has an icon', async (t) => {
  const server = await startMediaServer(t, { dialect: 'sqlite' });
  const creator = await server.createAccount('Ada Lovelace');
  const stream = await server.createStream(creator, {
    title: 'Evening jam',
    description: 'Tunes until late.',
    category: 'music',
  });
  await signUp(server.origin, { name: 'Bo Viewer', email: 'bo@example.com', password: PASSWORD });

  const context = await launchBrowser(t);
  const page = await context.newPage();
  const failures: string[] = [];
  page.on('pageerror', (error) => failures.push(error.message));
  page.on('response', (response) => {
    if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
  });

  // A visitor.
  const response = await page.goto(stream.stream_url);
  assert.equal(response?.status(), 200);
  const header = page.locator('header.site-header');
  assert.equal(await header.locator('a.brand').getAttribute('href'), '/');
  assert.equal(await header.getByRole('link', { name: 'Home' }).count(), 1);
  assert.equal(await header.getByRole('link', { name: 'Sign in' }).count(), 1);
  const look = await page.evaluate(() => {
    const style = (element: unknown) => (globalThis as any).getComputedStyle(element);
    const doc = (globalThis as any).document;
    return {
      background: style(doc.body).backgroundColor,
      font: style(doc.body).fontFamily,
      title: style(doc.querySelector('#title')).color,
      link: style(doc.querySelector('#creator')).color,
    };
  });
  assert.equal(look.background, 'rgb(246, 247, 249)', "the site's background, not a white page");
  assert.match(look.font, /system-ui/);
  assert.equal(look.title, 'rgb(27, 31, 36)', "the site's text colour");
  assert.equal(look.link, 'rgb(91, 43, 214)', "the site's link colour");
  // The Subscribe spot is the site's button.
  const signInToSubscribe = page.getByRole('link', { name: 'Sign in to subscribe' });
  await signInToSubscribe.waitFor();
  assert.equal(
    await signInToSubscribe.evaluate((a) => (globalThis as any).getComputedStyle(a).backgroundColor),
    'rgb(91, 43, 214)',
  );
  await expectNoSeriousAxeViolations(page);
  await screenshotBothWidths(page, 'viewer-watch-visitor');

  // The icon: the page's, and /favicon.ico where browsers look without being told.
  const icon = await page.locator('link[rel="icon"]').getAttribute('href');
  assert.equal(icon, '/assets/favicon.svg');
  const ico = await fetch(`${server.origin}/favicon.ico`);
  assert.equal(ico.status, 200);
  assert.equal(ico.headers.get('content-type'), 'image/x-icon');
  const bytes = Buffer.from(await ico.arrayBuffer());
  assert.deepEqual([...bytes.subarray(0, 4)], [0, 0, 1, 0], 'an ICO file');
  assert.equal((await page.goto(`${server.origin}/favicon.ico`))?.status(), 200);

  // Signed in: the header names the viewer; Subscribe is the site's primary button.
  await signInBrowser(context, server.origin, { email: 'bo@example.com', password: PASSWORD });
  await page.goto(stream.stream_url);
  assert.equal(await page.locator('header .nav-user').textContent(), 'Bo Viewer');
  assert.equal(await page.locator('header').getByRole('link', { name: 'Dashboard' }).count(), 1);
  const subscribe = page.locator('#subscribe button');
  await subscribe.waitFor();
  assert.equal((await subscribe.textContent())?.trim(), 'Subscribe');
  assert.match((await subscribe.getAttribute('class')) ?? '', /\bprimary\b/);
  await expectNoSeriousAxeViolations(page);
  await screenshotBothWidths(page, 'viewer-watch-signed-in');
  assert.deepEqual(failures, [], 'no failed request or script error');
});
