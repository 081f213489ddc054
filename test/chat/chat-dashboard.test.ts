// The creator's chat moderation page: appointing and removing moderators, blocked words, and
// the moderation log with every action (who, what, whom, when).
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
  assert.equal(added.status, 200);
  const addedText = await added.text();
  assert.match(addedText, /Moderator added/);
  assert.match(addedText, /Moe Moderator/);
  const words = await agent.post('/dashboard/chat/blocked-words', { words: 'Spoiler\nplot twist\n' });
  assert.match(await words.text(), /Blocked words saved \(2\)/);
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
  assert.match(await removed.text(), /Moderator removed/);
  assert.deepEqual(await app.services.chat.moderators(creatorId), []);
});
