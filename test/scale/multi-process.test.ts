// Several real `tributary` processes on one PostgreSQL database and one Redis, as a scaled-out
// deployment runs them: the API processes share one rate-limit budget per key.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../../src/db/database.ts';
import { announceOutboxWrite } from '../../src/events/outbox-signal.ts';
import { newId } from '../../src/shared/ids.ts';
import { createTestDatabase, POSTGRES_ADMIN_URL, type TestDatabase } from '../helpers/databases.ts';
import { ALWAYS_OK, startReceiver, type HttpsReceiver } from '../helpers/https-receiver.ts';
import { testCa } from '../helpers/test-ca.ts';
import { waitFor } from '../helpers/wait.ts';
import {
  startService,
  tributaryCli,
  waitUntilReady,
  type ServiceProcess,
  startApiProcesses,
} from './processes.ts';
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

/**
 * Writes `count` events to the outbox for `accountId` in multi-row inserts of 500 (the test
 * must write faster than two workers deliver), announced once per transaction as
 * recordEvent announces them.
 */
async function writeEvents(db: Db, accountId: string, count: number, label: string): Promise<string[]> {
  const ids: string[] = [];
  for (let written = 0; written < count; written += 500) {
    const rows = Array.from({ length: Math.min(500, count - written) }, (_, i) => ({
      id: newId('evt'),
      type: 'stream.started' as const,
      account_id: accountId,
      created_at: Date.now(),
      data: JSON.stringify({ id: `str_${label}${written + i}`, title: `${label} ${written + i}` }),
      dispatched_at: null,
    }));
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('events').values(rows).execute();
      await announceOutboxWrite(trx);
    });
    ids.push(...rows.map((row) => row.id));
  }
  return ids;
}

/** How many times each event id reached a receiver. */
function arrivals(receiver: HttpsReceiver): Map<string, number> {
  const counts = new Map<string, number>();
  for (const request of receiver.requests) {
    const id = String(request.body?.id);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

function missingAt(receivers: HttpsReceiver[], ids: readonly string[]): number {
  let missing = 0;
  for (const receiver of receivers) {
    const seen = arrivals(receiver);
    for (const id of ids) if (!seen.has(id)) missing++;
  }
  return missing;
}

/** Waits until every receiver has seen every id at least once. */
async function allArrive(
  receivers: HttpsReceiver[],
  ids: readonly string[],
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (missingAt(receivers, ids) > 0) {
    if (Date.now() > deadline) {
      assert.fail(
        `${missingAt(receivers, ids)} of ${ids.length * receivers.length} deliveries never arrived`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function untilLogged(service: ServiceProcess, pattern: RegExp, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(service.log())) {
    if (!service.running) assert.fail(`${service.name} exited:\n${service.log().slice(-3000)}`);
    if (Date.now() > deadline)
      assert.fail(`${service.name} never logged ${pattern}:\n${service.log().slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until no delivery is pending or claimed. */
async function allSettled(db: Db, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await db
      .selectFrom('webhook_deliveries')
      .select(sql<number>`count(*)`.as('open'))
      .where('status', 'in', ['pending', 'sending'])
      .executeTakeFirstOrThrow();
    if (row.open === 0) return;
    if (Date.now() > deadline) assert.fail(`${row.open} deliveries still open`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function claimedRows(db: Db): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select(sql<number>`count(*)`.as('claimed'))
    .where((eb) => eb.or([eb('status', '=', 'sending'), eb('lease_token', 'is not', null)]))
    .executeTakeFirstOrThrow();
  return row.claimed;
}

// The timeout only stops a hang: on a machine whose cores are busy elsewhere the two tests
// have taken two minutes together.
describe('many processes on PostgreSQL and Redis', { skip: SKIP, timeout: 400_000 }, () => {
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

    const started = await startApiProcesses(t, ['api-1', 'api-2'], env, database.dataDir);
    const apis = started.map((api) => api.service);
    const origins = started.map((api) => api.origin);
    for (const origin of origins) {
      const ready = (await (await fetch(`${origin}/readyz`)).json()) as { checks: Record<string, string> };
      assert.deepEqual(
        ready.checks,
        { database: 'ok', redis: 'ok', startup: 'ok' },
        `${origin} checks Redis for readiness`,
      );
    }

    // Windows are fixed minutes of the wall clock. A burst that a new minute cuts in two gets
    // a fresh budget half-way and proves nothing; it is tried again with a fresh key, instead
    // of waiting for the start of a minute (up to a minute on a loaded machine).
    let replies: Reply[] = [];
    let refusals: Reply[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const key = await tributaryCli(env, ['keys', 'create', '--user', userId, '--scope', 'read']);
      replies = await spread(origins, key, BUDGET, 20);
      refusals = [];
      for (const origin of origins) refusals.push(await call(origin, key));
      if (new Set([...replies, ...refusals].map((reply) => reply.reset)).size === 1) break;
    }
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

    for (const [i, origin] of origins.entries()) {
      const refused = refusals[i] as Reply;
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
  test('two workers deliver 2,000 events to 5 receivers once each; SIGKILL mid-burst loses nothing; SIGTERM leaves nothing claimed', async (t) => {
    const database: TestDatabase = await createTestDatabase('postgres');
    const handle = openDatabase(database.url, { poolSize: 2 });
    const receivers: HttpsReceiver[] = [];
    t.after(async () => {
      for (const receiver of receivers) await receiver.close();
      await handle.close();
      await database.drop();
    });
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      DATABASE_URL: database.url,
      DATA_DIR: database.dataDir,
      SECRET_KEY: randomBytes(32).toString('hex'),
      REDIS_URL,
      RATE_LIMIT_PER_KEY: '100000',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      // A shorter timeout makes a shorter lease (2 x timeout + 2 s): a killed worker's claims
      // are taken over after about 8 s instead of 12. Not shorter: on a machine whose cores
      // are busy elsewhere an attempt at a receiver that answers at once has taken over 1 s,
      // and a timed-out attempt waits for its retry.
      WEBHOOK_TIMEOUT_MS: '3000',
      // A retry, should one be needed, within the wait for arrivals rather than after a minute.
      WEBHOOK_RETRY_DELAYS: '1s,1s,1s',
      NODE_EXTRA_CA_CERTS: testCa().caFile,
      LOG_LEVEL: 'info',
    };
    await tributaryCli(env, ['migrate']);
    const userId = await tributaryCli(env, ['users', 'create', '--name', 'Many receivers']);
    const key = await tributaryCli(env, ['keys', 'create', '--user', userId, '--scope', 'write']);

    const apiPort = await freePort();
    const api = startService(t, {
      name: 'api',
      args: ['serve', '--no-worker'],
      env: { ...env, PORT: String(apiPort), HOST: '127.0.0.1' },
      logDir: database.dataDir,
    });
    const workers = ['worker-1', 'worker-2'].map((name) =>
      startService(t, { name, args: ['worker'], env, logDir: database.dataDir }),
    );
    await waitUntilReady(api, `http://127.0.0.1:${apiPort}/readyz`);
    for (const worker of workers) await untilLogged(worker, /webhook delivery worker started/);

    for (let i = 0; i < 5; i++) {
      const receiver = await startReceiver();
      receivers.push(receiver);
      const response = await fetch(`http://127.0.0.1:${apiPort}/v1/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url(`/hook-${i}`), events: ['*'] }),
      });
      assert.equal(response.status, 201, await response.text());
    }
    // Each webhook's ping, sent by whichever worker claimed it.
    for (const receiver of receivers) await receiver.waitForRequests(1, 15_000);

    // Without faults: every event reaches every receiver exactly once.
    const burst = await writeEvents(handle.db, userId, 2000, 'a');
    await allArrive(receivers, burst, 60_000);
    for (const [i, receiver] of receivers.entries()) {
      const seen = arrivals(receiver);
      const twice = burst.filter((id) => seen.get(id) !== 1);
      assert.deepEqual(twice, [], `receiver ${i}: events delivered more than once`);
    }

    // SIGKILL one worker while it holds claims: the other takes them over once the lease expires.
    const delivered = () => receivers.reduce((sum, receiver) => sum + receiver.requests.length, 0);
    // Slow receivers keep claims in flight; more rows claimed than one worker may hold
    // (16 per webhook, 5 webhooks) proves both workers hold some when the kill comes.
    for (const receiver of receivers) receiver.script = () => ({ status: 200, body: '{}', delayMs: 300 });
    const before = delivered();
    const killBurst = writeEvents(handle.db, userId, 1000, 'b');
    await waitFor(async () => delivered() >= before + 100 && (await claimedRows(handle.db)) > 16 * 5, {
      what: 'both workers to hold claims',
      timeoutMs: 60_000,
      intervalMs: 20,
    });
    await workers[1]!.stop('SIGKILL');
    for (const receiver of receivers) receiver.script = ALWAYS_OK;
    const afterKill = await killBurst;
    await allArrive(receivers, afterKill, 60_000);
    // A receiver records a request when it arrives, so the killed worker's last sends may
    // already count; its claims are still taken over once their lease (8 s) runs out.
    await untilLogged(workers[0]!, /took over deliveries whose lease expired/);
    await allSettled(handle.db, 30_000);

    // SIGTERM mid-burst: the worker finishes or releases what it claimed, and exits cleanly.
    const beforeTerm = delivered();
    const termBurst = writeEvents(handle.db, userId, 500, 'c');
    await waitFor(() => delivered() >= beforeTerm + 200, {
      what: 'the burst to be under way',
      timeoutMs: 60_000,
      intervalMs: 5,
    });
    const [workerExit, apiExit] = await Promise.all([workers[0]!.stop('SIGTERM'), api.stop('SIGTERM')]);
    assert.equal(workerExit, 0, workers[0]!.log().slice(-2000));
    assert.equal(apiExit, 0, api.log().slice(-2000));
    const lastEvents = await termBurst;
    assert.equal(await claimedRows(handle.db), 0, 'no delivery is left claimed after SIGTERM');

    // What was not sent is still there for the next worker.
    const next = startService(t, { name: 'worker-3', args: ['worker'], env, logDir: database.dataDir });
    await allArrive(receivers, lastEvents, 60_000);
    assert.equal(await next.stop('SIGTERM'), 0);
    assert.equal(await claimedRows(handle.db), 0);
  });
});
