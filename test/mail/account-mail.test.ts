// Email verification and "forgot password" over HTTP against the real server, with a real
// SMTP server on loopback receiving the links (both databases for the main flows).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  EMAIL_TOKEN_TTL_MS,
  RESET_CLIENT_LIMIT,
  RESET_EMAIL_LIMIT,
} from '../../src/accounts/login.service.ts';
import { startTestApp } from '../helpers/app.ts';
import { TestClock } from '../helpers/clock.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { linkIn, startSmtpReceiver } from '../helpers/smtp.ts';
import { newAgent, signIn, signUp } from '../helpers/web.ts';

const PASSWORD = 'correct horse battery';

/** The path of a mailed link (its origin is PUBLIC_URL, not the test server's). */
function pathOf(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

for (const dialect of DIALECTS) {
  test(`${dialect}: sign-up mails a confirmation link; unconfirmed accounts cannot create keys; the link works once`, async (t) => {
    const smtp = await startSmtpReceiver(t);
    const server = await startTestApp(t, { dialect, mail: { smtpUrl: smtp.url } });
    const agent = await signUp(server.origin, { name: 'Ada', email: 'Ada@Example.com', password: PASSWORD });
    const mail = await smtp.waitFor((m) => m.to.includes('ada@example.com'));
    assert.equal(mail.subject, 'Confirm your email address for Tributary');
    const link = linkIn(mail, '/verify-email/');
    assert.ok(link.startsWith('http://media.test/verify-email/'), 'the link is under PUBLIC_URL');

    const account = await (await agent.get('/account')).text();
    assert.match(account, /id="verify-notice"/);
    assert.match(account, /not go live, publish videos or create API keys/);
    assert.match(
      await (await agent.get('/dashboard/keys')).text(),
      /id="verify-notice"/,
      'the keys page says so',
    );
    const refused = await agent.post('/dashboard/keys', { scope: 'read' });
    assert.equal(refused.status, 403);
    assert.match(await refused.text(), /Confirm your email address first/);
    const upload = await server.services.uploads
      .create({
        creatorId: (
          await server.services.logins.signIn({ email: 'ada@example.com', password: PASSWORD, address: 'x' })
        ).id,
        size: 1000,
        title: 'Clip',
      })
      .then(
        () => 'created',
        (error: unknown) => (error as { code?: string }).code,
      );
    assert.equal(upload, 'email_unverified', 'no publishing either');

    const confirm = await agent.get(pathOf(link));
    assert.equal(confirm.status, 200);
    assert.match(await confirm.text(), /Confirm my address/);
    assert.equal((await agent.get('/account')).status, 200, 'opening the link spends nothing');
    const used = await agent.post(pathOf(link), { _csrf: await agent.csrf('/account') });
    assert.equal(used.status, 200);
    assert.match(await used.text(), /ada@example\.com is confirmed/);
    const again = await agent.post(pathOf(link), { _csrf: await agent.csrf('/account') });
    assert.equal(again.status, 404, 'single use');
    assert.doesNotMatch(await (await agent.get('/account')).text(), /id="verify-notice"/);
    const created = await agent.post('/dashboard/keys', { scope: 'read' });
    assert.equal(created.status, 303, 'confirmed: keys may be created');
  });

  test(`${dialect}: forgot password: one answer for every address, a link that works once, within the hour, and signs everyone else out`, async (t) => {
    const smtp = await startSmtpReceiver(t);
    const clock = new TestClock();
    const server = await startTestApp(t, { dialect, clock, mail: { smtpUrl: smtp.url } });
    await signUp(server.origin, { name: 'Bo', email: 'bo@example.com', password: PASSWORD });
    await smtp.waitForCount(1); // the confirmation
    const elsewhere = await signIn(server.origin, { email: 'bo@example.com', password: PASSWORD });
    const visitor = newAgent(server.origin);

    const unknown = await visitor.post('/forgot-password', { email: 'nobody@example.com' });
    const known = await visitor.post('/forgot-password', { email: 'BO@example.com.' });
    assert.equal(unknown.status, 200);
    assert.equal(known.status, 200);
    const strip = (text: string) => text.replace(/name="_csrf" value="[^"]+"/g, '');
    assert.equal(strip(await unknown.text()), strip(await known.text()), 'the same page either way');
    const first = await smtp.waitFor((m) => m.subject === 'Reset your Tributary password');
    assert.equal(smtp.mails.filter((m) => m.to.includes('nobody@example.com')).length, 0);

    // A newer link makes the older one useless.
    await visitor.post('/forgot-password', { email: 'bo@example.com' });
    await smtp.waitForCount(3);
    const older = pathOf(linkIn(first, '/reset-password/'));
    const newer = pathOf(linkIn(smtp.mails[2]!, '/reset-password/'));
    assert.equal((await visitor.get(older)).status, 404);
    assert.equal((await visitor.get(newer)).status, 200);

    const short = await visitor.post(newer, { password: 'short' });
    assert.equal(short.status, 400, 'a too-short password is answered on the form; the link stays');
    const reset = await visitor.post(newer, { password: 'a whole new password' });
    assert.equal(reset.status, 303);
    assert.equal(reset.headers.get('location'), '/account?reset=1');
    assert.match(await (await visitor.get('/account?reset=1')).text(), /Every other session is signed out/);
    assert.equal((await elsewhere.get('/account')).status, 303, 'the other session is signed out');
    assert.equal((await visitor.post(newer, { password: 'yet another password' })).status, 404, 'used');
    await signIn(server.origin, { email: 'bo@example.com', password: 'a whole new password' });

    // Expiry within the hour, and a password change kills a pending link.
    await visitor.post('/forgot-password', { email: 'bo@example.com' });
    await smtp.waitForCount(4);
    const late = pathOf(linkIn(smtp.mails[3]!, '/reset-password/'));
    clock.advance(EMAIL_TOKEN_TTL_MS.reset + 1000);
    assert.equal((await visitor.get(late)).status, 404, 'expired after an hour');
    clock.advance(3_600_000); // the per-address count moves on
    await visitor.post('/forgot-password', { email: 'bo@example.com' });
    await smtp.waitForCount(5);
    const pending = pathOf(linkIn(smtp.mails[4]!, '/reset-password/'));
    const owner = await signIn(server.origin, { email: 'bo@example.com', password: 'a whole new password' });
    const changed = await owner.post('/account/password', {
      current_password: 'a whole new password',
      password: 'changed on the account page',
    });
    assert.equal(changed.status, 200);
    assert.equal((await visitor.get(pending)).status, 404, 'a password change voids the link');
  });
}

test('password resets are throttled per client (429) and, silently, per address', async (t) => {
  const smtp = await startSmtpReceiver(t);
  const server = await startTestApp(t, {
    dialect: 'sqlite',
    mail: { smtpUrl: smtp.url },
    rateLimitPerIp: 1000,
  });
  await server.services.logins.createUser({ name: 'Cy', email: 'cy@example.com', password: PASSWORD });
  const visitor = newAgent(server.origin);
  for (let i = 0; i < RESET_CLIENT_LIMIT; i++) {
    const res = await visitor.post('/forgot-password', { email: 'cy@example.com' });
    assert.equal(res.status, 200, `request ${i + 1}`);
  }
  const refused = await visitor.post('/forgot-password', { email: 'someone@example.com' });
  assert.equal(refused.status, 429);
  assert.equal(refused.headers.get('retry-after'), '3600');
  await smtp.waitForCount(RESET_EMAIL_LIMIT);
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(smtp.mails.length, RESET_EMAIL_LIMIT, 'one address gets at most 3 links an hour');
});

test('a new address is confirmed before it replaces the old one', async (t) => {
  const smtp = await startSmtpReceiver(t);
  const server = await startTestApp(t, { dialect: 'sqlite', mail: { smtpUrl: smtp.url } });
  await server.services.logins.createUser({ name: 'Di', email: 'di@example.com', password: PASSWORD });
  await server.services.logins.createUser({ name: 'Ed', email: 'ed@example.com', password: PASSWORD });
  const agent = await signIn(server.origin, { email: 'di@example.com', password: PASSWORD });
  const taken = await agent.post('/account/email', { email: 'ED@example.com', current_password: PASSWORD });
  assert.equal(taken.status, 409);
  const wrong = await agent.post('/account/email', {
    email: 'new@example.com',
    current_password: 'not it at all',
  });
  assert.equal(wrong.status, 401);
  const asked = await agent.post('/account/email', { email: 'New@Example.com', current_password: PASSWORD });
  assert.equal(asked.status, 303, 'redirected after the POST');
  assert.equal(asked.headers.get('location'), '/account?saved=email-link');
  assert.match(
    await (await agent.get('/account?saved=email-link')).text(),
    /We mailed a link to the new address/,
  );
  const mail = await smtp.waitFor((m) => m.to.includes('new@example.com'));
  assert.equal(
    (
      await server.services.logins.findUser(
        (await server.services.logins.signIn({ email: 'di@example.com', password: PASSWORD, address: 'x' }))
          .id,
      )
    )?.email,
    'di@example.com',
    'unchanged until confirmed',
  );
  const link = pathOf(linkIn(mail, '/verify-email/'));
  assert.equal((await agent.post(link, { _csrf: await agent.csrf('/account') })).status, 200);
  assert.match(await (await agent.get('/account')).text(), /new@example\.com/);
  await signIn(server.origin, { email: 'new@example.com', password: PASSWORD });
});
