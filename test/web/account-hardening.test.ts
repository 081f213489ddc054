// What the last review of the account system found (issue 27), each through the real server:
// concurrent guesses counted atomically, the page limit per IPv6 /64, a `next` outside
// Latin-1, a sign-in link's token kept out of the access log, sessions' absolute lifetime,
// pruning, throttled sign-ups, normalized addresses and Strict-Transport-Security.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ACCOUNT_FAILURE_LIMIT, SIGNUP_ADDRESS_LIMIT } from '../../src/accounts/login.service.ts';
import { SESSION_MAX_AGE_MS } from '../../src/accounts/session.service.ts';
import { startAccountUpkeep } from '../../src/accounts/account-upkeep.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { startTestApp } from '../helpers/app.ts';
import { TestClock } from '../helpers/clock.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { newAgent, signIn, signUp } from '../helpers/web.ts';

const PASSWORD = 'correct horse battery';
const DAY = 24 * 60 * 60_000;

function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

for (const dialect of DIALECTS) {
  test(`${dialect}: 25 concurrent wrong passwords against a limit of 10: 10 are checked, 15 refused`, async (t) => {
    const server = await startTestApp(t, { dialect, rateLimitPerIp: 1000 });
    await signUp(server.origin, { name: 'Ka', email: 'ka@example.com', password: PASSWORD });
    const agents = Array.from({ length: 25 }, () => newAgent(server.origin));
    await Promise.all(agents.map((agent) => agent.csrf()));
    const statuses = await Promise.all(
      agents.map(async (agent, i) => {
        const res = await agent.post('/sign-in', { email: 'ka@example.com', password: `guess ${i}` });
        await res.body?.cancel();
        return res.status;
      }),
    );
    assert.deepEqual(tally(statuses), { 401: ACCOUNT_FAILURE_LIMIT, 429: 25 - ACCOUNT_FAILURE_LIMIT });
  });

  test(`${dialect}: 25 concurrent wrong current passwords on /account: 10 are checked, 15 refused`, async (t) => {
    const server = await startTestApp(t, { dialect, rateLimitPerIp: 1000, rateLimitPerKey: 1000 });
    const agent = await signUp(server.origin, { name: 'Lu', email: 'lu@example.com', password: PASSWORD });
    await agent.csrf();
    const statuses = await Promise.all(
      Array.from({ length: 25 }, async (_, i) => {
        const res = await agent.post('/account/password', {
          current_password: `guess number ${i}`,
          password: 'a brand new password',
        });
        await res.body?.cancel();
        return res.status;
      }),
    );
    assert.deepEqual(tally(statuses), { 401: ACCOUNT_FAILURE_LIMIT, 429: 25 - ACCOUNT_FAILURE_LIMIT });
    // A success takes its own reservation back: the right password still works once allowed.
  });
}

test('the page rate limit counts an IPv6 client by its /64', async (t) => {
  const server = await startTestApp(t, { dialect: 'sqlite', rateLimitPerIp: 5, trustProxy: true });
  const statuses: number[] = [];
  for (let i = 1; i <= 7; i++) {
    const res = await fetch(`${server.origin}/sign-in`, {
      headers: { 'x-forwarded-for': `2001:db8:1:2::${i.toString(16)}:${(i * 7).toString(16)}` },
    });
    await res.body?.cancel();
    statuses.push(res.status);
  }
  assert.deepEqual(
    statuses,
    [200, 200, 200, 200, 200, 429, 429],
    'seven addresses of one /64 share one budget',
  );
  const other = await fetch(`${server.origin}/sign-in`, {
    headers: { 'x-forwarded-for': '2001:db8:1:3::1' },
  });
  assert.equal(other.status, 200, 'another /64 has its own');
});

test('a `next` outside Latin-1 while signed in is sent on, encoded, not a 500', async (t) => {
  const server = await startTestApp(t, { dialect: 'sqlite' });
  const agent = await signUp(server.origin, { name: 'Mo', email: 'mo@example.com', password: PASSWORD });
  const res = await agent.get('/sign-in?next=/%C4%80');
  assert.equal(res.status, 303);
  assert.equal(res.headers.get('location'), '/%C4%80');
  const mixed = await agent.get('/sign-up?next=/channels/%E2%9C%93?x=%F0%9F%8E%A5');
  assert.equal(mixed.status, 303);
  assert.equal(mixed.headers.get('location'), '/channels/%E2%9C%93?x=%F0%9F%8E%A5');
});

test("a one-time sign-in link's token never reaches the access log", async (t) => {
  const server = await startTestApp(t, { dialect: 'sqlite', logger: 'capture' });
  const user = await server.services.accounts.createUser('Demo');
  const token = await server.services.logins.createSignInLink(user.id);
  const agent = newAgent(server.origin);
  assert.equal((await agent.get(`/sign-in/link/${token}`)).status, 200);
  const used = await agent.post(`/sign-in/link/${token}`, {
    _csrf: await agent.csrf(`/sign-in/link/${token}`),
  });
  assert.equal(used.status, 303);
  const lines = server.logs.filter((line) => line.includes('sign-in/link'));
  assert.ok(lines.length >= 2, 'the requests are logged');
  for (const line of lines) assert.ok(!line.includes(token), `the token is in a log line: ${line}`);
  assert.match(lines[0] ?? '', /"url":"\/sign-in\/link\/:token"/);
});

test('a session in constant use still ends 90 days after it started', async (t) => {
  const clock = new TestClock();
  const server = await startTestApp(t, { dialect: 'sqlite', clock });
  const agent = await signUp(server.origin, { name: 'Ny', email: 'ny@example.com', password: PASSWORD });
  let day = 0;
  while (day + 10 < SESSION_MAX_AGE_MS / DAY) {
    clock.advance(10 * DAY);
    day += 10;
    assert.equal((await agent.get('/account')).status, 200, `day ${day}: used every ten days, alive`);
  }
  clock.advance(SESSION_MAX_AGE_MS - day * DAY + 1000);
  assert.equal((await agent.get('/account')).status, 303, 'past the absolute lifetime: signed out');
  assert.equal(
    (await newAgent(server.origin).post('/sign-in', { email: 'ny@example.com', password: PASSWORD })).status,
    303,
  );
});

for (const dialect of DIALECTS) {
  test(`${dialect}: the upkeep prunes old failures, expired sessions and spent links`, async (t) => {
    const clock = new TestClock();
    const server = await startTestApp(t, { dialect, clock });
    const { db } = server.services.database;
    await signUp(server.origin, { name: 'Ox', email: 'ox@example.com', password: PASSWORD });
    await newAgent(server.origin).post('/sign-in', { email: 'ox@example.com', password: 'wrong one!!' });
    const user = await server.services.accounts.createUser('Linked');
    await server.services.logins.redeemSignInLink(await server.services.logins.createSignInLink(user.id));
    const count = async (table: 'sign_in_failures' | 'web_sessions' | 'sign_in_links') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    assert.ok((await count('sign_in_failures')) > 0);
    assert.equal(await count('web_sessions'), 1);
    assert.equal(await count('sign_in_links'), 1);
    clock.advance(SESSION_MAX_AGE_MS + DAY);
    const upkeep = startAccountUpkeep(server.services.logins, createLogger('silent'), 60_000);
    t.after(() => {
      upkeep.stop();
    });
    const deadline = Date.now() + 10_000;
    while (
      (await count('web_sessions')) + (await count('sign_in_failures')) + (await count('sign_in_links')) >
      0
    ) {
      assert.ok(Date.now() < deadline, 'pruned within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
}

test('sign-ups from one address are limited before any password is hashed', async (t) => {
  const server = await startTestApp(t, {
    dialect: 'sqlite',
    rateLimitPerIp: 1000,
    signupsPerHour: SIGNUP_ADDRESS_LIMIT,
  });
  for (let i = 0; i < SIGNUP_ADDRESS_LIMIT; i++) {
    await signUp(server.origin, { name: `P${i}`, email: `p${i}@example.com`, password: PASSWORD });
  }
  const refused = await newAgent(server.origin).post('/sign-up', {
    name: 'One more',
    email: 'more@example.com',
    password: PASSWORD,
  });
  assert.equal(refused.status, 429);
  assert.match(await refused.text(), /Too many accounts were created from this address/);
  const bad = await newAgent(server.origin).post('/sign-up', {
    name: 'Bad',
    email: 'nope',
    password: PASSWORD,
  });
  assert.equal(bad.status, 429, 'the limit is checked first');
});

test('one address cannot make two accounts: NFKC, case and a trailing dot are the same address', async (t) => {
  const server = await startTestApp(t, { dialect: 'sqlite' });
  await signUp(server.origin, { name: 'Qi', email: 'Qi@Example.com.', password: PASSWORD });
  for (const email of ['qi@example.com', 'ＱＩ@ｅｘａｍｐｌｅ.ｃｏｍ', ' QI@EXAMPLE.COM ']) {
    const res = await newAgent(server.origin).post('/sign-up', { name: 'Copy', email, password: PASSWORD });
    assert.equal(res.status, 409, email);
  }
  await signIn(server.origin, { email: 'ｑｉ@example.com.', password: PASSWORD });
});

test('Strict-Transport-Security when PUBLIC_URL is https, none over http; the nginx configs send it too', async (t) => {
  const https = await startTestApp(t, { dialect: 'sqlite', publicUrl: 'https://tributary.example' });
  for (const url of ['/sign-in', '/v1/streams', '/no-such-page']) {
    const res = await fetch(`${https.origin}${url}`);
    await res.body?.cancel();
    assert.equal(res.headers.get('strict-transport-security'), 'max-age=31536000', url);
  }
  const http = await startTestApp(t, { dialect: 'sqlite', publicUrl: 'http://tributary.example' });
  const plain = await fetch(`${http.origin}/sign-in`);
  assert.equal(plain.headers.get('strict-transport-security'), null);
  for (const file of ['nginx.conf', 'nginx-edge.conf']) {
    const text = fs.readFileSync(path.join(import.meta.dirname, '../../deploy', file), 'utf8');
    assert.match(text, /map \$scheme \$tributary_hsts \{\s*https "max-age=31536000";/, file);
    assert.match(text, /add_header Strict-Transport-Security \$tributary_hsts always;/, file);
  }
});
