// The creator's chat moderation page: appointing and removing moderators, blocked words, lifting
// bans and timeouts, and the moderation log with every action (who, what, whom, when); and a
// stream's page: the room's switches (slow mode, followers-only, the length limit) while live,
// lifting a ban there, and the newest log entries. Every form redirects after its POST.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../helpers/app.ts';
import { signUp } from '../helpers/web.ts';

test('the dashboard shows and changes moderators, blocked words and the moderation log', async (t) => {
  const app = await startTestApp(t, { dialect: 'sqlite', clock: { now: () => Date.now() } });
  const agent = await signUp(app.origin, {
    name: 'Cora',
    email: 'cora@example.com',
    password: 'a long password here',
  });
  const page = await agent.get('/dashboard/chat');
  assert.equal(page.status, 200);
  assert.match(await page.text(), /Chat moderation/);
  const mod = await app.createAccount('Moe Moderator');
  const bad = await agent.post('/dashboard/chat/moderators', { user_id: 'usr_nobody' });
  assert.equal(bad.status, 400);
  assert.match(await bad.text(), /No user with id/);
  const added = await agent.post('/dashboard/chat/moderators', { user_id: mod.userId });
  assert.equal(added.status, 303);
  assert.equal(added.headers.get('location'), '/dashboard/chat?done=moderator-added');
  const addedText = await (await agent.get('/dashboard/chat?done=moderator-added')).text();
  assert.match(addedText, /Moderator added/);
  assert.match(addedText, /Moe Moderator/);
  // Removing one asks first.
  assert.match(addedText, /data-confirm="Remove Moe Moderator as a moderator\?/);
  const words = await agent.post('/dashboard/chat/blocked-words', { words: 'Spoiler\nplot twist\n' });
  assert.equal(words.headers.get('location'), '/dashboard/chat?done=words-saved');
  const creatorId = (
    await app.services.database.db
      .selectFrom('users')
      .select('id')
      .where('name', '=', 'Cora')
      .executeTakeFirstOrThrow()
  ).id;
  assert.deepEqual(await app.services.chat.blockedWords(creatorId), ['spoiler', 'plot twist']);
  const log = await (await agent.get('/dashboard/chat')).text();
  assert.match(log, /moderator\.added/);
  assert.match(log, /blocked_words\.updated/);
  const removed = await agent.post('/dashboard/chat/moderators/remove', { user_id: mod.userId });
  assert.equal(removed.headers.get('location'), '/dashboard/chat?done=moderator-removed');
  assert.deepEqual(await app.services.chat.moderators(creatorId), []);
});

test('a stream page switches slow mode, followers-only and the length limit, and lifts a ban', async (t) => {
  const app = await startTestApp(t, { dialect: 'sqlite', clock: { now: () => Date.now() } });
  const agent = await signUp(app.origin, {
    name: 'Cora',
    email: 'cora@example.com',
    password: 'a long password here',
  });
  const creatorId = (
    await app.services.database.db
      .selectFrom('users')
      .select('id')
      .where('name', '=', 'Cora')
      .executeTakeFirstOrThrow()
  ).id;
  const stream = (await app.services.streams.create(creatorId, { title: 'Live now' })).stream;
  await app.services.database.db
    .updateTable('streams')
    .set({ status: 'live', started_at: Date.now() })
    .where('id', '=', stream.id)
    .execute();
  const page = `/dashboard/streams/${stream.id}`;
  const before = await (await agent.get(page)).text();
  assert.match(before, /id="chat-settings"/);
  assert.match(before, /Now: slow mode off, everyone signed in may chat, at most 500 characters\./);

  const saved = await agent.post(`${page}/chat/settings`, {
    slow_mode_seconds: '30',
    followers_only: 'on',
    max_length: '140',
  });
  assert.equal(saved.status, 303);
  assert.equal(saved.headers.get('location'), `${page}?chat=saved#chat-panel`);
  assert.deepEqual(await app.services.chat.settings(stream.id), {
    slow_mode_seconds: 30,
    followers_only: true,
    max_length: 140,
  });
  const after = await (await agent.get(`${page}?chat=saved`)).text();
  assert.match(after, /Chat settings saved/);
  assert.match(after, /Now: slow mode 30 s, followers-only, at most 140 characters\./);
  assert.match(after, /settings\.updated/);

  // A viewer who does not follow is refused now; a follower is held back by slow mode.
  const viewer = await app.createAccount('Vic');
  const say = (text: string) =>
    app.request('POST', `/v1/streams/${stream.id}/chat/messages`, { key: viewer.writeKey, body: { text } });
  assert.equal((await say('hello')).body.error.code, 'chat_followers_only');
  // Switched off (an unchecked box is absent from the form): anyone may post, once per 30 s.
  await agent.post(`${page}/chat/settings`, { slow_mode_seconds: '30', max_length: '140' });
  assert.equal((await say('hello')).status, 201);
  const slow = await say('again');
  assert.equal(slow.status, 429);
  assert.match(slow.body.error.message, /Slow mode is on/);
  assert.equal((await say('x'.repeat(141))).body.error.code, 'parameter_invalid');

  // Bad input: the site's error page, with the field's problem, and nothing changed.
  for (const [form, message] of [
    [{ slow_mode_seconds: 'fast', max_length: '140' }, /Slow mode must be a whole number/],
    [{ slow_mode_seconds: '-1', max_length: '140' }, /Slow mode must be a whole number/],
    [{ slow_mode_seconds: '99999', max_length: '140' }, /Slow mode is 0 \(off\) to 3600 seconds/],
    [{ slow_mode_seconds: '0', max_length: '5' }, /The length limit is 20 to 500 characters/],
    [{ slow_mode_seconds: '0' }, /The longest message must be a whole number/],
  ] as const) {
    const refused = await agent.post(`${page}/chat/settings`, form);
    assert.equal(refused.status, 400);
    assert.match(refused.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await refused.text(), message);
  }
  assert.equal((await app.services.chat.settings(stream.id)).slow_mode_seconds, 30);

  // A ban, lifted from the stream's page after a confirmation.
  await app.services.chat.ban(stream.id, creatorId, viewer.userId, 'spam');
  const banned = await (await agent.get(page)).text();
  assert.match(banned, /<strong>Vic<\/strong>:\s*banned \(spam\)/);
  assert.match(banned, /data-confirm="Lift Vic's ban\? They can chat again at once\."/);
  const lifted = await agent.post(`${page}/chat/lift`, { user_id: viewer.userId });
  assert.equal(lifted.headers.get('location'), `${page}?chat=lifted#chat-panel`);
  assert.equal((await app.services.chat.restrictions(creatorId)).length, 0);
  const again = await agent.post(`${page}/chat/lift`, { user_id: viewer.userId });
  assert.equal(again.headers.get('location'), `${page}?chat=not-restricted#chat-panel`);
  const log = await (await agent.get(page)).text();
  assert.match(log, /user\.unbanned/);
  assert.match(log, /ban lifted/);

  // A timeout lifted from the channel's moderation page.
  await app.services.chat.timeout(stream.id, creatorId, viewer.userId, 600, null);
  const channel = await (await agent.get('/dashboard/chat')).text();
  assert.match(channel, /timed out until/);
  const fromChannel = await agent.post('/dashboard/chat/lift', { user_id: viewer.userId });
  assert.equal(fromChannel.headers.get('location'), '/dashboard/chat?done=lifted');
  assert.equal((await app.services.chat.restrictions(creatorId)).length, 0);
  assert.match(await (await agent.get('/dashboard/chat')).text(), /timeout lifted/);

  // Another creator's stream answers as a missing one, and changes nothing.
  const other = await app.createAccount('Olga');
  const theirs = await app.createStream(other);
  const foreign = await agent.post(`/dashboard/streams/${theirs.id}/chat/settings`, {
    slow_mode_seconds: '5',
    max_length: '100',
  });
  assert.equal(foreign.status, 404);
  assert.equal((await app.services.chat.settings(theirs.id)).slow_mode_seconds, 0);
});
