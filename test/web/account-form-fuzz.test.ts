// Hostile posts to the forms that show their refusals beside themselves (sign-up, sign-in,
// forgotten password, the account's password, profile and email forms, reports, the chat
// settings), signed in or not: random, empty, huge and control-character fields, missing or
// wrong tokens, other content types, any `Accept`. Whatever arrives, the answer is a redirect, a
// page or a 4xx (never a 5xx), a refusal asked for as JSON is the API's envelope, and the
// service still signs a new user up and shows the account page at the end. Bounded in count and time; ACCOUNT_FORM_FUZZ_REQUESTS=2000
// runs longer, ACCOUNT_FORM_FUZZ_SEED=<n> replays a run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { systemClock } from '../../src/shared/clock.ts';
import { startTestApp } from '../helpers/app.ts';
import { prng, type Rng } from '../helpers/prng.ts';
import { signUp } from '../helpers/web.ts';

const REQUESTS = Number(process.env.ACCOUNT_FORM_FUZZ_REQUESTS ?? 150);
const SEED = Number(process.env.ACCOUNT_FORM_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const BUDGET_MS = 45_000;
const PASSWORD = 'account form fuzz password';

const FORMS: Record<string, readonly string[]> = {
  '/sign-up': ['name', 'email', 'password', 'next'],
  '/sign-in': ['email', 'password', 'next'],
  '/forgot-password': ['email'],
  '/account/password': ['current_password', 'password', 'email'],
  '/account/profile': ['name', 'bio', 'links'],
  '/account/email': ['email', 'current_password'],
  '/report': ['kind', 'id', 'reason'],
  '/dashboard/chat/moderators': ['name', 'user'],
  '/dashboard/chat/blocked-words': ['words'],
};

function value(rng: Rng): string {
  return rng.pick([
    () => '',
    () => ' ',
    () => 'ada@example.com',
    () => PASSWORD,
    () => 'x'.repeat(rng.int(3000)),
    () => '\u0000\u0007\r\n<script>alert(1)</script>',
    () => '../../etc/passwd',
    () => 'stream',
    () => 'str_nope',
    () => String.fromCodePoint(...Array.from({ length: rng.int(40) }, () => 0x20 + rng.int(0x2fff))),
    () => '%zz%00',
    () => 'https://evil.example/',
  ])();
}

test(`account form fuzzing (seed ${SEED}) never gets a 5xx, and JSON when asked`, async (t) => {
  const server = await startTestApp(t, { dialect: 'sqlite', clock: systemClock, rateLimitPerIp: 1_000_000 });
  const user = await signUp(server.origin, { name: 'Ada', email: 'ada@example.com', password: PASSWORD });
  const csrf = await user.csrf('/account');
  const statuses = new Map<number, number>();
  const started = performance.now();
  let sent = 0;
  for (let index = 0; index < REQUESTS && performance.now() - started < BUDGET_MS; index++) {
    const rng = prng(SEED + index);
    const path = rng.pick(Object.keys(FORMS));
    const fields = new URLSearchParams();
    if (rng.chance(0.85)) fields.set('_csrf', rng.chance(0.9) ? csrf : value(rng));
    for (const name of FORMS[path] ?? []) if (rng.chance(0.95)) fields.set(name, value(rng));
    if (rng.chance(0.1)) fields.set(value(rng).slice(0, 50) || 'extra', value(rng));
    const type = rng.pick([
      'application/x-www-form-urlencoded',
      'application/x-www-form-urlencoded',
      'application/x-www-form-urlencoded',
      'application/x-www-form-urlencoded',
      'application/json',
      'text/plain',
      'multipart/form-data; boundary=x',
    ]);
    const accept = rng.pick(['', 'text/html', 'application/json', '*/*']);
    const headers: Record<string, string> = { 'content-type': type, origin: server.origin };
    if (rng.chance(0.8)) headers.cookie = user.cookie;
    if (accept) headers.accept = accept;
    const body = type === 'application/json' ? JSON.stringify(Object.fromEntries(fields)) : fields.toString();
    const response = await fetch(`${server.origin}${path}`, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
    });
    const text = await response.text();
    sent++;
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    const where = `seed ${SEED} request #${index}: POST ${path} (${type}, accept ${accept || 'none'})`;
    assert.ok(response.status < 500, `${where}: ${response.status} ${text.slice(0, 300)}`);
    if (accept === 'application/json' && response.status >= 400) {
      assert.match(
        response.headers.get('content-type') ?? '',
        /^application\/json/,
        `${where}: ${response.status} not JSON: ${text.slice(0, 200)}`,
      );
    }
  }
  t.diagnostic(
    `seed ${SEED}: ${sent} requests in ${Math.round(performance.now() - started)} ms: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`,
  );
  // (The fuzzed session may have changed its own password and been renewed: a new one checks.)
  const after = await signUp(server.origin, { name: 'Bo', email: 'bo@example.com', password: PASSWORD });
  const account = await after.get('/account');
  assert.equal(account.status, 200, `seed ${SEED}: the account page is no longer served`);
});
