// The Redis store of live viewers against a real redis-server, driven by a TestClock: two
// stores (two processes) add up to one count; the per-address cap and the per-stream bound hold
// across them; viewers leave after the window and their keys expire; when Redis is down the
// store counts in memory and comes back to the shared count when Redis does.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test, type TestContext } from 'node:test';
import { RedisLiveViewers } from '../../src/viewers/redis-live-viewers.ts';
import type { ViewerLimits } from '../../src/media/viewer-tracker.ts';
import { TestClock } from '../helpers/clock.ts';
import { waitFor } from '../helpers/wait.ts';
import { inspectRedis, REDIS_URL, SKIP_WITHOUT_REDIS, startOwnRedis } from '../scale/redis.ts';

const WINDOW_MS = 15_000;
const LIMITS: ViewerLimits = { perAddress: 3, perStream: 50, total: 1000 };

function store(
  t: TestContext,
  clock: TestClock,
  keyPrefix: string,
  options: { url?: string; logs?: string[] } = {},
): RedisLiveViewers {
  const logs = options.logs ?? [];
  const viewers = new RedisLiveViewers({
    url: options.url ?? REDIS_URL ?? '',
    clock,
    logger: {
      warn: (_: unknown, message?: string) => logs.push(`warn ${message}`),
      info: (message: string) => logs.push(`info ${message}`),
    } as never,
    windowMs: WINDOW_MS,
    limits: LIMITS,
    keyPrefix,
  });
  t.after(() => viewers.close());
  return viewers;
}

describe('live viewers in Redis', { skip: SKIP_WITHOUT_REDIS }, () => {
  test('two processes add up to one count; caps and bounds hold across them; viewers leave after the window', async (t) => {
    const clock = new TestClock();
    const prefix = `test:viewers:${randomBytes(6).toString('hex')}:`;
    const [one, two] = [store(t, clock, prefix), store(t, clock, prefix)];
    await one.seen('str_a', '192.0.2.1', 'c:one');
    await two.seen('str_a', '192.0.2.2', 'c:two');
    await two.seen('str_a', '192.0.2.1', 'c:one'); // the same viewer at the other process
    await one.seen('str_b', '192.0.2.1', 'c:one');
    assert.equal(await one.count('str_a'), 2);
    assert.equal(await two.count('str_a'), 2);
    assert.equal(await two.count('str_b'), 1);

    // One address inventing ids adds its share of three, whichever process it reaches.
    for (let i = 0; i < 10; i++) await (i % 2 ? one : two).seen('str_a', '192.0.2.9', `c:invented-${i}`);
    assert.equal(await one.count('str_a'), 5);

    // A flood of addresses stops at the stream's bound.
    for (let i = 0; i < 80; i++) await one.seen('str_c', `198.51.100.${i}`, 'c:x');
    assert.equal(await two.count('str_c'), LIMITS.perStream);

    // Signals keep a viewer; silence past the window drops it, and its address's share with it.
    clock.advance(10_000);
    await one.seen('str_a', '192.0.2.1', 'c:one');
    clock.advance(6_000);
    assert.equal(await two.count('str_a'), 1, 'only the viewer who signalled within 15 s');
    await two.seen('str_a', '192.0.2.9', 'c:invented-new');
    assert.equal(await one.count('str_a'), 2, 'the address that left has its share back');

    // Every key expires on its own: a stream nobody watches leaves nothing behind.
    const redis = inspectRedis(t);
    const keys = await redis.keys(`${prefix}*`);
    assert.equal(keys.length, 6);
    for (const key of keys) {
      const ttl = await redis.pttl(key);
      assert.ok(ttl > 0 && ttl <= 2 * WINDOW_MS, `${key}: pttl ${ttl}`);
    }
    const members = await redis.zcard(one.keysOf('str_c')[0]);
    assert.equal(members, LIMITS.perStream);
  });

  test('without Redis the store counts in memory, says so once, and shares again when Redis is back', async (t) => {
    const own = await startOwnRedis(t);
    const clock = new TestClock();
    const logs: string[] = [];
    const prefix = `test:viewers:${randomBytes(6).toString('hex')}:`;
    const viewers = store(t, clock, prefix, { url: own.url, logs });
    await viewers.seen('str_a', '192.0.2.1', 'c:one');
    assert.equal(await viewers.count('str_a'), 1);

    await own.stop();
    await viewers.seen('str_a', '192.0.2.2', 'c:two');
    await viewers.seen('str_a', '192.0.2.3', 'c:three');
    assert.equal(await viewers.count('str_a'), 2, "this process's viewers since the outage");
    assert.deepEqual(logs, [
      'warn Redis is unreachable; counting live viewers in this process until it is back',
    ]);

    await own.start();
    await waitFor(
      async () => {
        await viewers.seen('str_a', '192.0.2.4', 'c:four');
        return logs.length === 2;
      },
      { what: 'the store to reach Redis again' },
    );
    assert.equal(logs[1], 'info Redis is reachable again; live viewers are counted across processes again');
    // This redis-server restarted empty (no persistence): the shared count is what reached it
    // since, no longer the memory's.
    await viewers.seen('str_a', '192.0.2.5', 'c:five');
    assert.equal(await viewers.count('str_a'), 2);
  });
});
