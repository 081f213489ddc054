// Every chat event a bot, an archive or a filter hears, delivered to a real HTTPS receiver and
// signed: messages posted and deleted, a moderator appointed and removed, the room's switches,
// a timeout and a ban each given and lifted, the blocked words saved. Each payload names the
// channel, the user and who acted.
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { describe, test } from 'node:test';
import { DIALECTS } from '../helpers/databases.ts';
import { startReceiver, type ReceivedRequest } from '../helpers/https-receiver.ts';
import { registerWebhook, sleep, startWebhookServer } from '../webhooks/harness.ts';

const CHAT_EVENTS = [
  'chat_message.created',
  'chat_message.deleted',
  'chat_user.timed_out',
  'chat_user.banned',
  'chat_user.restriction_lifted',
  'chat_settings.updated',
  'chat_moderator.added',
  'chat_moderator.removed',
  'chat_blocked_words.updated',
];

function signedBy(secret: string, request: ReceivedRequest): boolean {
  const expected = createHmac('sha256', secret).update(request.rawBody).digest();
  const presented = Buffer.from(String(request.headers['x-service-signature'] ?? ''), 'hex');
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

for (const dialect of DIALECTS) {
  describe(`chat webhook events (${dialect})`, () => {
    test('messages, moderators, settings, timeouts, bans and their lifting reach the receiver', async (t) => {
      const { server } = await startWebhookServer(t, { dialect });
      const receiver = await startReceiver();
      t.after(() => receiver.close());
      const creator = await server.createAccount('Cora');
      const mod = await server.createAccount('Moe');
      const viewer = await server.createAccount('Vic');
      const webhook = await registerWebhook(server, creator.writeKey, receiver.url(), CHAT_EVENTS);
      const { stream } = await server.services.streams.create(creator.userId, { title: 'Chat night' });
      await server.services.streams.goLive(stream.id);
      const base = `/v1/streams/${stream.id}/chat`;
      const chat = server.services.chat;

      const posted = await server.request('POST', `${base}/messages`, {
        key: viewer.writeKey,
        body: { text: 'hello' },
      });
      assert.equal(posted.status, 201);
      await chat.addModerator(creator.userId, mod.userId);
      const settings = await server.request('PATCH', `${base}/settings`, {
        key: mod.writeKey,
        body: { slow_mode_seconds: 10, followers_only: true },
      });
      assert.equal(settings.status, 200);
      assert.equal(
        (await server.request('DELETE', `${base}/messages/${posted.body.id}`, { key: mod.writeKey })).status,
        200,
      );
      const timedOut = await server.request('POST', `${base}/timeouts`, {
        key: mod.writeKey,
        body: { user_id: viewer.userId, duration_seconds: 60, reason: 'calm down' },
      });
      assert.equal(timedOut.status, 201);
      const liftTimeout = await server.request('DELETE', `${base}/bans/${viewer.userId}`, {
        key: mod.writeKey,
      });
      assert.deepEqual(liftTimeout.body, { lifted: true, user_id: viewer.userId });
      assert.equal(
        (
          await server.request('POST', `${base}/bans`, {
            key: creator.writeKey,
            body: { user_id: viewer.userId },
          })
        ).status,
        201,
      );
      assert.equal(
        (await server.request('DELETE', `${base}/bans/${viewer.userId}`, { key: creator.writeKey })).status,
        200,
      );
      // Lifting again changes nothing and says so: no event.
      const nothing = await server.request('DELETE', `${base}/bans/${viewer.userId}`, {
        key: creator.writeKey,
      });
      assert.deepEqual(nothing.body, { lifted: false, user_id: viewer.userId });
      await chat.setBlockedWords(creator.userId, ['Spoiler', 'plot twist']);
      await chat.removeModerator(creator.userId, mod.userId);
      // Removing one who is not a moderator records nothing.
      await chat.removeModerator(creator.userId, mod.userId);

      const expected = 1 + 10; // the ping, then each action above once
      const requests = await receiver.waitForRequests(expected, 30_000);
      for (const request of requests) assert.ok(signedBy(webhook.secret, request), request.body.type);
      const events = requests.filter((r) => r.body.type !== 'ping').map((r) => r.body);
      const byType = (type: string) => events.filter((e) => e.type === type).map((e) => e.data);
      assert.deepEqual(events.map((e) => e.type).sort(), [
        'chat_blocked_words.updated',
        'chat_message.created',
        'chat_message.deleted',
        'chat_moderator.added',
        'chat_moderator.removed',
        'chat_settings.updated',
        'chat_user.banned',
        'chat_user.restriction_lifted',
        'chat_user.restriction_lifted',
        'chat_user.timed_out',
      ]);
      assert.deepEqual(byType('chat_moderator.added'), [
        { channel_id: creator.userId, user_id: mod.userId, by: creator.userId },
      ]);
      assert.deepEqual(byType('chat_moderator.removed'), [
        { channel_id: creator.userId, user_id: mod.userId, by: creator.userId },
      ]);
      assert.deepEqual(byType('chat_settings.updated'), [
        {
          channel_id: creator.userId,
          stream_id: stream.id,
          slow_mode_seconds: 10,
          followers_only: true,
          max_length: 500,
          by: mod.userId,
        },
      ]);
      const lifted = byType('chat_user.restriction_lifted').sort((a, b) => a.kind.localeCompare(b.kind));
      assert.deepEqual(lifted, [
        {
          channel_id: creator.userId,
          stream_id: stream.id,
          user_id: viewer.userId,
          kind: 'ban',
          by: creator.userId,
        },
        {
          channel_id: creator.userId,
          stream_id: stream.id,
          user_id: viewer.userId,
          kind: 'timeout',
          by: mod.userId,
        },
      ]);
      assert.deepEqual(byType('chat_blocked_words.updated'), [
        { channel_id: creator.userId, words: ['spoiler', 'plot twist'], by: creator.userId },
      ]);
      assert.equal(byType('chat_user.timed_out')[0].reason, 'calm down');
      assert.equal(byType('chat_message.deleted')[0].deleted_by, mod.userId);
      assert.equal(byType('chat_message.created')[0].text, 'hello');
      // Nothing more arrives (the no-op lift and removal sent nothing).
      await sleep(1500);
      assert.equal(receiver.requests.length, expected);
    });
  });
}
