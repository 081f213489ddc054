// The creator's stream pages on a real server, on both databases: the form refuses what the API
// refuses with the API's own messages, a created stream's page gives its ingest settings (the
// key only when revealed), the key reset takes effect, and another account gets a 404 on every
// route, never the key.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { signUp, type WebAgent } from '../helpers/web.ts';

const PASSWORD = 'correct horse battery';

async function create(agent: WebAgent, form: Record<string, string>): Promise<Response> {
  return agent.post('/dashboard/streams', form);
}

for (const dialect of DIALECTS) {
  test(`${dialect}: create a stream on the page with the API's rules, read and reset its ingest settings`, async (t) => {
    const server = await startTestApp(t, { dialect });
    const api = await server.createAccount();
    const ada = await signUp(server.origin, { name: 'Ada', email: 'ada@example.com', password: PASSWORD });
    const eve = await signUp(server.origin, { name: 'Eve', email: 'eve@example.com', password: PASSWORD });

    const home = await ada.get('/dashboard');
    assert.equal(home.status, 303);
    assert.equal(home.headers.get('location'), '/dashboard/streams');
    const anonymous = await fetch(`${server.origin}/dashboard/streams`, { redirect: 'manual' });
    assert.equal(anonymous.status, 303);
    assert.equal(anonymous.headers.get('location'), '/sign-in?next=%2Fdashboard%2Fstreams');

    const form = await ada.get('/dashboard/streams/new');
    assert.equal(form.status, 200);
    const formPage = await form.text();
    assert.match(formPage, /name="latency_mode"\s+value="low"/, 'a choice of latency');
    assert.match(formPage, /name="latency_mode"\s+value="realtime"/, 'realtime (WebRTC) among them');
    for (const id of ['title', 'description', 'scheduled_at', 'category', 'record']) {
      assert.match(formPage, new RegExp(`<label for="${id}"|id="${id}"[^>]*>`), `a field for ${id}`);
    }

    // Each refusal: the page shows exactly the message the API gives for the same body.
    const cases: { form: Record<string, string>; body: Record<string, unknown>; field: string }[] = [
      { form: { title: '   ' }, body: { title: '   ' }, field: 'title' },
      { form: { title: 'x'.repeat(121) }, body: { title: 'x'.repeat(121) }, field: 'title' },
      {
        form: { title: 'Ok', description: 'd'.repeat(2001) },
        body: { title: 'Ok', description: 'd'.repeat(2001) },
        field: 'description',
      },
      {
        form: { title: 'Ok', scheduled_at: '2020-01-01T10:00', tz_offset: '0' },
        body: { title: 'Ok', scheduled_at: '2020-01-01T10:00:00+00:00' },
        field: 'scheduled_at',
      },
      {
        form: { title: 'Ok', category: 'cooking' },
        body: { title: 'Ok', category: 'cooking' },
        field: 'category',
      },
      {
        form: { title: 'Ok', privacy: 'secret' },
        body: { title: 'Ok', privacy: 'secret' },
        field: 'privacy',
      },
      {
        form: { title: 'Ok', latency_mode: 'ultra' },
        body: { title: 'Ok', latency_mode: 'ultra' },
        field: 'latency_mode',
      },
      { form: { title: 'Ok', colour: 'red' }, body: { title: 'Ok', colour: 'red' }, field: 'colour' },
    ];
    for (const { form: fields, body, field } of cases) {
      const fromApi = await server.request('POST', '/v1/streams', { key: api.writeKey, body });
      assert.equal(fromApi.status, 400, JSON.stringify(body));
      const refused = await create(ada, fields);
      assert.equal(refused.status, 400, field);
      const page = await refused.text();
      const message = (fromApi.body.error.message as string).replace(/&/g, '&amp;').replace(/'/g, '&#39;');
      assert.ok(page.includes(message), `the page shows the API's message for ${field}: ${message}`);
      if (['title', 'description', 'scheduled_at'].includes(field)) {
        assert.match(page, new RegExp(`id="${field}-error"`), `shown next to ${field}`);
      }
    }
    assert.equal(
      (await server.services.streams.list({ viewerId: 'nobody', limit: 10 })).length,
      0,
      'nothing created',
    );

    const created = await create(ada, {
      title: '  Friday build  ',
      description: 'Building the thing',
      scheduled_at: '2099-05-01T18:30',
      tz_offset: '-120',
      category: 'coding',
      privacy: 'private',
      latency_mode: 'low',
    });
    assert.equal(created.status, 303);
    const location = created.headers.get('location') ?? '';
    const id = /^\/dashboard\/streams\/(str_\w+)\?created=1$/.exec(location)?.[1];
    assert.ok(id, location);
    const stream = await server.services.streams.get(id);
    assert.equal(stream.title, 'Friday build', 'trimmed as by the API');
    assert.equal(stream.scheduled_at, Date.parse('2099-05-01T18:30:00+02:00'), "the browser's zone applied");
    assert.equal(stream.category, 'coding');
    assert.equal(stream.privacy, 'private');
    assert.equal(stream.record, 0, 'an unticked checkbox means no recording');
    assert.equal(stream.latency_mode, 'low');

    const list = await (await ada.get('/dashboard/streams')).text();
    assert.match(list, new RegExp(`href="/dashboard/streams/${id}">Friday build<`));
    assert.doesNotMatch(await (await eve.get('/dashboard/streams')).text(), /Friday build/);

    const page = await ada.get(`/dashboard/streams/${id}`);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('cache-control'), 'no-store');
    const html = await page.text();
    assert.ok(html.includes(`value="${server.services.urls.rtmpIngest}"`), 'the server URL');
    assert.match(html, /keyframe interval to 1 s/, "a low-latency stream's keyframe advice");

    // A realtime stream made from the form: its page advises no B-frames.
    const realtime = await create(ada, { title: 'Auction', latency_mode: 'realtime' });
    assert.equal(realtime.status, 303);
    const realtimeId = /(str_\w+)/.exec(realtime.headers.get('location') ?? '')?.[1] ?? '';
    assert.equal((await server.services.streams.get(realtimeId)).latency_mode, 'realtime');
    assert.match(await (await ada.get(`/dashboard/streams/${realtimeId}`)).text(), /bframes=0/);
    const key = (
      (await (await ada.get(`/dashboard/streams/${id}/stream-key`)).json()) as { stream_key: string }
    ).stream_key;
    assert.match(key, /^sk_\w{32}$/);
    assert.ok(!html.includes(key), 'the key is not in the page until revealed');
    const revealed = await (await ada.get(`/dashboard/streams/${id}?reveal=key`)).text();
    assert.ok(revealed.includes(`value="${key}"`), 'revealed on request');
    assert.equal(
      (await server.services.streams.findByStreamKey(key))?.id,
      id,
      'the key publishes to this stream',
    );

    // Another account: a 404 everywhere, and never the key.
    for (const path of [
      `/dashboard/streams/${id}`,
      `/dashboard/streams/${id}?reveal=key`,
      `/dashboard/streams/${id}/stream-key`,
      `/dashboard/streams/${id}/events`,
    ]) {
      const answer = await eve.get(path);
      assert.equal(answer.status, 404, path);
      assert.ok(!(await answer.text()).includes(key), path);
    }
    const stolenReset = await eve.post(`/dashboard/streams/${id}/reset-key`, {});
    assert.equal(stolenReset.status, 404);
    assert.equal(
      (await server.services.streams.findByStreamKey(key))?.id,
      id,
      "another's reset changed nothing",
    );

    const reset = await ada.post(`/dashboard/streams/${id}/reset-key`, {});
    assert.equal(reset.status, 303);
    assert.equal(reset.headers.get('location'), `/dashboard/streams/${id}?reveal=key&reset=1`);
    assert.equal(await server.services.streams.findByStreamKey(key), undefined, 'the old key stops working');
    const fresh = (
      (await (await ada.get(`/dashboard/streams/${id}/stream-key`)).json()) as { stream_key: string }
    ).stream_key;
    assert.notEqual(fresh, key);
    assert.equal((await server.services.streams.findByStreamKey(fresh))?.id, id);

    assert.equal((await ada.get('/dashboard/streams/str_doesnotexist0000000000')).status, 404);
  });

  test(`${dialect}: videos list and page, the creator's only`, async (t) => {
    const server = await startTestApp(t, { dialect });
    const ada = await signUp(server.origin, { name: 'Ada', email: 'ada@example.com', password: PASSWORD });
    const eve = await signUp(server.origin, { name: 'Eve', email: 'eve@example.com', password: PASSWORD });
    const owner = await userIdOf(server, 'ada@example.com');
    const video = await server.services.videos.publish({
      creatorId: owner,
      title: 'Recorded <talk>',
      durationSeconds: 754,
    });

    const list = await (await ada.get('/dashboard/videos')).text();
    assert.match(list, new RegExp(`href="/dashboard/videos/${video.id}">Recorded &lt;talk&gt;<`));
    assert.match(list, /12:34/, 'the duration');
    const page = await ada.get(`/dashboard/videos/${video.id}`);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /id="video-duration">12:34</);
    assert.match(html, /id="video-views">0</);
    assert.ok(html.includes(`/media/videos/${video.id}/index.m3u8`), 'the player plays it');

    assert.doesNotMatch(await (await eve.get('/dashboard/videos')).text(), /Recorded/);
    assert.equal(
      (await eve.get(`/dashboard/videos/${video.id}`)).status,
      404,
      "another's video is not in your dashboard",
    );
  });
}

async function userIdOf(
  server: { handle: { db: import('../../src/db/database.ts').Db } },
  email: string,
): Promise<string> {
  const row = await server.handle.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return row.id;
}
