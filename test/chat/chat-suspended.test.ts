// A suspended account may sign in again to read why (src/web/admin/suspended-gate.ts); its chat
// socket may then read the room but not post: the hello says so and a post gets the reason.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../helpers/app.ts';
import { ChatClient, sessionCookie } from './chat-client.ts';

test("a suspended account's chat socket reads but cannot post", async (t) => {
  const app = await startTestApp(t, { dialect: 'sqlite', clock: { now: () => Date.now() } });
  const creator = await app.createAccount('Cora');
  const sue = await app.createAccount('Sue');
  const stream = await app.createStream(creator);
  await app.services.streams.goLive(stream.id);
  await app.services.database.db
    .updateTable('users')
    .set({ suspended_at: Date.now(), suspension_reason: 'spam' })
    .where('id', '=', sue.userId)
    .execute();
  // Signed in again after the suspension (it ended the sessions it found).
  const client = await ChatClient.connect(app.origin, stream.id, {
    cookie: await sessionCookie(app.services.sessions, sue.userId),
  });
  t.after(() => {
    client.close();
  });
  const hello = await client.hello();
  assert.equal(hello.can_post, false);
  const refused = await client.post('let me in');
  assert.equal(refused.type, 'error');
  assert.equal(refused.code, 'account_suspended');
  assert.match(String(refused.message), /suspended/);
  const listed = await app.request('GET', `/v1/streams/${stream.id}/chat/messages`, { key: creator.readKey });
  assert.deepEqual(listed.body.data, []);
});
