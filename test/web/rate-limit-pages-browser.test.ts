// The per-address request limit and the web app, in headless Chromium (issue 28): a signed-in
// user browsing quickly is counted against their own budget (the size of a key's), never the
// address's, so visitors on the same address running out of theirs do not stop them; when a
// budget does run out the refusal is the site's page, in words for the person refused, with the
// header still showing who is signed in. Programs without a key keep the API's message. The
// clock stands still (TestClock), so one window lasts the whole test.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { startTestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/media-browser.ts';
import { newAgent, signInBrowser, signUp } from '../helpers/web.ts';
import { expectNoSeriousAxeViolations, screenshotBothWidths } from '../helpers/web-browser.ts';

const PASSWORD = 'browser test password';
const PER_IP = 12;
const PER_USER = 60;

/** A signed-in browser page, and a visitor on the same address who has used up its budget. */
async function setUp(t: TestContext) {
  const server = await startTestApp(t, {
    dialect: 'sqlite',
    rateLimitPerIp: PER_IP,
    rateLimitPerKey: PER_USER,
  });
  await signUp(server.origin, { name: 'Ada', email: 'ada@example.com', password: PASSWORD });
  const context = await launchBrowser(t);
  await signInBrowser(context, server.origin, { email: 'ada@example.com', password: PASSWORD });
  const page = await context.newPage();
  const visitor = newAgent(server.origin);
  let refused: Response | undefined;
  for (let i = 0; i < PER_IP + 2 && !refused; i++) {
    const response = await visitor.get('/', { accept: 'text/html' });
    if (response.status === 429) refused = response;
    else await response.body?.cancel();
  }
  assert.ok(refused, 'the address ran out');
  return { server, page, visitor, refused };
}

test('a signed-in user browsing quickly is not refused when the address has run out', async (t) => {
  const { server, page, visitor, refused } = await setUp(t);
  await refused.body?.cancel();
  const paths = [
    '/dashboard/streams',
    '/dashboard/videos',
    '/dashboard/ingest',
    '/dashboard/keys',
    '/',
    '/account',
  ];
  for (let i = 0; i < 3 * PER_IP; i++) {
    const path = paths[i % paths.length] ?? '/';
    const response = await page.goto(`${server.origin}${path}`);
    assert.equal(response?.status(), 200, `${path} (view ${i + 1})`);
    assert.equal(await page.locator('header .nav-user').textContent(), 'Ada');
  }
  assert.equal((await visitor.get('/', { accept: 'text/html' })).status, 429, 'visitors are still refused');
});

test('the refusal fits who is refused: a visitor, a signed-in user, a program without a key', async (t) => {
  const { server, page, refused } = await setUp(t);
  // A visitor's browser: the site's page, about page requests from the address.
  assert.match(refused.headers.get('content-type') ?? '', /^text\/html/);
  const refusal = await refused.text();
  assert.match(refusal, /class="site-header"/);
  assert.match(
    refusal,
    /More than 12 page requests came from this address this minute; wait \d+ seconds?, then reload the page\. Signing in gives you a budget of your own\./,
  );
  assert.doesNotMatch(refusal, /unauthenticated/);

  // A program without a key on the same address: the API's own words, in the envelope.
  const anonymousApi = await fetch(`${server.origin}/healthz/nope`);
  assert.equal(anonymousApi.status, 429);
  const envelope = (await anonymousApi.json()) as { error: { code: string; message: string } };
  assert.equal(envelope.error.code, 'rate_limit_exceeded');
  assert.match(envelope.error.message, /unauthenticated requests came from this address/);

  // A signed-in user's own budget, run out: the page says so to them, and still who they are.
  let status = 200;
  for (let i = 0; i <= PER_USER && status !== 429; i++) {
    status = (await page.goto(`${server.origin}/dashboard/streams`))?.status() ?? 0;
  }
  assert.equal(status, 429);
  assert.equal(await page.locator('main h1').textContent(), 'Too many requests');
  assert.match(
    (await page.locator('#error-message').textContent()) ?? '',
    /^Your account has made more than 60 requests this minute; wait \d+ seconds?, then reload the page\.$/,
  );
  assert.equal(await page.locator('header .nav-user').textContent(), 'Ada', 'the header still says who');
  assert.equal(await page.getByRole('link', { name: 'Sign in' }).count(), 0);
  await expectNoSeriousAxeViolations(page);
  await screenshotBothWidths(page, 'web-too-many-requests');
});
