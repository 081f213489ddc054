// Whatever a client sends to the dashboard's routes, the answer is a page with a 4xx status (or
// a redirect after a success), never a 500. (A path parameter over the router's limit is
// refused before any route, with the envelope.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../helpers/app.ts';
import { signUp } from '../helpers/web.ts';

test('malformed dashboard requests get a 4xx page, never a 500', async (t) => {
  const server = await startTestApp(t, { dialect: 'sqlite', rateLimitPerIp: 100_000 });
  const ada = await signUp(server.origin, {
    name: 'Ada',
    email: 'ada@example.com',
    password: 'a fine password',
  });
  const token = await ada.csrf('/dashboard/streams/new');
  const { stream } = await server.services.streams.create(
    (
      await server.handle.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'ada@example.com')
        .executeTakeFirstOrThrow()
    ).id,
    { title: 'Mine' },
  );
  const form = 'application/x-www-form-urlencoded';
  const long = 'x'.repeat(3000);
  const posts: { path: string; type: string; body: string; status: number; why: string }[] = [
    {
      path: '/dashboard/streams',
      type: form,
      body: `_csrf=${token}&__proto__=x&title=ok`,
      status: 400,
      why: '__proto__',
    },
    {
      path: '/dashboard/streams',
      type: form,
      body: `_csrf=${token}&title=`,
      status: 400,
      why: 'an empty title',
    },
    {
      path: '/dashboard/streams',
      type: form,
      body: `_csrf=${token}&title=ok&scheduled_at=tomorrow`,
      status: 400,
      why: 'a bad date',
    },
    {
      path: '/dashboard/streams',
      type: form,
      body: `_csrf=${token}&title=ok&scheduled_at=2099-13-45T99:99`,
      status: 400,
      why: 'an impossible date',
    },
    {
      path: '/dashboard/streams',
      type: form,
      body: `_csrf=${token}&title=ok&tz_offset=NaN&scheduled_at=2099-01-01T10:00`,
      status: 303,
      why: 'a bad offset is UTC',
    },
    {
      path: '/dashboard/streams',
      type: 'application/json',
      body: JSON.stringify({ _csrf: token, title: 5 }),
      status: 400,
      why: 'a JSON number',
    },
    {
      path: '/dashboard/webhooks',
      type: form,
      body: `_csrf=${token}&url=https://a.example/x&events=ping&events=ping&event-bogus=on`,
      status: 400,
      why: 'no event ticked (old-style fields ignored)',
    },
    {
      path: '/dashboard/webhooks',
      type: form,
      body: `_csrf=${token}&url=https://a.example/x&event-__proto__=on`,
      status: 400,
      why: 'an unknown event box',
    },
    {
      path: '/dashboard/webhooks',
      type: form,
      body: `_csrf=${token}&url=${long}&event-all=on`,
      status: 400,
      why: 'a long URL',
    },
    {
      path: `/dashboard/streams/${long}/reset-key`,
      type: form,
      body: `_csrf=${token}`,
      status: 400,
      why: 'a long stream id',
    },
    {
      path: `/dashboard/webhooks/${long}/deliveries/${long}/resend`,
      type: form,
      body: `_csrf=${token}`,
      status: 400,
      why: 'long ids',
    },
    {
      path: `/dashboard/webhooks/wh_x/test`,
      type: form,
      body: `_csrf=${token}`,
      status: 404,
      why: 'no such webhook',
    },
    {
      path: '/dashboard/webhooks',
      type: form,
      body: `_csrf=${token}&url=https://b.example/x&event-stream.started=on&event-ping=on`,
      status: 303,
      why: 'two events ticked',
    },
  ];
  for (const { path, type, body, status, why } of posts) {
    const response = await fetch(`${server.origin}${path}`, {
      method: 'POST',
      headers: { cookie: ada.cookie, 'content-type': type },
      body,
      redirect: 'manual',
    });
    const text = await response.text();
    assert.equal(response.status, status, `${why}: ${text.slice(0, 300)}`);
    assert.doesNotMatch(text, /at .*\.ts:\d+/, `${why}: no stack trace`);
  }
  for (const [path, status] of [
    ['/dashboard/streams?cursor=garbage', 400],
    [`/dashboard/streams/${long}`, 400],
    [`/dashboard/streams/${stream.id}?reveal=key&reveal=key`, 200],
    [`/dashboard/videos/${long}`, 400],
    ['/dashboard/videos?cursor=%00', 400],
    [`/dashboard/webhooks/${long}`, 400],
    [`/dashboard/webhooks/wh_x/deliveries/evt_y`, 404],
    [`/dashboard/streams/${stream.id}/events?x=1`, 200],
  ] as const) {
    const response = await ada.get(path);
    await response.body?.cancel();
    assert.equal(response.status, status, path);
  }
  const [webhook] = await server.services.webhooks.list(stream.creator_id);
  assert.deepEqual(
    JSON.parse(webhook?.events ?? '[]'),
    ['stream.started', 'ping'],
    'each ticked box is one event',
  );
});
