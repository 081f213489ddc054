// Retries through a real proxy that fails on purpose, in front of the real service. The client's
// waits are recorded instead of slept (its `sleep` option), so the test sees each delay it chose
// without waiting it out; the one exception, the service's own 429, moves the service's clock.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConflictError, ConnectionError, RateLimitError, ServerError, Tributary } from '@tributary/sdk';
import { TestClock } from '../helpers/clock.ts';
import { freePort } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { FaultProxy, type Fault } from './fault-proxy.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function setup(
  t: Parameters<typeof startTestServer>[0],
  dialect: (typeof DIALECTS)[number],
  faults: Fault[],
) {
  const server = await startTestServer(t, { dialect, rateLimitPerKey: 100_000 });
  const account = await server.createAccount();
  const proxy = await FaultProxy.start(t, server.origin);
  proxy.faults = faults;
  const delays: number[] = [];
  const client = new Tributary({
    apiKey: account.writeKey,
    baseUrl: proxy.origin,
    sleep: (ms) => {
      delays.push(ms);
      return Promise.resolve();
    },
  });
  return { server, account, proxy, delays, client };
}

async function streamCount(server: TestServer): Promise<number> {
  const rows = await server.services.database.db.selectFrom('streams').select('id').execute();
  return rows.length;
}

for (const dialect of DIALECTS) {
  describe(`SDK retries on ${dialect}`, () => {
    test('a read is retried after 5xx with growing backoff, then succeeds', async (t) => {
      const { server, account, proxy, delays, client } = await setup(t, dialect, [
        { kind: 'status', status: 503 },
        { kind: 'status', status: 502, body: '<html>bad gateway</html>' },
      ]);
      const stream = await server.createStream(account, { title: 'Retried' });
      const fetched = await client.streams.get(stream.id);
      assert.equal(fetched.title, 'Retried');
      assert.equal(proxy.seen.length, 3);
      assert.equal(delays.length, 2);
      // Exponential from 500 ms, the upper half jittered.
      assert.ok(delays[0]! >= 250 && delays[0]! <= 500, `first delay ${delays[0]}`);
      assert.ok(delays[1]! >= 500 && delays[1]! <= 1000, `second delay ${delays[1]}`);
    });

    test('a 429 is retried after exactly its Retry-After', async (t) => {
      const { proxy, delays, client } = await setup(t, dialect, [
        { kind: 'status', status: 429, headers: { 'retry-after': '3' } },
      ]);
      const page = await client.streams.list();
      assert.deepEqual(page.data, []);
      assert.equal(proxy.seen.length, 2);
      assert.deepEqual(delays, [3000]);
    });

    test("the service's own 429: the client waits the Retry-After it sent, then gets through", async (t) => {
      const clock = new TestClock(Date.parse('2026-11-23T12:00:10Z'));
      const server = await startTestServer(t, { dialect, rateLimitPerKey: 2, clock });
      const account = await server.createAccount();
      const delays: number[] = [];
      const client = new Tributary({
        apiKey: account.readKey,
        baseUrl: server.origin,
        // Waiting is moving the service's clock: the rate-limit window is a minute of it.
        sleep: (ms) => {
          delays.push(ms);
          clock.advance(ms);
          return Promise.resolve();
        },
      });
      await client.streams.list();
      await client.streams.list();
      const third = await client.streams.list();
      assert.deepEqual(third.data, []);
      assert.deepEqual(delays, [50_000]);

      const patient = new Tributary({
        apiKey: account.readKey,
        baseUrl: server.origin,
        retry: { maxRetries: 0 },
      });
      await patient.streams.list();
      const refused = await patient.streams.list().then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(refused instanceof RateLimitError);
      assert.equal(refused.code, 'rate_limit_exceeded');
      assert.equal(refused.retryAfter, 60);
    });

    test('a creation is retried with the same Idempotency-Key on every attempt and created once', async (t) => {
      const { server, proxy, delays, client } = await setup(t, dialect, [
        { kind: 'reset' },
        { kind: 'status', status: 503 },
        { kind: 'status', status: 429, headers: { 'retry-after': '1' } },
      ]);
      const created = await client.streams.create({ title: 'Once' }, { maxRetries: 3 });
      assert.equal(created.title, 'Once');
      assert.equal(proxy.seen.length, 4);
      const keys = proxy.seen.map((r) => r.headers['idempotency-key']);
      assert.match(String(keys[0]), UUID);
      assert.deepEqual(keys, [keys[0], keys[0], keys[0], keys[0]]);
      assert.ok(proxy.seen.every((r) => r.body === '{"title":"Once"}'));
      assert.equal(delays.length, 3);
      assert.equal(delays[2], 1000);
      assert.equal(await streamCount(server), 1);

      // The next creation has a key of its own; a caller's own key is sent as given.
      await client.streams.create({ title: 'Twice' });
      await client.webhooks.create(
        { url: 'https://127.0.0.1:9/hook', events: ['*'] },
        { idempotencyKey: 'my-key-1' },
      );
      assert.match(String(proxy.seen[4]?.headers['idempotency-key']), UUID);
      assert.notEqual(proxy.seen[4]?.headers['idempotency-key'], keys[0]);
      assert.equal(proxy.seen[5]?.headers['idempotency-key'], 'my-key-1');
      // Reads carry none.
      await client.streams.list();
      assert.equal(proxy.seen[6]?.headers['idempotency-key'], undefined);
    });

    test('a creation answered 409 idempotency_key_in_use is asked again; another 409 is not', async (t) => {
      const inUse = JSON.stringify({ error: { code: 'idempotency_key_in_use', message: 'In progress.' } });
      const reused = JSON.stringify({ error: { code: 'idempotency_key_reused', message: 'Other body.' } });
      const { server, proxy, delays, client } = await setup(t, dialect, [
        { kind: 'status', status: 409, body: inUse },
        { kind: 'forward' },
        { kind: 'status', status: 409, body: reused },
      ]);
      await client.streams.create({ title: 'Patient' });
      assert.equal(proxy.seen.length, 2);
      assert.equal(proxy.seen[0]?.headers['idempotency-key'], proxy.seen[1]?.headers['idempotency-key']);
      assert.equal(delays.length, 1);
      assert.equal(await streamCount(server), 1);

      const error = await client.streams.create({ title: 'Refused' }).catch((e: unknown) => e);
      assert.ok(error instanceof ConflictError);
      assert.equal(error.code, 'idempotency_key_reused');
      assert.equal(proxy.seen.length, 3);
    });

    test('a creation whose answer was lost after the service handled it is not created twice', async (t) => {
      const { server, proxy, client } = await setup(t, dialect, [{ kind: 'forward-then-reset' }]);
      const created = await client.streams.create({ title: 'Lost answer' });
      assert.equal(proxy.seen.length, 2);
      assert.equal(await streamCount(server), 1);
      assert.equal((await client.streams.get(created.id)).title, 'Lost answer');
    });

    test('gives up after the last retry with the typed error of the last answer', async (t) => {
      const always503: Fault = { kind: 'status', status: 503 };
      const { proxy, delays, client } = await setup(t, dialect, [always503, always503, always503, always503]);
      const error = await client.videos.list().then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(error instanceof ServerError);
      assert.equal(error.status, 503);
      assert.equal(error.code, 'upstream_unavailable');
      assert.equal(proxy.seen.length, 3);
      assert.equal(delays.length, 2);
    });

    test('a Retry-After longer than the client will wait is reported at once', async (t) => {
      const { proxy, delays, client } = await setup(t, dialect, [
        { kind: 'status', status: 429, headers: { 'retry-after': '3600' } },
      ]);
      const error = await client.videos.list().then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(error instanceof RateLimitError);
      assert.equal(error.retryAfter, 3600);
      assert.equal(proxy.seen.length, 1);
      assert.deepEqual(delays, []);
    });

    test('a POST that is not a creation is retried after a 429 but never after a 5xx or a reset', async (t) => {
      const { server, account, proxy, client } = await setup(t, dialect, [
        { kind: 'status', status: 429, headers: { 'retry-after': '1' } },
        { kind: 'status', status: 500 },
        { kind: 'reset' },
      ]);
      const stream = await server.createStream(account);
      const error = await client.streams.resetStreamKey(stream.id).catch((e: unknown) => e);
      assert.ok(error instanceof ServerError);
      assert.equal(proxy.seen.length, 2);
      const reset = await client.streams.resetStreamKey(stream.id).catch((e: unknown) => e);
      assert.ok(reset instanceof ConnectionError);
      assert.equal(reset.code, 'connection_error');
      assert.equal(proxy.seen.length, 3);
    });

    test('no answer: connection refused and timeouts are retried, then a ConnectionError', async (t) => {
      const port = await freePort();
      const delays: number[] = [];
      const refused = new Tributary({
        apiKey: 'tk_x',
        baseUrl: `http://127.0.0.1:${port}`,
        sleep: (ms) => {
          delays.push(ms);
          return Promise.resolve();
        },
      });
      const error = await refused.streams.get('str_x').catch((e: unknown) => e);
      assert.ok(error instanceof ConnectionError);
      assert.equal(error.code, 'connection_error');
      assert.equal(error.status, undefined);
      assert.equal(delays.length, 2);

      const { proxy, client } = await setup(t, dialect, [{ kind: 'hang' }, { kind: 'hang' }]);
      const slow = await client.streams.list({}, { timeoutMs: 200, maxRetries: 1 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(slow instanceof ConnectionError);
      assert.equal(slow.code, 'timeout');
      assert.equal(proxy.seen.length, 2);
    });
  });
}
