// Idempotency-Key on POST /v1/streams and POST /v1/webhooks, over HTTP against a real server
// and database: replays, conflicts, races (in one process and, on PostgreSQL, two), expiry, and
// what the stored rows hold.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { TestContext } from 'node:test';
import { describe, test } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { createServices } from '../../src/container.ts';
import { openDatabase } from '../../src/db/database.ts';
import type { Db } from '../../src/db/database.ts';
import { MemoryRateLimitStore } from '../../src/http/rate-limit-store.ts';
import type { StreamService } from '../../src/streams/stream.service.ts';
import { TestClock } from '../helpers/clock.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { rawExchange, startTestServer, type Account, type TestServer } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

async function start(
  t: TestContext,
  dialect: 'sqlite' | 'postgres',
  clock = new TestClock(),
): Promise<TestServer> {
  return startTestServer(t, { dialect, clock, rateLimitPerKey: 100_000, rateLimitPerIp: 100_000 });
}

function createStream(
  server: TestServer,
  account: Account,
  key: string | undefined,
  body: unknown,
  origin = '',
) {
  return server.request('POST', `${origin}/v1/streams`, {
    key: account.writeKey,
    body,
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });
}

async function countRows(
  db: Db,
  table: 'streams' | 'webhooks' | 'events' | 'idempotency_keys',
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Makes StreamService.create wait until released: a request held mid-handler, on purpose. */
function holdStreamCreation(streams: StreamService) {
  const original = streams.create.bind(streams);
  let entered = 0;
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  streams.create = async (...args: Parameters<StreamService['create']>) => {
    entered += 1;
    await gate;
    return original(...args);
  };
  return {
    entered: () => entered,
    release: () => {
      streams.create = original;
      release();
    },
  };
}

/** A second API process on the same database (same master secret and clock), as in scale-out. */
async function secondInstance(
  t: TestContext,
  server: TestServer,
  secretKey: Buffer = server.secretKey,
): Promise<{ origin: string; streams: StreamService }> {
  const handle = openDatabase(server.database.url);
  const services = createServices(
    {
      publicUrl: 'http://media.test',
      dataDir: server.dataDir,
      ingest: { rtmpPort: server.rtmpPort },
      webhooks: server.config,
    },
    handle,
    secretKey,
    server.clock,
  );
  const app = await buildApp({
    services,
    rateLimits: new MemoryRateLimitStore(),
    rateLimitPerKey: 100_000,
    rateLimitPerIp: 100_000,
  });
  t.after(async () => {
    await app.close();
    await handle.close();
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return {
    origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    streams: services.streams,
  };
}

type Response = Awaited<ReturnType<typeof createStream>>;

/**
 * Sends the requests at once while every creation is held in the service, waits until all but
 * one are answered, then lets the held one finish: the requests surely overlapped.
 */
async function overlapping(
  requests: (() => Promise<Response>)[],
  holds: ReturnType<typeof holdStreamCreation>[],
): Promise<{ answers: Response[]; entered: number }> {
  const answers: Response[] = [];
  const pending = Promise.all(requests.map((send) => send().then((res) => answers.push(res))));
  await waitFor(() => answers.length === requests.length - 1, { what: 'all but one request to be answered' });
  const entered = holds.reduce((sum, hold) => sum + hold.entered(), 0);
  for (const hold of holds) hold.release();
  await pending;
  return { answers, entered };
}

for (const dialect of DIALECTS) {
  describe(`Idempotency-Key on ${dialect}`, () => {
    test('a repeat with the same key and body (in any key order) replays the 201 and creates nothing', async (t) => {
      const server = await start(t, dialect);
      const account = await server.createAccount();
      const first = await createStream(server, account, 'order-1', { title: 'Launch', privacy: 'private' });
      assert.equal(first.status, 201);
      assert.equal(first.headers.get('idempotent-replayed'), null);

      // Same JSON, other key order and whitespace.
      const again = await server.request('POST', '/v1/streams', {
        key: account.writeKey,
        rawBody: '{ "privacy" : "private",\n  "title":"Launch" }',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'order-1' },
      });
      assert.equal(again.status, 201);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(again.body, first.body);
      assert.equal(again.body.ingest.stream_key, first.body.ingest.stream_key);
      assert.notEqual(again.headers.get('x-request-id'), first.headers.get('x-request-id'));

      const list = await server.request('GET', '/v1/streams', { key: account.readKey });
      assert.deepEqual(
        list.body.data.map((stream: { id: string }) => stream.id),
        [first.body.id],
      );
      assert.equal(await countRows(server.services.database.db, 'streams'), 1);
    });

    test('a webhook registration is replayed with its secret; no second webhook or ping', async (t) => {
      const server = await start(t, dialect);
      const account = await server.createAccount();
      const send = () =>
        server.request('POST', '/v1/webhooks', {
          key: account.writeKey,
          body: { url: 'https://127.0.0.1:9/hooks', events: ['*'] },
          headers: { 'idempotency-key': 'wh-1' },
        });
      const first = await send();
      assert.equal(first.status, 201);
      const again = await send();
      assert.equal(again.status, 201);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(again.body, first.body);
      assert.match(again.body.secret, /^whsec_/);
      const db = server.services.database.db;
      assert.equal(await countRows(db, 'webhooks'), 1);
      assert.equal((await server.events('ping')).length, 1);
    });

    test('the same key with another body or on another route is 409 idempotency_key_reused', async (t) => {
      const server = await start(t, dialect);
      const account = await server.createAccount();
      assert.equal((await createStream(server, account, 'k', { title: 'One' })).status, 201);

      const other = await createStream(server, account, 'k', { title: 'Two' });
      assert.equal(other.status, 409);
      assert.equal(other.body.error.code, 'idempotency_key_reused');
      const otherRoute = await server.request('POST', '/v1/webhooks', {
        key: account.writeKey,
        body: { url: 'https://127.0.0.1:9/hooks', events: ['*'] },
        headers: { 'idempotency-key': 'k' },
      });
      assert.equal(otherRoute.status, 409);
      assert.equal(otherRoute.body.error.code, 'idempotency_key_reused');
      const db = server.services.database.db;
      assert.equal(await countRows(db, 'streams'), 1);
      assert.equal(await countRows(db, 'webhooks'), 0);
      // The refusal did not replace what the key holds.
      const replay = await createStream(server, account, 'k', { title: 'One' });
      assert.equal(replay.status, 201);
      assert.equal(replay.body.title, 'One');
    });

    test('ten identical requests at once with one key create exactly one stream', async (t) => {
      const server = await start(t, dialect);
      const account = await server.createAccount();
      const send = () => createStream(server, account, 'burst', { title: 'Burst' });
      // As they come: each is the first, a 409 in_use or a replay, never a second stream.
      const responses = await Promise.all(Array.from({ length: 10 }, send));
      const created = responses.filter((res) => res.status === 201);
      for (const res of responses.filter((res) => res.status !== 201)) {
        assert.equal(res.status, 409);
        assert.equal(res.body.error.code, 'idempotency_key_in_use');
      }
      assert.equal(new Set(created.map((res) => res.body.id)).size, 1);
      assert.equal(await countRows(server.services.database.db, 'streams'), 1);

      // Held in the service, so all ten surely overlap: nine are turned away, one creates.
      const hold = holdStreamCreation(server.services.streams);
      const held = () => createStream(server, account, 'burst-held', { title: 'Held' });
      const { answers, entered } = await overlapping(
        Array.from({ length: 10 }, () => held),
        [hold],
      );
      assert.equal(entered, 1);
      assert.deepEqual(
        answers.slice(0, 9).map((res) => [res.status, res.body.error?.code]),
        Array.from({ length: 9 }, () => [409, 'idempotency_key_in_use']),
      );
      assert.equal(answers[9]?.status, 201);
      assert.equal(await countRows(server.services.database.db, 'streams'), 2);
      const after = await held();
      assert.equal(after.headers.get('idempotent-replayed'), 'true');
      assert.equal(after.body.id, answers[9].body.id);
    });

    test('while the first request runs, a repeat is 409 idempotency_key_in_use with Retry-After', async (t) => {
      const server = await start(t, dialect);
      const account = await server.createAccount();
      const held = holdStreamCreation(server.services.streams);
      const first = createStream(server, account, 'slow', { title: 'Slow' });
      await waitFor(() => held.entered() === 1, { what: 'the first request to reach the service' });

      const during = await createStream(server, account, 'slow', { title: 'Slow' });
      assert.equal(during.status, 409);
      assert.equal(during.body.error.code, 'idempotency_key_in_use');
      assert.equal(during.headers.get('retry-after'), '1');

      held.release();
      const done = await first;
      assert.equal(done.status, 201);
      const after = await createStream(server, account, 'slow', { title: 'Slow' });
      assert.equal(after.status, 201);
      assert.equal(after.headers.get('idempotent-replayed'), 'true');
      assert.equal(after.body.id, done.body.id);
      assert.equal(held.entered(), 1);
    });

    test('a claim whose request outlives the 60 s lock no longer blocks the key', async (t) => {
      const clock = new TestClock();
      const server = await start(t, dialect, clock);
      const account = await server.createAccount();
      const held = holdStreamCreation(server.services.streams);
      const stuck = createStream(server, account, 'crash', { title: 'Crash' });
      await waitFor(() => held.entered() === 1, { what: 'the first request to reach the service' });
      clock.advance(59_000);
      assert.equal((await createStream(server, account, 'crash', { title: 'Crash' })).status, 409);

      // As if the first process had died: past the lock, a retry runs.
      clock.advance(2_000);
      const retry = createStream(server, account, 'crash', { title: 'Crash' });
      await waitFor(() => held.entered() === 2, { what: 'the retry to reach the service' });
      held.release();
      const [late, retried] = await Promise.all([stuck, retry]);
      assert.equal(retried.status, 201);
      assert.equal(late.status, 201);
      // The key holds the retry's response, not the late first one's.
      const replay = await createStream(server, account, 'crash', { title: 'Crash' });
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.equal(replay.body.id, retried.body.id);
    });

    test('a validation error is kept and replayed; a server error frees the key', async (t) => {
      const server = await start(t, dialect);
      const account = await server.createAccount();
      const invalid = await createStream(server, account, 'bad-body', { title: '' });
      assert.equal(invalid.status, 400);
      assert.equal(invalid.body.error.code, 'parameter_invalid');
      const replay = await createStream(server, account, 'bad-body', { title: '' });
      assert.equal(replay.status, 400);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(replay.body, invalid.body);
      const fixed = await createStream(server, account, 'bad-body', { title: 'Fixed' });
      assert.equal(fixed.status, 409);
      assert.equal(fixed.body.error.code, 'idempotency_key_reused');

      // A fault on purpose: the service fails once.
      const streams = server.services.streams;
      const original = streams.create.bind(streams);
      streams.create = () => Promise.reject(new Error('database went away'));
      const failed = await createStream(server, account, 'flaky', { title: 'Flaky' });
      assert.equal(failed.status, 500);
      assert.equal(failed.body.error.code, 'internal_error');
      streams.create = original;
      const retried = await createStream(server, account, 'flaky', { title: 'Flaky' });
      assert.equal(retried.status, 201);
      assert.equal(retried.headers.get('idempotent-replayed'), null);
      assert.equal(await countRows(server.services.database.db, 'streams'), 1);
    });

    test('keys are per account: another account uses the same key independently', async (t) => {
      const server = await start(t, dialect);
      const alice = await server.createAccount('alice');
      const bob = await server.createAccount('bob');
      const a = await createStream(server, alice, 'shared', { title: 'Same' });
      const b = await createStream(server, bob, 'shared', { title: 'Same' });
      assert.equal(a.status, 201);
      assert.equal(b.status, 201);
      assert.equal(b.headers.get('idempotent-replayed'), null);
      assert.notEqual(a.body.id, b.body.id);
      assert.equal(b.body.creator_id, bob.userId);
      assert.equal(await countRows(server.services.database.db, 'streams'), 2);
    });

    test('after 24 hours the key creates again, and expired rows are pruned', async (t) => {
      const clock = new TestClock();
      const server = await start(t, dialect, clock);
      const account = await server.createAccount();
      const first = await createStream(server, account, 'daily', { title: 'Daily' });
      assert.equal((await createStream(server, account, 'other', { title: 'Other' })).status, 201);
      clock.advance(DAY_MS - 1);
      const stillKept = await createStream(server, account, 'daily', { title: 'Daily' });
      assert.equal(stillKept.body.id, first.body.id);

      clock.advance(1);
      const later = await createStream(server, account, 'daily', { title: 'Daily' });
      assert.equal(later.status, 201);
      assert.equal(later.headers.get('idempotent-replayed'), null);
      assert.notEqual(later.body.id, first.body.id);
      assert.equal(await countRows(server.services.database.db, 'streams'), 3);
      // 'other' was never asked for again: the periodic prune, at most once a minute and after a
      // response, removes it.
      clock.advance(60_000);
      assert.equal((await createStream(server, account, 'daily', { title: 'Daily' })).body.id, later.body.id);
      const db = server.services.database.db;
      await waitFor(
        async () =>
          (await db
            .selectFrom('idempotency_keys')
            .select('idempotency_key')
            .where('idempotency_key', '=', 'other')
            .executeTakeFirst()) === undefined,
        { what: 'the expired key to be pruned' },
      );
      assert.equal(await countRows(db, 'idempotency_keys'), 1);
    });

    test('a malformed key is 400 idempotency_key_invalid and creates nothing', async (t) => {
      const server = await start(t, dialect);
      const account = await server.createAccount();
      for (const key of ['', ' ', 'x'.repeat(256), 'tab\tinside']) {
        const res = await createStream(server, account, key, { title: 'Nope' });
        assert.equal(res.status, 400, JSON.stringify(key));
        assert.equal(res.body.error.code, 'idempotency_key_invalid');
        assert.equal(res.body.error.param, 'Idempotency-Key');
      }
      const body = JSON.stringify({ title: 'Nope' });
      const head = (headers: string[]) =>
        [
          'POST /v1/streams HTTP/1.1',
          'Host: localhost',
          `Authorization: Bearer ${account.writeKey}`,
          'Content-Type: application/json',
          `Content-Length: ${body.length}`,
          ...headers,
          '',
          body,
        ].join('\r\n');
      for (const headers of [['Idempotency-Key: a', 'Idempotency-Key: b'], ['Idempotency-Key: caf\u00e9']]) {
        const exchange = await rawExchange(server.port, Buffer.from(head(headers), 'latin1'), {
          untilResponses: 1,
        });
        const [response] = exchange.responses;
        assert.equal(response?.status, 400, headers.join(' / '));
        assert.equal(JSON.parse(response.body).error.code, 'idempotency_key_invalid');
      }
      const longest = await createStream(server, account, `${'~'.repeat(127)} ${'~'.repeat(127)}`, {
        title: 'Fine',
      });
      assert.equal(longest.status, 201);
      assert.equal(await countRows(server.services.database.db, 'streams'), 1);
    });

    test('routes that do not opt in ignore the header', async (t) => {
      const server = await start(t, dialect);
      const account = await server.createAccount();
      const stream = await server.createStream(account);
      const reset = () =>
        server.request('POST', `/v1/streams/${stream.id}/reset-stream-key`, {
          key: account.writeKey,
          headers: { 'idempotency-key': 'x'.repeat(300) },
        });
      const one = await reset();
      const two = await reset();
      assert.equal(one.status, 200);
      assert.equal(two.status, 200);
      assert.equal(two.headers.get('idempotent-replayed'), null);
      assert.notEqual(one.body.ingest.stream_key, two.body.ingest.stream_key);
    });

    test('the stored responses hold no plaintext secret or stream key', async (t) => {
      const server = await start(t, dialect);
      const account = await server.createAccount();
      const stream = await createStream(server, account, 'sealed-stream', { title: 'Sealed' });
      const webhook = await server.request('POST', '/v1/webhooks', {
        key: account.writeKey,
        body: { url: 'https://127.0.0.1:9/sealed', events: ['*'] },
        headers: { 'idempotency-key': 'sealed-webhook' },
      });
      assert.equal(webhook.status, 201);
      const rows = await server.services.database.db
        .selectFrom('idempotency_keys')
        .select(['idempotency_key', 'response_status', 'response_body', 'lock_token'])
        .orderBy('idempotency_key')
        .execute();
      assert.equal(rows.length, 2);
      for (const row of rows) {
        assert.equal(row.response_status, 201);
        assert.equal(row.lock_token, null);
        const stored = row.response_body ?? '';
        assert.match(stored, /^v1\./);
        for (const secret of [
          stream.body.ingest.stream_key,
          webhook.body.secret,
          webhook.body.secret.slice(6),
        ]) {
          assert.ok(!stored.includes(secret), 'a secret is stored in plaintext');
        }
        assert.ok(!stored.includes(stream.body.id) && !stored.includes(webhook.body.id));
      }
    });

    test('the OpenAPI document shows the header and the 409 on both routes', async (t) => {
      const server = await start(t, dialect);
      const res = await server.request('GET', '/v1/openapi.json');
      for (const path of ['/v1/streams', '/v1/webhooks']) {
        const operation = res.body.paths[path].post;
        const header = operation.parameters.find(
          (parameter: { in: string; name: string }) =>
            parameter.in === 'header' && parameter.name === 'idempotency-key',
        );
        assert.ok(header, `${path} documents Idempotency-Key`);
        assert.equal(header.required, false);
        assert.match(
          operation.responses['409'].description,
          /idempotency_key_in_use/,
          `${path} documents 409`,
        );
      }
      assert.equal(
        res.body.paths['/v1/streams/{id}/reset-stream-key'].post.parameters.some(
          (parameter: { in: string }) => parameter.in === 'header',
        ),
        false,
      );
    });

    if (dialect === 'postgres') {
      test('two API processes on one database: concurrent requests with one key create one stream', async (t) => {
        const server = await start(t, dialect);
        const other = await secondInstance(t, server);
        const account = await server.createAccount();
        const send = (index: number) => () =>
          createStream(
            server,
            account,
            'two-processes',
            { title: 'Shared' },
            index % 2 === 0 ? '' : other.origin,
          );
        const holds = [holdStreamCreation(server.services.streams), holdStreamCreation(other.streams)];
        const { answers, entered } = await overlapping(
          Array.from({ length: 10 }, (_, index) => send(index)),
          holds,
        );
        assert.equal(entered, 1);
        for (const res of answers.slice(0, 9)) {
          assert.equal(res.status, 409);
          assert.equal(res.body.error.code, 'idempotency_key_in_use');
        }
        const created = answers[9] as Response;
        assert.equal(created.status, 201);
        assert.equal(await countRows(server.services.database.db, 'streams'), 1);
        // Each process replays what the other stored.
        const viaOther = await createStream(
          server,
          account,
          'two-processes',
          { title: 'Shared' },
          other.origin,
        );
        const viaFirst = await createStream(server, account, 'two-processes', { title: 'Shared' });
        assert.equal(viaFirst.body.id, created.body.id);
        assert.equal(viaOther.body.id, created.body.id);
        assert.equal(viaOther.body.ingest.stream_key, created.body.ingest.stream_key);
      });
    }
  });
}

test('a stored response sealed under a former SECRET_KEY is forgotten: the retry runs afresh, never a 500', async (t) => {
  const server = await start(t, 'sqlite');
  const account = await server.createAccount();
  const first = await createStream(server, account, 'key-before-rotation', { title: 'One' });
  assert.equal(first.status, 201);
  // A process started with another master secret cannot open what the first one sealed.
  const other = await secondInstance(t, server, randomBytes(32));
  const retried = await createStream(server, account, 'key-before-rotation', { title: 'One' }, other.origin);
  assert.equal(retried.status, 201, JSON.stringify(retried.body));
  assert.equal(retried.headers.get('idempotent-replayed'), null);
  assert.notEqual((retried.body as { id: string }).id, (first.body as { id: string }).id);
  // And the new outcome is kept for the key: a second retry there is a replay of it.
  const again = await createStream(server, account, 'key-before-rotation', { title: 'One' }, other.origin);
  assert.equal(again.status, 201);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.deepEqual(again.body, retried.body);
});
