import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test, type TestContext } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { createServices, type Services } from '../../src/container.ts';
import { migrateToLatest, openDatabase } from '../../src/db/database.ts';
import { createRateLimitStore } from '../../src/http/rate-limit-factory.ts';
import { MemoryRateLimitStore, RATE_LIMIT_WINDOW_MS } from '../../src/http/rate-limit-store.ts';
import { RedisRateLimitStore } from '../../src/http/redis-rate-limit-store.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { TestClock } from '../helpers/clock.ts';
import { createTestDatabase, DIALECTS } from '../helpers/databases.ts';
import { waitFor } from '../helpers/wait.ts';
import { freePort, inspectRedis, REDIS_URL, SKIP_WITHOUT_REDIS, startOwnRedis } from './redis.ts';

interface LogLine {
  level: number;
  msg: string;
}

function capturingLogger(): { logger: ReturnType<typeof createLogger>; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logger = createLogger('info', {
    write: (line: string) => {
      lines.push(JSON.parse(line) as LogLine);
    },
  });
  return { logger, lines };
}

const WARN = 40;
const INFO = 30;

/** A key namespace of a test's own on the shared test Redis. */
function testPrefix(): string {
  return `tributary-test:${randomBytes(6).toString('hex')}:rl:`;
}

/** A store on the shared test Redis, as one API process would hold it. */
function redisStore(t: TestContext, keyPrefix: string): RedisRateLimitStore {
  const store = new RedisRateLimitStore({
    url: REDIS_URL ?? '',
    logger: capturingLogger().logger,
    keyPrefix,
  });
  t.after(() => store.close());
  return store;
}

/** A time in the middle of a window, so a test's hits never straddle two windows by accident. */
function midWindow(): number {
  const now = Date.now();
  return now - (now % RATE_LIMIT_WINDOW_MS) + 30_000;
}

describe('Redis rate-limit store', { skip: SKIP_WITHOUT_REDIS }, () => {
  test('two stores (two processes) count one budget per bucket and window', async (t) => {
    const prefix = testPrefix();
    const a = redisStore(t, prefix);
    const b = redisStore(t, prefix);
    const now = midWindow();
    assert.equal((await a.hit('key:key_1', now)).count, 1);
    assert.equal((await b.hit('key:key_1', now + 1)).count, 2);
    assert.equal((await a.hit('key:key_1', now + 2)).count, 3);
    // Another bucket has its own count.
    assert.equal((await b.hit('ip:203.0.113.9', now)).count, 1);
    // The next window starts again from one.
    assert.equal((await b.hit('key:key_1', now + RATE_LIMIT_WINDOW_MS)).count, 1);
  });

  test('counts and reset times match the in-memory store hit for hit, across window edges', async (t) => {
    const redis = redisStore(t, testPrefix());
    const memory = new MemoryRateLimitStore();
    const start = midWindow();
    const times = [
      start,
      start + 1_000,
      start + 29_999, // last millisecond of the window
      start + 30_000, // first of the next
      start + 30_001,
      start + 95_000,
      start + 95_000,
    ];
    for (const time of times) {
      for (const bucket of ['key:key_a', 'ip:192.0.2.1']) {
        assert.deepEqual(await redis.hit(bucket, time), memory.hit(bucket, time), `${bucket} at ${time}`);
      }
    }
    const last = await redis.hit('key:key_a', start + 95_000);
    assert.equal(last.resetAt, start + 30_000 + 2 * RATE_LIMIT_WINDOW_MS);
  });

  test('keys are namespaced by window and bucket and expire after the window', async (t) => {
    const store = new RedisRateLimitStore({ url: REDIS_URL ?? '', logger: capturingLogger().logger });
    t.after(() => store.close());
    const raw = inspectRedis(t);
    const bucket = `key:key_${randomBytes(6).toString('hex')}`;
    // A clock far from Redis's own: expiry must not depend on the two agreeing.
    const now = Date.UTC(2030, 0, 1, 12, 0, 45);
    await store.hit(bucket, now);
    await store.hit(bucket, now);
    const key = `tributary:rl:${Date.UTC(2030, 0, 1, 12, 0, 0)}:${bucket}`;
    assert.equal(store.keyFor(bucket, now), key);
    assert.equal(await raw.get(key), '2');
    const ttl = await raw.pttl(key);
    // 15 s left in the window plus a few seconds' grace for clock differences.
    assert.ok(ttl > 15_000 && ttl <= 20_000, `ttl ${ttl}`);
  });

  test('concurrent hits from two connections are counted exactly once each', async (t) => {
    const prefix = testPrefix();
    const a = redisStore(t, prefix);
    const b = redisStore(t, prefix);
    const now = midWindow();
    const hits = await Promise.all(
      Array.from({ length: 400 }, (_, i) => (i % 2 === 0 ? a : b).hit('key:key_busy', now)),
    );
    const counts = hits.map((hit) => hit.count).sort((x, y) => x - y);
    assert.deepEqual(
      counts,
      Array.from({ length: 400 }, (_, i) => i + 1),
    );
  });

  test('a Redis outage fails open onto per-process counts with one warning, and recovery is logged', async (t) => {
    const own = await startOwnRedis(t);
    const { logger, lines } = capturingLogger();
    // A hit that waited on the dead server would wait out the command timeout, set long here so
    // that such a wait cannot pass for slowness of a loaded machine.
    const store = new RedisRateLimitStore({ url: own.url, logger, commandTimeoutMs: 30_000 });
    t.after(() => store.close());
    const now = midWindow();
    await store.ping();
    assert.equal((await store.hit('key:key_x', now)).count, 1);

    await own.stop();
    const started = performance.now();
    const during = [];
    for (let i = 0; i < 5; i++) during.push(await store.hit('key:key_x', now));
    // Limits stay in force (counted in memory) and no request waits on the dead server.
    assert.deepEqual(
      during.map((hit) => hit.count),
      [1, 2, 3, 4, 5],
    );
    assert.ok(during.every((hit) => hit.resetAt === now + 30_000));
    assert.ok(performance.now() - started < 15_000, 'hits during the outage did not wait on Redis');
    await assert.rejects(store.ping());
    const warnings = lines.filter((line) => line.level === WARN);
    assert.equal(warnings.length, 1, 'one warning per outage, not one per request');
    assert.match(warnings[0]?.msg ?? '', /Redis is unreachable/);

    await own.start();
    await waitFor(
      () =>
        store.ping().then(
          () => true,
          () => false,
        ),
      { what: 'the store to reconnect', intervalMs: 100 },
    );
    // The restarted server is empty: counting starts again in Redis.
    assert.equal((await store.hit('key:key_x', now)).count, 1);
    assert.ok(lines.some((line) => line.level === INFO && /reachable again/.test(line.msg)));
  });

  test('an unreachable Redis at start does not stop requests from being counted', async (t) => {
    const port = await freePort();
    const store = new RedisRateLimitStore({
      url: `redis://127.0.0.1:${port}`,
      logger: capturingLogger().logger,
    });
    t.after(() => store.close());
    const now = midWindow();
    assert.equal((await store.hit('ip:198.51.100.7', now)).count, 1);
    assert.equal((await store.hit('ip:198.51.100.7', now)).count, 2);
    await assert.rejects(store.ping());
  });

  test('createRateLimitStore uses Redis when REDIS_URL is set and offers its readiness check', async (t) => {
    const { logger, lines } = capturingLogger();
    const database = openDatabase('postgres://db/x');
    const setup = createRateLimitStore({ redisUrl: REDIS_URL }, database.db, logger);
    t.after(() => Promise.all([setup.store.close(), database.close()]));
    assert.ok(setup.store instanceof RedisRateLimitStore);
    assert.deepEqual(Object.keys(setup.readinessChecks), ['redis']);
    await setup.readinessChecks.redis?.();
    assert.equal(lines.length, 0, 'no per-process notice when limits are shared');
  });

  for (const dialect of DIALECTS) {
    test(`two API instances on one ${dialect} database share one key's budget, with the headers`, async (t) => {
      // Closed in reverse order of opening: the apps and their pools before the database.
      const cleanups: (() => Promise<void>)[] = [];
      t.after(async () => {
        for (const cleanup of cleanups.reverse()) await cleanup();
      });
      const database = await createTestDatabase(dialect);
      cleanups.push(() => database.drop());
      const keyPrefix = testPrefix();
      const clock = new TestClock(midWindow());
      const apps: { services: Services; origin: string }[] = [];
      for (let i = 0; i < 2; i++) {
        const handle = openDatabase(database.url);
        if (i === 0) await migrateToLatest(handle.db);
        const services = createServices(
          {
            publicUrl: 'http://media.test',
            dataDir: database.dataDir,
            ingest: { rtmpPort: 1935 },
          },
          handle,
          Buffer.alloc(32, 7),
          clock,
        );
        const store = redisStore(t, keyPrefix);
        const app = await buildApp({ services, rateLimits: store, rateLimitPerKey: 5, rateLimitPerIp: 60 });
        await app.listen({ port: 0, host: '127.0.0.1' });
        cleanups.push(async () => {
          await app.close();
          await handle.close();
        });
        const address = app.server.address();
        apps.push({
          services,
          origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
        });
      }
      const accounts = apps[0]!.services.accounts;
      const user = await accounts.createUser('Shared budget');
      const { key } = await accounts.createKey(user.id, 'read');
      const get = (i: number) =>
        fetch(`${apps[i % 2]!.origin}/v1/streams`, { headers: { authorization: `Bearer ${key}` } });

      const remaining = [];
      for (let i = 0; i < 5; i++) {
        const response = await get(i);
        await response.arrayBuffer();
        assert.equal(response.status, 200, `request ${i + 1}`);
        remaining.push(response.headers.get('x-ratelimit-remaining'));
      }
      assert.deepEqual(remaining, ['4', '3', '2', '1', '0']);
      for (const i of [5, 6]) {
        const refused = await get(i);
        assert.equal(refused.status, 429, `request ${i + 1} on instance ${i % 2}`);
        const body = (await refused.json()) as { error: { code: string } };
        assert.equal(body.error.code, 'rate_limit_exceeded');
        assert.equal(refused.headers.get('x-ratelimit-limit'), '5');
        assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
        assert.equal(refused.headers.get('x-ratelimit-reset'), String((clock.now() + 30_000) / 1000));
        assert.equal(refused.headers.get('retry-after'), '30');
      }
      // The next window gives the key its budget back on both instances.
      clock.advance(30_000);
      for (const i of [0, 1]) {
        const response = await get(i);
        await response.arrayBuffer();
        assert.equal(response.status, 200);
      }
    });
  }
});

describe('rate-limit store without Redis', () => {
  test('createRateLimitStore keeps counters in memory and says limits are per process on PostgreSQL', async (t) => {
    const { logger, lines } = capturingLogger();
    // Never connected: the dialect is known without a server.
    const database = openDatabase('postgres://u:p@127.0.0.1/db');
    t.after(() => database.close());
    const setup = createRateLimitStore({ redisUrl: undefined }, database.db, logger);
    assert.ok(setup.store instanceof MemoryRateLimitStore);
    assert.deepEqual(setup.readinessChecks, {});
    assert.equal(lines.length, 1);
    assert.equal(lines[0]?.level, WARN);
    assert.match(lines.map((line) => line.msg).join('\n'), /rate limits are counted per process/);
    await setup.store.close();
  });

  test('createRateLimitStore says nothing for an embedded SQLite database', async (t) => {
    const { logger, lines } = capturingLogger();
    const database = openDatabase(':memory:');
    t.after(() => database.close());
    const setup = createRateLimitStore({ redisUrl: undefined }, database.db, logger);
    assert.ok(setup.store instanceof MemoryRateLimitStore);
    assert.equal(lines.length, 0);
    await setup.store.close();
  });
});
