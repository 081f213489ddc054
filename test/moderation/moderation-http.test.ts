// Moderation over HTTP against the real server, on both databases: who may use the admin
// area, a viewer's report and an operator acting on it, a suspension reaching sessions, API
// keys (in another process's cache too) and every list and page, the suspended creator signing
// in to read why, reinstatement, takedown and restore of one item, and the audit log.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AccountService } from '../../src/accounts/account.service.ts';
import { openDatabase } from '../../src/db/database.ts';
import { CLI_ACTOR } from '../../src/moderation/moderation.service.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { TestClock } from '../helpers/clock.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { seedVideos } from '../helpers/seed.ts';
import { newAgent, signIn, signUp, type WebAgent } from '../helpers/web.ts';

const PASSWORD = 'correct horse battery';

async function userIdOf(server: TestApp, email: string): Promise<string> {
  const row = await server.services.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A creator who signed up on the web, with API keys, a stream and a published video. */
async function creator(server: TestApp) {
  const web = await signUp(server.origin, { name: 'Cato', email: 'cato@example.com', password: PASSWORD });
  const userId = await userIdOf(server, 'cato@example.com');
  const writeKey = (await server.services.accounts.createKey(userId, 'write')).key;
  const stream = await server.request('POST', '/v1/streams', {
    key: writeKey,
    body: { title: 'Cato live' },
  });
  assert.equal(stream.status, 201);
  const [videoId = ''] = await seedVideos(server.services.database.db, 1, () => ({
    creator_id: userId,
    title: 'Cato video',
  }));
  return { web, userId, email: 'cato@example.com', writeKey, streamId: stream.body.id as string, videoId };
}

/** The mails queued to an address, oldest first (the outbox's table: what the worker sends). */
async function mailsTo(server: TestApp, to: string) {
  return server.services.database.db
    .selectFrom('mail_messages')
    .select(['subject', 'text_body'])
    .where('to_address', '=', to)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

async function text(response: Response): Promise<string> {
  return response.text();
}

/** What the API and the pages show of the creator's content. */
async function visible(server: TestApp, viewerKey: string, c: Awaited<ReturnType<typeof creator>>) {
  const visitor = newAgent(server.origin);
  const [stream, video, streams, videos, watchStream, watchVideo, channel] = await Promise.all([
    server.request('GET', `/v1/streams/${c.streamId}`, { key: viewerKey }),
    server.request('GET', `/v1/videos/${c.videoId}`, { key: viewerKey }),
    server.request('GET', '/v1/streams', { key: viewerKey }),
    server.request('GET', '/v1/videos', { key: viewerKey }),
    visitor.get(`/watch/${c.streamId}`),
    visitor.get(`/watch/${c.videoId}`),
    visitor.get(`/channels/${c.userId}`),
  ]);
  for (const page of [watchStream, watchVideo]) await page.body?.cancel();
  const channelHtml = await channel.text();
  return {
    stream: stream.status,
    video: video.status,
    inStreamList: (streams.body.data as { id: string }[]).some((s) => s.id === c.streamId),
    inVideoList: (videos.body.data as { id: string }[]).some((v) => v.id === c.videoId),
    watchStream: watchStream.status,
    watchVideo: watchVideo.status,
    channel: channel.status,
    channelListsVideo: channelHtml.includes(c.videoId),
  };
}

const SHOWN = {
  stream: 200,
  video: 200,
  inStreamList: true,
  inVideoList: true,
  watchStream: 200,
  watchVideo: 200,
  channel: 200,
  channelListsVideo: true,
};

for (const dialect of DIALECTS) {
  test(`${dialect}: the admin area is for operators only; set-role makes one`, async (t) => {
    const server = await startTestApp(t, { dialect });
    const user = await signUp(server.origin, { name: 'Uma', email: 'uma@example.com', password: PASSWORD });
    const visitor = newAgent(server.origin);
    const anonymous = await visitor.get('/admin/users');
    assert.equal(anonymous.status, 303);
    assert.match(anonymous.headers.get('location') ?? '', /^\/sign-in\?next=%2Fadmin%2Fusers/);
    for (const path of ['/admin', '/admin/reports', '/admin/users', '/admin/streams', '/admin/audit']) {
      const answer = await user.get(path);
      assert.equal(answer.status, 404, path);
      assert.doesNotMatch(await answer.text(), /Audit log/);
    }
    const refused = await user.post(`/admin/users/${await userIdOf(server, 'uma@example.com')}/suspend`, {
      reason: 'self',
    });
    assert.equal(refused.status, 404);
    assert.equal((await server.services.moderation.auditLog({}, 10)).length, 0, 'nothing was done');

    await server.services.moderation.setRole(CLI_ACTOR, 'UMA@example.com', 'operator');
    const home = await user.get('/');
    assert.match(await home.text(), /id="nav-admin"/, 'operators see the Admin link');
    const admin = await user.get('/admin/reports');
    assert.equal(admin.status, 200);
    assert.match(await admin.text(), /<h1>Reports<\/h1>/);
    // A demotion applies on the next request.
    await server.services.moderation.setRole(CLI_ACTOR, 'uma@example.com', 'user');
    assert.equal((await user.get('/admin/reports')).status, 404);
  });

  test(`${dialect}: a viewer reports a stream; an operator takes it down from the report`, async (t) => {
    const server = await startTestApp(t, { dialect });
    const c = await creator(server);
    const viewer = await signUp(server.origin, {
      name: 'Vera',
      email: 'vera@example.com',
      password: PASSWORD,
    });
    const op = await signUp(server.origin, { name: 'Otto', email: 'otto@example.com', password: PASSWORD });
    await server.services.moderation.setRole(CLI_ACTOR, 'otto@example.com', 'operator');
    const viewerKey = (
      await server.services.accounts.createKey(await userIdOf(server, 'vera@example.com'), 'read')
    ).key;

    // The watch and channel pages offer it; a visitor is sent to sign in first.
    assert.match(
      await text(await viewer.get(`/watch/${c.streamId}`)),
      /id="report" class="button[^"]*" href="\/report\?kind=stream&amp;id=str_/,
    );
    assert.match(await text(await viewer.get(`/channels/${c.userId}`)), /id="report-channel"/);
    const visitorForm = await newAgent(server.origin).get(`/report?kind=stream&id=${c.streamId}`);
    assert.equal(visitorForm.status, 303);

    const form = await viewer.get(`/report?kind=stream&id=${c.streamId}`);
    assert.equal(form.status, 200);
    assert.match(await form.text(), /Cato live/);
    // Bad input: a clear page, never a 500.
    const noReason = await viewer.post('/report', { kind: 'stream', id: c.streamId, reason: '  ' });
    assert.equal(noReason.status, 400);
    assert.match(await noReason.text(), /Give a reason/);
    // A script that asks for JSON gets the API's envelope instead of the form.
    const scripted = await viewer.post(
      '/report',
      { kind: 'stream', id: c.streamId, reason: '  ' },
      { accept: 'application/json' },
    );
    assert.equal(scripted.status, 400);
    assert.match(((await scripted.json()) as { error: { message: string } }).error.message, /Give a reason/);
    const badKind = await viewer.post('/report', { kind: 'planet', id: c.streamId, reason: 'x' });
    assert.equal(badKind.status, 400);
    await badKind.body?.cancel();
    const missing = await viewer.post('/report', { kind: 'stream', id: 'str_nope', reason: 'x' });
    assert.equal(missing.status, 404);
    await missing.body?.cancel();
    const tooLong = await viewer.post('/report', {
      kind: 'stream',
      id: c.streamId,
      reason: 'x'.repeat(1001),
    });
    assert.equal(tooLong.status, 400);
    await tooLong.body?.cancel();
    const own = await c.web.post('/report', { kind: 'stream', id: c.streamId, reason: 'mine' });
    assert.equal(own.status, 400);
    await own.body?.cancel();

    const sent = await viewer.post('/report', {
      kind: 'stream',
      id: c.streamId,
      reason: 'Spam in the title',
    });
    assert.equal(sent.status, 303);
    assert.match(await text(await viewer.get(sent.headers.get('location') ?? '')), /Your report was sent/);
    // Reporting again while it is open queues nothing more.
    await (await viewer.post('/report', { kind: 'stream', id: c.streamId, reason: 'again' })).body?.cancel();
    const open = await server.services.moderation.listReports('open');
    assert.equal(open.length, 1);
    const reportId = open[0]?.id ?? '';

    const queue = await text(await op.get('/admin/reports'));
    assert.match(queue, /Spam in the title/);
    assert.match(queue, new RegExp(`/admin/reports/${reportId}`));
    assert.equal((await op.get('/admin/reports/rpt_missing')).status, 404, 'a missing report is a 404 page');
    const noWhy = await op.post(`/admin/reports/${reportId}/act`, { reason: '' });
    assert.equal(noWhy.status, 400);
    assert.match(await noWhy.text(), /Give a reason/);
    const noWhyScripted = await op.post(
      `/admin/reports/${reportId}/act`,
      { reason: '' },
      { accept: 'application/json' },
    );
    assert.equal(noWhyScripted.status, 400);
    assert.equal(
      ((await noWhyScripted.json()) as { error: { code: string } }).error.code,
      'parameter_missing',
    );

    assert.deepEqual(await visible(server, viewerKey, c), SHOWN);
    const acted = await op.post(`/admin/reports/${reportId}/act`, { reason: 'Misleading spam' });
    assert.equal(acted.status, 303);
    assert.equal(acted.headers.get('location'), '/admin/reports?done=actioned');
    assert.match(await text(await op.get('/admin/reports?done=actioned')), /The report was acted on/);
    assert.equal((await server.services.moderation.getReport(reportId)).status, 'actioned');

    const after = await visible(server, viewerKey, c);
    assert.equal(after.stream, 404, 'the API no longer has the stream');
    assert.equal(after.inStreamList, false);
    assert.equal(after.watchStream, 404);
    assert.equal(after.video, 200, 'only that stream was taken down');
    const creatorRead = await server.request('GET', `/v1/streams/${c.streamId}`, { key: c.writeKey });
    assert.equal(creatorRead.status, 404, 'its creator neither');
    const told = await mailsTo(server, c.email);
    assert.match(told.at(-1)?.subject ?? '', /has been taken down/, 'the creator is mailed');
    assert.match(told.at(-1)?.text_body ?? '', /Misleading spam/);

    // Again: already resolved, said on the page.
    const twice = await op.post(`/admin/reports/${reportId}/act`, { reason: 'again' });
    assert.equal(twice.status, 409);
    await twice.body?.cancel();

    // Restore from the stream's admin page.
    const page = await text(await op.get(`/admin/streams/${c.streamId}`));
    assert.match(page, /Taken down/);
    assert.match(page, /Misleading spam/);
    const restored = await op.post(`/admin/streams/${c.streamId}/restore`, { reason: 'Appeal accepted' });
    assert.equal(restored.status, 303);
    assert.deepEqual(await visible(server, viewerKey, c), SHOWN);

    // A video's takedown, and a dismissed report.
    const down = await op.post(`/admin/videos/${c.videoId}/takedown`, { reason: 'Copyright claim' });
    assert.equal(down.status, 303);
    const hidden = await visible(server, viewerKey, c);
    assert.equal(hidden.video, 404);
    assert.equal(hidden.inVideoList, false);
    assert.equal(hidden.watchVideo, 404);
    assert.equal(hidden.channelListsVideo, false);
    assert.equal(hidden.stream, 200);
    await (
      await viewer.post('/report', { kind: 'channel', id: c.userId, reason: 'Rude name' })
    ).body?.cancel();
    const channelReport = (await server.services.moderation.listReports('open'))[0]?.id ?? '';
    const dismissed = await op.post(`/admin/reports/${channelReport}/dismiss`, { reason: 'Not rude' });
    assert.equal(dismissed.status, 303);

    const log = await server.services.moderation.auditLog({}, 10);
    // One instant on the test clock: the order among them is by id, so compared as a set.
    assert.deepEqual(log.map((row) => [row.action, row.actor_name, row.reason].join(' | ')).sort(), [
      'report.dismiss | Otto | Not rude',
      'stream.restore | Otto | Appeal accepted',
      'stream.takedown | Otto | Misleading spam',
      'user.set_role | cli | role user -> operator',
      'video.takedown | Otto | Copyright claim',
    ]);
    const auditPage = await text(await op.get('/admin/audit'));
    for (const reason of ['Not rude', 'Copyright claim', 'Appeal accepted', 'Misleading spam']) {
      assert.match(auditPage, new RegExp(reason));
    }
  });

  test(`${dialect}: a suspension stops sessions and keys (in another process too) and hides everything; the creator signs in to read why`, async (t) => {
    const clock = new TestClock();
    const server = await startTestApp(t, { dialect, clock });
    const c = await creator(server);
    const op = await signUp(server.origin, { name: 'Otto', email: 'otto@example.com', password: PASSWORD });
    await server.services.moderation.setRole(CLI_ACTOR, 'otto@example.com', 'operator');
    const viewerKey = (
      await server.services.accounts.createKey((await server.services.accounts.createUser('V')).id, 'read')
    ).key;
    assert.deepEqual(await visible(server, viewerKey, c), SHOWN);

    // Another API process: its own connection and its own key cache, warmed before the suspension.
    const other = openDatabase(server.database.url);
    t.after(() => other.close());
    const otherAccounts = new AccountService(other.db, clock);
    assert.ok(await otherAccounts.authenticate(c.writeKey));
    assert.equal((await server.request('GET', '/v1/streams', { key: c.writeKey })).status, 200);

    const users = await text(await op.get('/admin/users?q=CATO'));
    assert.match(users, new RegExp(`/admin/users/${c.userId}`));
    assert.match(
      await text(await op.get('/admin/users?q=%25')),
      /No user matches/,
      'a % matches itself only',
    );
    const operatorId = await userIdOf(server, 'otto@example.com');
    const noSelf = await op.post(`/admin/users/${operatorId}/suspend`, { reason: 'test' });
    assert.equal(noSelf.status, 409, 'an operator is demoted before a suspension');
    await noSelf.body?.cancel();

    const suspended = await op.post(`/admin/users/${c.userId}/suspend`, { reason: 'Repeated spam' });
    assert.equal(suspended.status, 303);
    assert.match(await text(await op.get(suspended.headers.get('location') ?? '')), /Suspended/);

    // Sessions: gone at once.
    const dashboard = await c.web.get('/dashboard');
    assert.equal(dashboard.status, 303, 'the session ended');
    // Keys: the cached lookup lasts at most half a second, in this process and the other.
    clock.advance(600);
    const refused = await server.request('GET', '/v1/streams', { key: c.writeKey });
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error.code, 'invalid_api_key');
    assert.equal(await otherAccounts.authenticate(c.writeKey), null, 'the other process refuses it too');
    // Content: gone from every list and page.
    assert.deepEqual(await visible(server, viewerKey, c), {
      stream: 404,
      video: 404,
      inStreamList: false,
      inVideoList: false,
      watchStream: 404,
      watchVideo: 404,
      channel: 404,
      channelListsVideo: false,
    });
    // Reporting what is gone is a 404, not a queued report.
    assert.equal((await op.get(`/report?kind=channel&id=${c.userId}`)).status, 404);

    // Signing in still works, to read why; every page says so.
    const back: WebAgent = await signIn(server.origin, { email: 'cato@example.com', password: PASSWORD });
    for (const path of ['/dashboard', '/', `/watch/${c.streamId}`, '/dashboard/keys']) {
      const page = await back.get(path);
      assert.equal(page.status, 403, path);
      const body = await page.text();
      assert.match(body, /Your account is suspended/);
      assert.match(body, /Repeated spam/);
    }
    const newKey = await back.post('/dashboard/keys', { scope: 'write' });
    assert.equal(newKey.status, 403, 'no new keys either');
    await newKey.body?.cancel();

    // Reinstated: the same keys work again, the content is back.
    const reinstated = await op.post(`/admin/users/${c.userId}/reinstate`, { reason: 'Appeal accepted' });
    assert.equal(reinstated.status, 303);
    clock.advance(600);
    assert.equal((await server.request('GET', '/v1/streams', { key: c.writeKey })).status, 200);
    assert.deepEqual(await visible(server, viewerKey, c), SHOWN);
    assert.equal((await back.get('/dashboard/streams')).status, 200);

    const history = await text(await op.get(`/admin/users/${c.userId}`));
    assert.match(history, /user.suspend/);
    assert.match(history, /user.reinstate/);
    assert.deepEqual(
      (await mailsTo(server, c.email)).map((mail) => mail.subject),
      ['Your account has been suspended', 'Your account has been reinstated'],
    );
  });
}
