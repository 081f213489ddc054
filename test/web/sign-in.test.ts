// Sign-up, sign-in and sign-out through the real forms on a real server, on both databases:
// the session cookie's flags, a signed-out cookie that opens nothing, sign-out everywhere,
// throttled sign-ins, and SIGNUPS=closed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  ACCOUNT_FAILURE_LIMIT,
  ADDRESS_FAILURE_LIMIT,
  SIGN_IN_WINDOW_MS,
} from '../../src/accounts/login.service.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { SESSION_IDLE_MS } from '../../src/accounts/session.service.ts';
import { startTestApp } from '../helpers/app.ts';
import { TestClock } from '../helpers/clock.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { newAgent, signIn, signUp } from '../helpers/web.ts';

const PASSWORD = 'correct horse battery';

for (const dialect of DIALECTS) {
  test(`${dialect}: sign up, signed in, sign out, and the old cookie opens nothing`, async (t) => {
    const server = await startTestApp(t, { dialect });
    const agent = newAgent(server.origin);
    const form = await agent.get('/sign-up');
    assert.equal(form.status, 200);
    assert.match(form.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    assert.match(await form.text(), /<label for="email">Email<\/label>/);

    const created = await agent.post('/sign-up', {
      name: 'Ada',
      email: 'Ada@Example.com',
      password: PASSWORD,
    });
    assert.equal(created.status, 303);
    assert.equal(created.headers.get('location'), '/dashboard');
    const cookie = created.headers.getSetCookie().find((c) => c.startsWith('tributary_session='));
    assert.ok(cookie, 'a session cookie is set');
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Lax/);
    assert.doesNotMatch(cookie, /Secure/, 'http PUBLIC_URL: not Secure');

    const account = await agent.get('/account');
    assert.equal(account.status, 200);
    assert.equal(account.headers.get('cache-control'), 'no-store');
    const page = await account.text();
    assert.match(page, /ada@example\.com/, 'the email is stored lower-cased');
    assert.match(page, /class="nav-user"\s+href="\/account"[^>]*><span class="nav-user-name">Ada</);

    const stolen = agent.cookie;
    const out = await agent.post('/sign-out', {});
    assert.equal(out.status, 303);
    const replay = await fetch(`${server.origin}/account`, {
      headers: { cookie: stolen },
      redirect: 'manual',
    });
    assert.equal(replay.status, 303, 'the signed-out cookie is useless');
    assert.equal(replay.headers.get('location'), '/sign-in?next=%2Faccount');

    const again = await signIn(server.origin, { email: 'ada@example.com', password: PASSWORD });
    assert.equal((await again.get('/account')).status, 200);
  });

  test(`${dialect}: sign-out everywhere ends every session of the account`, async (t) => {
    const server = await startTestApp(t, { dialect });
    const first = await signUp(server.origin, { name: 'Bo', email: 'bo@example.com', password: PASSWORD });
    const second = await signIn(server.origin, { email: 'bo@example.com', password: PASSWORD });
    const other = await signUp(server.origin, { name: 'Cy', email: 'cy@example.com', password: PASSWORD });
    assert.equal((await second.get('/account')).status, 200);
    const res = await first.post('/sign-out-everywhere', {});
    assert.equal(res.status, 303);
    assert.equal((await first.get('/account')).status, 303);
    assert.equal((await second.get('/account')).status, 303, 'the other device is signed out too');
    assert.equal((await other.get('/account')).status, 200, "another account's session is untouched");
  });

  test(`${dialect}: a wrong password, an unknown email and a duplicate sign-up are answered on the form`, async (t) => {
    const server = await startTestApp(t, { dialect });
    await signUp(server.origin, { name: 'Di', email: 'di@example.com', password: PASSWORD });
    const agent = newAgent(server.origin);
    const wrong = await agent.post('/sign-in', { email: 'di@example.com', password: 'not the password' });
    assert.equal(wrong.status, 401);
    const text = await wrong.text();
    assert.match(text, /role="alert"[^>]*>The email or the password is not right\./);
    assert.match(text, /value="di@example\.com"/, 'the email is kept in the form');
    const unknown = await agent.post('/sign-in', { email: 'nobody@example.com', password: PASSWORD });
    assert.equal(unknown.status, 401);
    const taken = await agent.post('/sign-up', { name: 'Di 2', email: 'DI@example.com', password: PASSWORD });
    assert.equal(taken.status, 409);
    assert.match(await taken.text(), /already exists/);
    const short = await agent.post('/sign-up', { name: 'Ed', email: 'ed@example.com', password: 'short' });
    assert.equal(short.status, 400);
    assert.match(await short.text(), /id="password"[^>]*aria-invalid="true"/);
    // A script that asks for JSON gets the API's envelope, with the same status and code.
    const scripted = await agent.post(
      '/sign-in',
      { email: 'di@example.com', password: 'not the password' },
      { accept: 'application/json' },
    );
    assert.equal(scripted.status, 401);
    assert.match(scripted.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(((await scripted.json()) as { error: { code: string } }).error.code, 'invalid_credentials');
  });
}

for (const dialect of DIALECTS) {
  test(`${dialect}: failed sign-ins are throttled per account and per address`, async (t) => {
    const clock = new TestClock();
    const server = await startTestApp(t, { dialect, clock });
    await signUp(server.origin, { name: 'Fe', email: 'fe@example.com', password: PASSWORD });
    const attacker = newAgent(server.origin);
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT; i++) {
      const res = await attacker.post('/sign-in', { email: 'fe@example.com', password: `guess ${i}` });
      assert.equal(res.status, 401, `attempt ${i + 1}`);
    }
    // Now even the right password is refused, without being checked, until the window passes.
    const locked = await attacker.post('/sign-in', { email: 'FE@example.com', password: PASSWORD });
    assert.equal(locked.status, 429);
    assert.equal(locked.headers.get('retry-after'), '900');
    assert.match(await locked.text(), /Too many failed sign-ins/);
    clock.advance(SIGN_IN_WINDOW_MS + 1000);
    const after = await attacker.post('/sign-in', { email: 'fe@example.com', password: PASSWORD });
    assert.equal(after.status, 303, 'the account opens again once the failures are older than the window');

    // Per address: failures spread over many accounts still stop this address.
    for (let i = 0; i < ADDRESS_FAILURE_LIMIT; i++) {
      const res = await attacker.post('/sign-in', {
        email: `victim${i}@example.com`,
        password: 'wrong guess',
      });
      assert.equal(res.status, 401, `address attempt ${i + 1}`);
    }
    const blocked = await newAgent(server.origin).post('/sign-in', {
      email: 'fe@example.com',
      password: PASSWORD,
    });
    assert.equal(blocked.status, 429, 'the address is throttled, whatever account it tries');
  });

  test(`${dialect}: SIGNUPS=closed refuses the sign-up form; existing users still sign in`, async (t) => {
    const server = await startTestApp(t, { dialect, signups: 'closed' });
    await server.services.logins.createUser({ name: 'Op', email: 'op@example.com', password: PASSWORD });
    const agent = newAgent(server.origin);
    const form = await agent.get('/sign-up');
    assert.equal(form.status, 200);
    const text = await form.text();
    assert.match(text, /Sign-ups are closed/);
    assert.doesNotMatch(text, /name="password"/);
    const refused = await agent.post('/sign-up', {
      name: 'Gil',
      email: 'gil@example.com',
      password: PASSWORD,
    });
    assert.equal(refused.status, 403);
    assert.match(await refused.text(), /Sign-ups are closed on this server/);
    assert.equal(
      await server.services.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'gil@example.com')
        .executeTakeFirst(),
      undefined,
    );
    assert.doesNotMatch(await (await agent.get('/sign-in')).text(), /Create an account/);
    await signIn(server.origin, { email: 'op@example.com', password: PASSWORD });
  });
}

test('sessions slide: used within 14 days they live on, unused they end; https makes cookies Secure', async (t) => {
  const clock = new TestClock();
  const server = await startTestApp(t, { dialect: 'sqlite', clock, publicUrl: 'https://tributary.example' });
  const agent = newAgent(server.origin);
  const res = await agent.post('/sign-up', { name: 'Hu', email: 'hu@example.com', password: PASSWORD });
  assert.equal(res.status, 303);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('__Host-tributary_session='));
  assert.ok(cookie, 'https: the session cookie takes the __Host- prefix');
  assert.match(cookie, /; Secure/);
  assert.match(cookie, /Path=\/; HttpOnly; SameSite=Lax; Max-Age=1209600/);

  const days = 24 * 60 * 60_000;
  clock.advance(10 * days);
  const used = await agent.get('/account');
  assert.equal(used.status, 200);
  assert.ok(
    used.headers.getSetCookie().some((c) => c.startsWith('__Host-tributary_session=')),
    'renewed',
  );
  clock.advance(10 * days);
  assert.equal((await agent.get('/account')).status, 200, '20 days in, alive because it was used at day 10');
  clock.advance(SESSION_IDLE_MS + 1000);
  assert.equal((await agent.get('/account')).status, 303, 'unused for 14 days: ended');
});

test('changing the password on /account signs the other sessions out and keeps this one', async (t) => {
  const server = await startTestApp(t, { dialect: 'sqlite' });
  const here = await signUp(server.origin, { name: 'Io', email: 'io@example.com', password: PASSWORD });
  const there = await signIn(server.origin, { email: 'io@example.com', password: PASSWORD });
  const wrong = await here.post('/account/password', {
    current_password: 'not it at all',
    password: 'a new password!',
  });
  assert.equal(wrong.status, 401);
  assert.equal((await there.get('/account')).status, 200, 'a failed change changes nothing');
  const changed = await here.post('/account/password', {
    current_password: PASSWORD,
    password: 'a new password!',
  });
  assert.equal(changed.status, 200);
  assert.match(await changed.text(), /Your password is saved/);
  assert.equal((await here.get('/account')).status, 200);
  assert.equal((await there.get('/account')).status, 303);
  await signIn(server.origin, { email: 'io@example.com', password: 'a new password!' });
});

test('wrong current passwords on /account are throttled like sign-ins: the 11th try is refused, even with the right one, until the window passes', async (t) => {
  const clock = new TestClock();
  const server = await startTestApp(t, { dialect: 'sqlite', clock });
  const session = await signUp(server.origin, { name: 'Pax', email: 'pax@example.com', password: PASSWORD });
  for (let i = 0; i < ACCOUNT_FAILURE_LIMIT; i += 1) {
    const wrong = await session.post('/account/password', {
      current_password: `guess number ${i}`,
      password: 'a new password!',
    });
    assert.equal(wrong.status, 401, `guess ${i}`);
  }
  const refused = await session.post('/account/password', {
    current_password: PASSWORD,
    password: 'a new password!',
  });
  assert.equal(refused.status, 429);
  assert.equal(refused.headers.get('retry-after'), '900');
  assert.match(await refused.text(), /Too many wrong current passwords/);
  // Asked for as JSON: the envelope, still saying when to come back.
  const scripted = await session.post(
    '/account/password',
    { current_password: PASSWORD, password: 'a new password!' },
    { accept: 'application/json' },
  );
  assert.equal(scripted.status, 429);
  assert.equal(scripted.headers.get('retry-after'), '900');
  assert.equal(((await scripted.json()) as { error: { code: string } }).error.code, 'rate_limit_exceeded');
  await signIn(server.origin, { email: 'pax@example.com', password: PASSWORD });

  clock.advance(SIGN_IN_WINDOW_MS + 1);
  const changed = await session.post('/account/password', {
    current_password: PASSWORD,
    password: 'a new password!',
  });
  assert.equal(changed.status, 200);
  await signIn(server.origin, { email: 'pax@example.com', password: 'a new password!' });
});

test('SIGNUPS is open unless set, and only open or closed', () => {
  assert.equal(loadConfig({ DATABASE_URL: ':memory:' }).signups, 'open');
  assert.equal(loadConfig({ DATABASE_URL: ':memory:', SIGNUPS: 'closed' }).signups, 'closed');
  assert.throws(
    () => loadConfig({ DATABASE_URL: ':memory:', SIGNUPS: 'maybe' }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /SIGNUPS must be one of open, closed \(got "maybe"\)/);
      return true;
    },
  );
});
