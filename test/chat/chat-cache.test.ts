// What the post path keeps per process (src/chat/chat-cache.ts): entries expire, concurrent posts
// share one read, a failed or refused read is not kept, the oldest goes when full; and the bound
// between processes: with the bus event lost (two services on one database, each on its own
// local bus), a ban, the blocked words and a new moderator made on one still hold on the other
// within CHAT_CACHE_TTL_MS. On the same process they hold at once (test/chat/chat-api.test.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LocalChatBus } from '../../src/chat/chat-bus.ts';
import { CHAT_CACHE_TTL_MS, TtlCache } from '../../src/chat/chat-cache.ts';
import { MemoryChatFlood } from '../../src/chat/chat-flood.ts';
import { ChatService } from '../../src/chat/chat.service.ts';
import { startTestApp } from '../helpers/app.ts';
import { waitFor } from '../helpers/wait.ts';

test('a kept value expires, is read once for concurrent callers, and failures are not kept', async () => {
  const cache = new TtlCache<number>(100, 3);
  let reads = 0;
  const load = () => Promise.resolve(++reads);
  assert.deepEqual(await Promise.all([cache.get('a', load), cache.get('a', load)]), [1, 1]);
  assert.equal(await cache.get('a', load), 1);
  await waitFor(async () => ((await cache.get('a', load)) === 2 ? true : undefined), {
    timeoutMs: 5000,
    what: 'the entry to expire',
  });
  // A failed read is forgotten: the next caller reads again.
  await assert.rejects(cache.get('b', () => Promise.reject(new Error('database gone'))));
  assert.equal(await cache.get('b', () => Promise.resolve(7)), 7);
  // A value `keep` refuses is not kept.
  assert.equal(
    await cache.get(
      'c',
      () => Promise.resolve(0),
      (v) => v > 0,
    ),
    0,
  );
  assert.equal(
    await cache.get(
      'c',
      () => Promise.resolve(5),
      (v) => v > 0,
    ),
    5,
  );
  // Full (3 entries): the oldest goes first.
  assert.equal(await cache.get('d', () => Promise.resolve(9)), 9);
  assert.equal(await cache.get('a', () => Promise.resolve(100)), 100);
  cache.deletePrefix('c');
  assert.equal(await cache.get('c', () => Promise.resolve(6)), 6);
});

test('a change on another process holds within the bound even when its bus event is lost', async (t) => {
  const app = await startTestApp(t, { dialect: 'sqlite', clock: { now: () => Date.now() } });
  const clock = { now: () => Date.now() };
  const [first, second] = [0, 1].map(
    () =>
      new ChatService(
        app.services.database.db,
        clock,
        new LocalChatBus(),
        new MemoryChatFlood(clock, 10_000),
        {
          platformFilter: false,
        },
      ),
  );
  assert.ok(first && second);
  t.after(() => Promise.all([first.close(), second.close()]));
  const creator = await app.createAccount('Cora');
  const viewer = await app.createAccount('Vic');
  const stream = await app.createStream(creator);
  await app.services.streams.goLive(stream.id);
  const post = (service: ChatService, userId: string, text: string, address: string) =>
    service.post({ streamId: stream.id, userId, address, text });
  // The second process has read (and kept) the stream, room, role, words and Vic's standing.
  await post(second, viewer.userId, 'hello', '10.0.0.1');

  await first.setBlockedWords(creator.userId, ['spoiler']);
  const wordsAt = performance.now();
  await waitFor(
    async () => {
      try {
        await post(
          second,
          viewer.userId,
          `a spoiler ${performance.now()}`,
          `10.0.1.${Math.floor(performance.now()) % 250}`,
        );
        return undefined;
      } catch (error) {
        return (error as { code?: string }).code === 'parameter_invalid' ? true : undefined;
      }
    },
    { timeoutMs: 5000, intervalMs: 100, what: 'the blocked word on the other process' },
  );
  assert.ok(
    performance.now() - wordsAt < CHAT_CACHE_TTL_MS + 1500,
    'within the bound (and a slow post on a loaded machine)',
  );

  await first.ban(stream.id, creator.userId, viewer.userId, null);
  const banAt = performance.now();
  await waitFor(
    async () => {
      try {
        await post(
          second,
          viewer.userId,
          `still here ${performance.now()}`,
          `10.0.2.${Math.floor(performance.now()) % 250}`,
        );
        return undefined;
      } catch (error) {
        return (error as { code?: string }).code === 'chat_banned' ? true : undefined;
      }
    },
    { timeoutMs: 5000, intervalMs: 100, what: 'the ban on the other process' },
  );
  assert.ok(
    performance.now() - banAt < CHAT_CACHE_TTL_MS + 1500,
    'within the bound (and a slow post on a loaded machine)',
  );
  // On the process that made it, at once.
  await assert.rejects(post(first, viewer.userId, 'and here?', '10.0.3.1'), { code: 'chat_banned' });
});
