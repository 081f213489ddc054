// Changing what was published from the dashboard, on a real server and both databases: a
// stream's edit form offers what PATCH /v1/streams/{id} allows by status and refuses what it
// refuses; ending a live stream and deleting a video go through a confirmation page; another
// account gets the same 404 page as a missing id on every route.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { signUp, type WebAgent } from '../helpers/web.ts';

const PASSWORD = 'correct horse battery';

async function userId(server: TestApp, email: string): Promise<string> {
  const row = await server.services.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The 404 page's text for `path`, with the id in it made neutral. */
async function notFoundPage(
  agent: WebAgent,
  method: 'GET' | 'POST',
  path: string,
  form = {},
): Promise<string> {
  const answer = method === 'GET' ? await agent.get(path) : await agent.post(path, form);
  assert.equal(answer.status, 404, `${method} ${path}`);
  return (await answer.text()).replace(/(str|vid)_[0-9A-Za-z]+/g, 'ID');
}

/** A `datetime-local` value `ms` from now, in UTC (what the form sends with tz_offset 0). */
function localIn(server: TestApp, ms: number): string {
  return new Date(server.clock.now() + ms).toISOString().slice(0, 16);
}

for (const dialect of DIALECTS) {
  test(`${dialect}: edit a stream as its status allows, then end it live after a confirmation`, async (t) => {
    const server = await startTestApp(t, { dialect });
    const ada = await signUp(server.origin, { name: 'Ada', email: 'ada@example.com', password: PASSWORD });
    const eve = await signUp(server.origin, { name: 'Eve', email: 'eve@example.com', password: PASSWORD });
    const created = await ada.post('/dashboard/streams', { title: 'Friday build', record: 'on' });
    assert.equal(created.status, 303);
    const id = /\/dashboard\/streams\/(str_[0-9A-Za-z]+)/.exec(created.headers.get('location') ?? '')?.[1];
    assert.ok(id);
    const base = `/dashboard/streams/${id}`;

    const page = await (await ada.get(base)).text();
    assert.match(page, new RegExp(`id="edit-stream" href="${base}/edit"`));
    assert.match(page, /id="end-stream"[^>]*hidden/, 'no End before it is live');

    const form = await (await ada.get(`${base}/edit`)).text();
    for (const name of ['title', 'description', 'category', 'scheduled_at']) {
      assert.match(form, new RegExp(`id="${name}"`), name);
    }
    assert.match(form, /name="latency_mode"\s+value="low"/);
    assert.match(form, /name="latency_mode"\s+value="realtime"/);
    assert.match(form, /value="Friday build"/);

    // A refusal shows the API's own message for the same body, next to its field.
    const adaKey = await server.services.accounts.createKey(await userId(server, 'ada@example.com'), 'write');
    const long = 'x'.repeat(121);
    const fromApi = await server.request('PATCH', `/v1/streams/${id}`, {
      key: adaKey.key,
      body: { title: long },
    });
    assert.equal(fromApi.status, 400);
    const refused = await ada.post(base, { title: long });
    assert.equal(refused.status, 400);
    const refusedPage = await refused.text();
    assert.match(refusedPage, /id="title-error"/);
    assert.ok(refusedPage.includes((fromApi.body.error.message as string).replace(/'/g, '&#39;')));
    const past = await ada.post(base, {
      title: 'Ok',
      scheduled_at: localIn(server, -60_000),
      tz_offset: '0',
    });
    assert.equal(past.status, 400);
    assert.match(
      await past.text(),
      /id="scheduled_at-error"[^>]*>The field &#39;scheduled_at&#39; must be in the future/,
    );

    const when = localIn(server, 2 * 3_600_000);
    const saved = await ada.post(base, {
      title: 'Friday build, live',
      description: 'Shipping the thing',
      category: 'coding',
      privacy: 'private',
      scheduled_at: when,
      tz_offset: '0',
      latency_mode: 'low',
    });
    assert.equal(saved.status, 303);
    assert.equal(saved.headers.get('location'), `${base}?updated=1`);
    assert.match(await (await ada.get(`${base}?updated=1`)).text(), /Stream details saved\./);
    const stream = await server.services.streams.get(id);
    assert.equal(stream.title, 'Friday build, live');
    assert.equal(stream.privacy, 'private');
    assert.equal(stream.latency_mode, 'low');
    assert.equal(new Date(stream.scheduled_at ?? 0).toISOString().slice(0, 16), when);
    assert.equal((await server.events('stream.updated')).length, 1);

    // The form sent back as it was shown changes nothing: no event.
    const again = await ada.post(base, {
      title: 'Friday build, live',
      description: 'Shipping the thing',
      category: 'coding',
      privacy: 'private',
      scheduled_at: when,
      tz_offset: '0',
      latency_mode: 'low',
    });
    assert.equal(again.status, 303);
    assert.equal((await server.events('stream.updated')).length, 1);

    await server.services.streams.goLive(id);
    const liveForm = await (await ada.get(`${base}/edit`)).text();
    assert.doesNotMatch(liveForm, /id="scheduled_at"/, 'no start time once live');
    assert.doesNotMatch(liveForm, /name="latency_mode"/);
    assert.match(liveForm, /id="started-note"/);
    // A form from before it went live, with a new latency: the API's 409, as the form's problem.
    const stale = await ada.post(base, { title: 'Friday build, live', latency_mode: 'normal' });
    assert.equal(stale.status, 400);
    assert.match(
      await stale.text(),
      /id="form-error"[^>]*>Nothing was saved: Stream .* is live: latency_mode can only change before it goes live\./,
    );
    const renamed = await ada.post(base, { title: 'Live now', privacy: 'public' });
    assert.equal(renamed.status, 303);
    assert.equal((await server.services.streams.get(id)).title, 'Live now');

    const livePage = await (await ada.get(base)).text();
    assert.doesNotMatch(livePage, /id="end-stream"[^>]*hidden/, 'End is offered while live');
    const confirm = await ada.get(`${base}/end`);
    assert.equal(confirm.status, 200);
    const confirmPage = await confirm.text();
    assert.match(confirmPage, /End this stream\?/);
    assert.match(confirmPage, new RegExp(`<form method="post" action="${base}/end"`));
    assert.match(confirmPage, /The recording is kept and published as a video\./);

    // Eve: every route answers as a missing stream does, and nothing changes.
    const missing = '/dashboard/streams/str_doesnotexist';
    const expected = await notFoundPage(eve, 'GET', `${missing}/edit`);
    for (const [method, suffix] of [
      ['GET', '/edit'],
      ['POST', ''],
      ['GET', '/end'],
      ['POST', '/end'],
    ] as const) {
      assert.equal(
        await notFoundPage(eve, method, `${base}${suffix}`, { title: 'Mine' }),
        expected,
        `${method} ${suffix}`,
      );
      assert.equal(await notFoundPage(eve, method, `${missing}${suffix}`, { title: 'Mine' }), expected);
    }
    assert.equal((await server.services.streams.get(id)).status, 'live');

    const ended = await ada.post(`${base}/end`, {});
    assert.equal(ended.status, 303);
    assert.equal(ended.headers.get('location'), `${base}?ended=1`);
    assert.match(
      await (await ada.get(`${base}?ended=1`)).text(),
      /Stream ended: your streaming software was disconnected\./,
    );
    assert.equal((await server.services.streams.get(id)).status, 'ended');
    assert.equal((await server.events('stream.ended')).length, 1);
    const twice = await ada.post(`${base}/end`, {});
    assert.equal(twice.status, 409);
    assert.match(await twice.text(), /This stream has already ended\./);
    assert.equal((await server.events('stream.ended')).length, 1);
  });

  test(`${dialect}: edit a video's details and delete it after a confirmation`, async (t) => {
    const server = await startTestApp(t, { dialect });
    const ada = await signUp(server.origin, { name: 'Ada', email: 'ada@example.com', password: PASSWORD });
    const eve = await signUp(server.origin, { name: 'Eve', email: 'eve@example.com', password: PASSWORD });
    const adaId = await userId(server, 'ada@example.com');
    const video = await server.services.videos.publish({
      creatorId: adaId,
      title: 'Recorded',
      durationSeconds: 90,
      tags: ['one', 'two'],
    });
    const draft = await server.services.videos.createDraft({ creatorId: adaId, title: 'Processing' });
    const base = `/dashboard/videos/${video.id}`;

    const page = await (await ada.get(base)).text();
    assert.match(page, new RegExp(`id="edit-video" href="${base}/edit"`));
    assert.match(page, new RegExp(`id="delete-video" href="${base}/delete"`));
    const form = await (await ada.get(`${base}/edit`)).text();
    assert.match(form, /id="tags"[^>]*value="one, two"/);

    const tooMany = Array.from({ length: 21 }, (_, i) => `t${i}`).join(',');
    const refused = await ada.post(base, { title: 'Recorded', tags: tooMany });
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /id="tags-error"/);
    const blank = await ada.post(base, { title: '  ' });
    assert.equal(blank.status, 400);
    assert.match(await blank.text(), /id="title-error"/);
    const unknown = await ada.post(base, { title: 'Ok', view_count: '9' });
    assert.equal(unknown.status, 400);
    assert.deepEqual(await server.events('video.updated'), []);

    const saved = await ada.post(base, {
      title: 'Recorded, trimmed',
      description: '',
      category: 'music',
      privacy: 'private',
      tags: 'jazz, live, , jazz',
    });
    assert.equal(saved.status, 303);
    assert.equal(saved.headers.get('location'), `${base}?updated=1`);
    const savedPage = await (await ada.get(`${base}?updated=1`)).text();
    assert.match(savedPage, /Video details saved\./);
    assert.match(savedPage, /id="video-tags">jazz, live</);
    const detail = (
      await server.request('GET', `/v1/videos/${video.id}`, { key: (await server.createAccount()).readKey })
    ).body;
    assert.equal(detail.title, 'Recorded, trimmed');
    assert.equal(detail.privacy, 'private');
    assert.equal(detail.category, 'music');
    assert.deepEqual(detail.tags, ['jazz', 'live']);
    assert.equal((await server.events('video.updated')).length, 1);

    // A draft: no actions, its edit form says why, and its deletion is refused.
    const draftPage = await (await ada.get(`/dashboard/videos/${draft.id}`)).text();
    assert.doesNotMatch(draftPage, /id="edit-video"/);
    assert.match(await (await ada.get(`/dashboard/videos/${draft.id}/edit`)).text(), /still being processed/);
    const draftDelete = await ada.post(`/dashboard/videos/${draft.id}/delete`, {});
    assert.equal(draftDelete.status, 409);
    assert.match(await draftDelete.text(), /still being processed/);

    // Eve: the same 404 as a missing video on every route.
    const missing = '/dashboard/videos/vid_doesnotexist';
    const expected = await notFoundPage(eve, 'GET', `${missing}/edit`);
    for (const [method, suffix] of [
      ['GET', '/edit'],
      ['POST', ''],
      ['GET', '/delete'],
      ['POST', '/delete'],
    ] as const) {
      assert.equal(
        await notFoundPage(eve, method, `${base}${suffix}`, { title: 'Mine' }),
        expected,
        `${method} ${suffix}`,
      );
      assert.equal(await notFoundPage(eve, method, `${missing}${suffix}`, { title: 'Mine' }), expected);
    }

    const confirm = await ada.get(`${base}/delete`);
    assert.equal(confirm.status, 200);
    const confirmPage = await confirm.text();
    assert.match(confirmPage, /Delete this video\?/);
    assert.match(confirmPage, /This cannot be undone\./);
    assert.match(confirmPage, new RegExp(`<form method="post" action="${base}/delete"`));
    assert.equal(
      (await server.services.videos.get(video.id, adaId)).id,
      video.id,
      'the page alone deletes nothing',
    );

    const deleted = await ada.post(`${base}/delete`, {});
    assert.equal(deleted.status, 303);
    assert.equal(deleted.headers.get('location'), '/dashboard/videos?deleted=1');
    const list = await (await ada.get('/dashboard/videos?deleted=1')).text();
    assert.match(list, /Video deleted\./);
    assert.doesNotMatch(list, /Recorded, trimmed/);
    assert.equal((await ada.get(base)).status, 404);
    assert.equal((await server.events('video.deleted')).length, 1);
  });
}
