// The chat's API and its rules, on both databases: lists with cursors, posting as the key's
// user, deleting, timeouts and bans, the creator's switches, filters, and the webhook events.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startTestApp } from '../helpers/app.ts';
import { TestClock } from '../helpers/clock.ts';
import { DIALECTS } from '../helpers/databases.ts';

for (const dialect of DIALECTS) {
  describe(`chat API (${dialect})`, () => {
    test('post, list with cursors, delete, and the events a bot hears', async (t) => {
      const clock = new TestClock();
      const app = await startTestApp(t, { dialect, clock });
      const creator = await app.createAccount('Cora');
      const viewer = await app.createAccount('Vic');
      const stream = await app.createStream(creator);
      const path = `/v1/streams/${stream.id}/chat/messages`;
      for (let i = 1; i <= 5; i++) {
        clock.advance(1000);
        const posted = await app.request('POST', path, {
          key: viewer.writeKey,
          body: { text: `  hi ${i}\n` },
        });
        assert.equal(posted.status, 201, JSON.stringify(posted.body));
        assert.equal(posted.body.text, `hi ${i}`);
        assert.deepEqual(posted.body.author, { id: viewer.userId, name: 'Vic', role: 'viewer' });
      }
      const first = await app.request('GET', `${path}?limit=2`, { key: creator.readKey });
      assert.deepEqual(
        first.body.data.map((m: any) => m.text),
        ['hi 1', 'hi 2'],
      );
      assert.equal(first.body.pagination.has_more, true);
      const second = await app.request(
        'GET',
        `${path}?limit=10&cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`,
        { key: creator.readKey },
      );
      assert.deepEqual(
        second.body.data.map((m: any) => m.text),
        ['hi 3', 'hi 4', 'hi 5'],
      );
      assert.equal(second.body.pagination.next_cursor, null);
      // A read key cannot post; a cursor from another stream's list is refused.
      assert.equal(
        (await app.request('POST', path, { key: viewer.readKey, body: { text: 'x' } })).status,
        403,
      );
      const other = await app.createStream(creator);
      const foreign = await app.request(
        'GET',
        `/v1/streams/${other.id}/chat/messages?cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`,
        { key: creator.readKey },
      );
      assert.equal(foreign.body.error.code, 'invalid_cursor');

      // Another viewer cannot delete Vic's message; the creator can; it is gone from the list.
      const stranger = await app.createAccount('Stan');
      const target = first.body.data[0].id as string;
      const refused = await app.request('DELETE', `${path}/${target}`, { key: stranger.writeKey });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error.code, 'chat_not_allowed');
      assert.equal((await app.request('DELETE', `${path}/${target}`, { key: creator.writeKey })).status, 200);
      assert.equal((await app.request('DELETE', `${path}/${target}`, { key: creator.writeKey })).status, 404);
      const after = await app.request('GET', path, { key: creator.readKey });
      assert.deepEqual(
        after.body.data.map((m: any) => m.text),
        ['hi 2', 'hi 3', 'hi 4', 'hi 5'],
      );
      const created = await app.events('chat_message.created');
      assert.equal(created.length, 5);
      const [firstEvent] = created;
      assert.ok(firstEvent);
      assert.equal(firstEvent.account_id, creator.userId);
      assert.equal(firstEvent.data.text, 'hi 1');
      const deletedEvents = await app.events('chat_message.deleted');
      assert.deepEqual(
        deletedEvents.map((e) => [e.data.id, e.data.deleted_by]),
        [[target, creator.userId]],
      );
      // Bad input is a clear 400, never a 500.
      for (const body of [
        {},
        { text: '' },
        { text: 42 },
        { text: 'x', extra: 1 },
        { text: 'x'.repeat(501) },
      ]) {
        const bad = await app.request('POST', path, { key: viewer.writeKey, body });
        assert.equal(bad.status, 400, JSON.stringify(body));
      }
      assert.equal(
        (await app.request('GET', `/v1/streams/str_none/chat/messages`, { key: viewer.readKey })).status,
        404,
      );
    });

    test('timeouts, bans, moderators, settings, filters and floods, each with its reason', async (t) => {
      const clock = new TestClock();
      const app = await startTestApp(t, { dialect, clock });
      const creator = await app.createAccount('Cora');
      const mod = await app.createAccount('Moe');
      const viewer = await app.createAccount('Vic');
      const stream = await app.createStream(creator);
      const path = `/v1/streams/${stream.id}/chat/messages`;
      // Every caller here is on loopback, one address: 700 ms between messages keeps under its
      // flood limit (3 per 2 s) except where the test floods on purpose.
      const say = (key: string, text: string) => {
        clock.advance(700);
        return app.request('POST', path, { key, body: { text } });
      };

      // A viewer cannot moderate; the creator appoints Moe, who then can (and is marked).
      const notYet = await app.request('POST', `/v1/streams/${stream.id}/chat/timeouts`, {
        key: mod.writeKey,
        body: { user_id: viewer.userId, duration_seconds: 60 },
      });
      assert.equal(notYet.body.error.code, 'chat_not_allowed');
      await app.services.chat.addModerator(creator.userId, mod.userId);
      assert.equal((await say(mod.writeKey, 'order please')).body.author.role, 'moderator');
      const timeout = await app.request('POST', `/v1/streams/${stream.id}/chat/timeouts`, {
        key: mod.writeKey,
        body: { user_id: viewer.userId, duration_seconds: 60, reason: 'calm down' },
      });
      assert.equal(timeout.status, 201, JSON.stringify(timeout.body));
      const timedOut = await say(viewer.writeKey, 'hello?');
      assert.equal(timedOut.status, 403);
      assert.equal(timedOut.body.error.code, 'chat_timed_out');
      assert.match(timedOut.body.error.message, /60 s/);
      clock.advance(61_000);
      assert.equal((await say(viewer.writeKey, 'back')).status, 201);
      // A moderator cannot ban the creator or another moderator.
      const upward = await app.request('POST', `/v1/streams/${stream.id}/chat/bans`, {
        key: mod.writeKey,
        body: { user_id: creator.userId },
      });
      assert.equal(upward.status, 400);
      const ban = await app.request('POST', `/v1/streams/${stream.id}/chat/bans`, {
        key: creator.writeKey,
        body: { user_id: viewer.userId, reason: 'spam' },
      });
      assert.equal(ban.status, 201);
      // Banned from the channel: every stream of it.
      const later = await app.createStream(creator);
      const banned = await app.request('POST', `/v1/streams/${later.id}/chat/messages`, {
        key: viewer.writeKey,
        body: { text: 'sneaky' },
      });
      assert.equal(banned.body.error.code, 'chat_banned');
      const lift = await app.request('DELETE', `/v1/streams/${stream.id}/chat/bans/${viewer.userId}`, {
        key: creator.writeKey,
      });
      assert.deepEqual(lift.body, { lifted: true, user_id: viewer.userId });
      assert.equal((await say(viewer.writeKey, 'sorry')).status, 201);

      // Slow mode and followers-only, switched on while live; the length limit lowered.
      clock.advance(31_000);
      const settings = await app.request('PATCH', `/v1/streams/${stream.id}/chat/settings`, {
        key: creator.writeKey,
        body: { slow_mode_seconds: 30, max_length: 20 },
      });
      assert.deepEqual(settings.body, { slow_mode_seconds: 30, followers_only: false, max_length: 20 });
      assert.equal((await say(viewer.writeKey, 'one')).status, 201);
      const slow = await say(viewer.writeKey, 'two');
      assert.equal(slow.body.error.code, 'rate_limit_exceeded');
      assert.match(slow.body.error.message, /Slow mode/);
      clock.advance(31_000);
      assert.match((await say(viewer.writeKey, 'x'.repeat(21))).body.error.message, /at most 20 characters/);
      await app.request('PATCH', `/v1/streams/${stream.id}/chat/settings`, {
        key: creator.writeKey,
        body: { followers_only: true, slow_mode_seconds: 0 },
      });
      assert.equal((await say(viewer.writeKey, 'hello')).body.error.code, 'chat_followers_only');
      await app.services.subscriptions.subscribe(viewer.userId, creator.userId);
      assert.equal((await say(viewer.writeKey, 'hello')).status, 201);

      // The channel's blocked words and the platform's filter.
      await app.services.chat.setBlockedWords(creator.userId, ['Spoiler']);
      assert.match((await say(viewer.writeKey, 'big spoiler!')).body.error.message, /blocked/);
      assert.equal((await say(viewer.writeKey, 'spoilers?')).status, 201);
      clock.advance(3000);
      assert.match((await say(viewer.writeKey, 'you f4ggot')).body.error.message, /does not allow/);

      // A flood: the fourth message within 2 s mutes.
      clock.advance(5000);
      const answers = [];
      for (let i = 0; i < 4; i++) {
        const answer = await app.request('POST', path, {
          key: viewer.writeKey,
          body: { text: `flood ${i}` },
        });
        answers.push(answer.status);
      }
      assert.deepEqual(answers, [201, 201, 201, 429]);

      // Every action is in the moderation log.
      const log = await app.services.chat.moderationLog(creator.userId);
      const actions = log.map((entry) => entry.action).reverse();
      for (const action of [
        'moderator.added',
        'user.timed_out',
        'user.banned',
        'user.unbanned',
        'settings.updated',
        'blocked_words.updated',
      ]) {
        assert.ok(actions.includes(action as never), `${action} in ${actions.join(', ')}`);
      }
      assert.equal((await app.events('chat_user.timed_out'))[0]?.data.reason, 'calm down');
      assert.equal((await app.events('chat_user.banned'))[0]?.data.user_id, viewer.userId);
    });

    test('the platform filter can be switched off by the operator', async (t) => {
      const app = await startTestApp(t, { dialect, chat: { platformFilter: false } });
      const creator = await app.createAccount('Cora');
      const stream = await app.createStream(creator);
      const posted = await app.request('POST', `/v1/streams/${stream.id}/chat/messages`, {
        key: creator.writeKey,
        body: { text: 'you f4ggot' },
      });
      assert.equal(posted.status, 201);
    });
  });
}
