// Several real `tributary` processes on one PostgreSQL database and one Redis, as a scaled-out
// deployment runs them: the API processes share one rate-limit budget per key.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { RATE_LIMIT_WINDOW_MS } from '../../src/http/rate-limit-store.ts';
import { createTestDatabase, POSTGRES_ADMIN_URL } from '../helpers/databases.ts';
import { startService, tributaryCli, waitUntilReady, type ServiceProcess } from './processes.ts';
import { freePort, REDIS_URL } from './redis.ts';

const SKIP =
  POSTGRES_ADMIN_URL && REDIS_URL
    ? false
    : 'needs TEST_POSTGRES_URL and TEST_REDIS_URL (a PostgreSQL server and a redis-server)';

const BUDGET = 1000;

interface Reply {
  status: number;
  limit: string | null;
  remaining: string | null;
  reset: string | null;
  retryAfter: string | null;
  code: string | undefined;
}

async function call(origin: string, key: string): Promise<Reply> {
  const response = await fetch(`${origin}/v1/streams?limit=1`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const body = (await response.json()) as { error?: { code: string } };
  return {
    status: response.status,
    limit: response.headers.get('x-ratelimit-limit'),
    remaining: response.headers.get('x-ratelimit-remaining'),
    reset: response.headers.get('x-ratelimit-reset'),
    retryAfter: response.headers.get('retry-after'),
    code: body.error?.code,
  };
}

/** Runs `count` calls with `concurrency` in flight, the i-th on origins[i % origins.length]. */
async function spread(origins: string[], key: string, count: number, concurrency: number): Promise<Reply[]> {
  const replies: Reply[] = new Array<Reply>(count);
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      replies[i] = await call(origins[i % origins.length] ?? '', key);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return replies;
}

/** Fixed windows: start a budget test with enough of the window left that it cannot straddle two. */
async function awaitRoomInWindow(neededMs: number): Promise<void> {
  const left = RATE_LIMIT_WINDOW_MS - (Date.now() % RATE_LIMIT_WINDOW_MS);
  if (left < neededMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

describe('many processes on PostgreSQL and Redis', { skip: SKIP, timeout: 120_000 }, () => {
  test('two API processes share one key budget of 1,000 a minute; the 1,001st on either is 429', async (t) => {
    const database = await createTestDatabase('postgres');
    t.after(() => database.drop());
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      DATABASE_URL: database.url,
      DATA_DIR: database.dataDir,
      SECRET_KEY: randomBytes(32).toString('hex'),
      REDIS_URL,
      RATE_LIMIT_PER_KEY: String(BUDGET),
      LOG_LEVEL: 'warn',
    };
    // Migrations are their own step, before any server starts.
    await tributaryCli(env, ['migrate']);
    const userId = await tributaryCli(env, ['users', 'create', '--name', 'Scale test']);
    const key = await tributaryCli(env, ['keys', 'create', '--user', userId, '--scope', 'read']);

    const apis: ServiceProcess[] = [];
    const origins: string[] = [];
    for (const name of ['api-1', 'api-2']) {
      const port = await freePort();
      const api = startService(t, {
        name,
        args: ['serve', '--no-worker'],
        env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
        logDir: database.dataDir,
      });
      await waitUntilReady(api, `http://127.0.0.1:${port}/readyz`);
      apis.push(api);
      origins.push(`http://127.0.0.1:${port}`);
    }
    for (const origin of origins) {
      const ready = (await (await fetch(`${origin}/readyz`)).json()) as { checks: Record<string, string> };
      assert.deepEqual(ready.checks, { database: 'ok', redis: 'ok' }, `${origin} checks Redis for readiness`);
    }

    await awaitRoomInWindow(20_000);
    const replies = await spread(origins, key, BUDGET, 20);
    const refusedEarly = replies.filter((reply) => reply.status !== 200);
    assert.equal(
      refusedEarly.length,
      0,
      `all ${BUDGET} within budget succeed: ${JSON.stringify(refusedEarly[0])}`,
    );
    // Every count from 1 to 1,000 was handed out exactly once, whichever process answered.
    assert.deepEqual(
      replies.map((reply) => Number(reply.remaining)).sort((a, b) => a - b),
      Array.from({ length: BUDGET }, (_, i) => i),
    );
    assert.equal(new Set(replies.map((reply) => reply.reset)).size, 1, 'one window for the key');

    for (const origin of origins) {
      const refused = await call(origin, key);
      assert.equal(refused.status, 429, `the 1,001st request on ${origin}`);
      assert.equal(refused.code, 'rate_limit_exceeded');
      assert.equal(refused.limit, String(BUDGET));
      assert.equal(refused.remaining, '0');
      assert.equal(refused.reset, replies[0]?.reset);
      assert.ok(
        Number(refused.retryAfter) >= 1 && Number(refused.retryAfter) <= 60,
        `Retry-After ${refused.retryAfter}`,
      );
    }

    // Graceful stop: both exit cleanly on SIGTERM.
    assert.deepEqual(await Promise.all(apis.map((api) => api.stop('SIGTERM'))), [0, 0]);
  });
});
