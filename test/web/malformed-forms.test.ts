// Whatever a client sends to a page route, the answer is a page (or the API's envelope to a
// client that asks for JSON) with a 4xx status: never a 500, a stack trace or an open redirect.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../helpers/app.ts';
import { signUp } from '../helpers/web.ts';

test('malformed page requests get a 4xx page, never a 500; next never leaves the site', async (t) => {
  const server = await startTestApp(t, { dialect: 'sqlite', rateLimitPerIp: 100_000 });
  const ada = await signUp(server.origin, {
    name: 'Ada',
    email: 'ada@example.com',
    password: 'a fine password',
  });
  const token = await ada.csrf();
  const form = 'application/x-www-form-urlencoded';
  const cases: { path: string; type?: string; body: string; status: number; why: string }[] = [
    { path: '/sign-in', type: form, body: '', status: 403, why: 'an empty form (no token)' },
    { path: '/sign-in', type: 'text/plain', body: 'email=a', status: 400, why: 'not a form' },
    {
      path: '/sign-in',
      type: 'application/json',
      body: '[1,2]',
      status: 403,
      why: 'JSON that is not an object',
    },
    { path: '/sign-in', type: 'application/json', body: '{"_csrf":', status: 400, why: 'broken JSON' },
    {
      path: '/sign-in',
      type: form,
      body: `_csrf=%zz&email=%E0%A4%A&password=x`,
      status: 403,
      why: 'bad escapes',
    },
    { path: '/sign-in', type: form, body: `_csrf=${'a'.repeat(70_000)}`, status: 413, why: 'over 64 KiB' },
    {
      path: '/sign-in',
      type: form,
      body: `_csrf=${token}&email=a@b.c&password=x&extra=1`,
      status: 400,
      why: 'an unknown field',
    },
    { path: '/sign-in', type: form, body: `_csrf=${token}&email=a@b.c`, status: 400, why: 'a missing field' },
    {
      path: '/dashboard/keys',
      type: form,
      body: `_csrf=${token}&scope=write&scope=read&__proto__=x`,
      status: 400,
      why: 'a field named __proto__',
    },
    { path: '/dashboard/keys/%00/revoke', type: form, body: `_csrf=${token}`, status: 404, why: 'a NUL id' },
    {
      path: `/dashboard/keys/${'k'.repeat(90)}/revoke`,
      type: form,
      body: `_csrf=${token}`,
      status: 400,
      why: 'an id over its limit',
    },
  ];
  for (const c of cases) {
    const response = await fetch(`${server.origin}${c.path}`, {
      method: 'POST',
      headers: { cookie: ada.cookie, ...(c.type === undefined ? {} : { 'content-type': c.type }) },
      body: c.body,
      redirect: 'manual',
    });
    const text = await response.text();
    assert.equal(response.status, c.status, `${c.why}: ${text.slice(0, 300)}`);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/, c.why);
    assert.doesNotMatch(text, /at .*\.ts:\d+/, `${c.why}: no stack trace`);
  }
  const json = await fetch(`${server.origin}/sign-in`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': form },
    body: '',
  });
  assert.equal(json.status, 403);
  assert.equal(((await json.json()) as { error: { code: string } }).error.code, 'csrf_failed');

  for (const next of [
    '//evil.example/x',
    '/\\evil.example',
    'https://evil.example',
    'javascript:alert(1)',
    '/ok\r\nSet-Cookie: x=1',
  ]) {
    const res = await ada.get(`/sign-in?next=${encodeURIComponent(next)}`);
    assert.equal(res.status, 303, next);
    assert.equal(res.headers.get('location'), '/dashboard', `next=${JSON.stringify(next)} stays on the site`);
  }
  assert.equal(
    (await ada.get('/sign-in?next=%2Fdashboard%2Fkeys')).headers.get('location'),
    '/dashboard/keys',
  );
});
