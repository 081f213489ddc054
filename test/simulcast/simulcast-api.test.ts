// Simulcast destinations through the API, on both databases: a stream's own and the channel
// defaults, their limits and validation, owner isolation, the key kept secret (never in an
// answer, a log line or the table in plain text), defaults copied into new streams (the API's
// and the channel key's), and one webhook event per change of a destination's state.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { NextStream } from '../../src/channels/next-stream.ts';
import { SimulcastKeys } from '../../src/simulcast/simulcast-keys.ts';
import { TestClock } from '../helpers/clock.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { startTestServer, type Account, type TestServer, type TestServerOptions } from '../helpers/server.ts';
import type { TestContext } from 'node:test';

const YOUTUBE = 'rtmp://a.rtmp.youtube.com/live2';
const TWITCH = 'rtmp://live.twitch.tv/app';
const KEY = 'abcd-efgh-ijkl-mnop-qr57';

const streamTargets = (streamId: string) => `/v1/streams/${streamId}/simulcast-targets`;
const DEFAULTS = '/v1/ingest/simulcast-targets';

const clocks = new WeakMap<TestServer, TestClock>();

/** The API on a clock the test moves (it stands still unless moved). */
async function start(t: TestContext, options: TestServerOptions): Promise<TestServer> {
  const clock = new TestClock();
  const server = await startTestServer(t, { ...options, clock });
  clocks.set(server, clock);
  return server;
}

function clockOf(server: TestServer): TestClock {
  const clock = clocks.get(server);
  if (!clock) throw new Error('started without start()');
  return clock;
}

/** Adds a destination a moment after the last, so lists show them in the order they were added. */
async function addTarget(server: TestServer, account: Account, path: string, body: Record<string, unknown>) {
  clockOf(server).advance(1);
  return server.request('POST', path, { key: account.writeKey, body });
}

for (const dialect of DIALECTS) {
  describe(`simulcast destinations on ${dialect}`, () => {
    test('a stream’s destinations: create, list, get, change and delete; the key only as a hint', async (t) => {
      const server = await start(t, { dialect, logger: 'capture' });
      const alice = await server.createAccount('Alice');
      const stream = await server.createStream(alice);
      const base = streamTargets(stream.id);

      const created = await addTarget(server, alice, base, {
        url: YOUTUBE,
        stream_key: KEY,
        name: ' YouTube ',
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const target = created.body;
      assert.match(target.id, /^sim_[0-9A-Za-z]{22}$/);
      assert.deepEqual(Object.keys(target).sort(), [
        'created_at',
        'enabled',
        'id',
        'name',
        'object',
        'state',
        'state_changed_at',
        'state_reason',
        'stream_id',
        'stream_key_hint',
        'updated_at',
        'url',
      ]);
      assert.equal(target.object, 'simulcast_target');
      assert.equal(target.stream_id, stream.id);
      assert.equal(target.name, 'YouTube', 'the name is trimmed');
      assert.equal(target.url, YOUTUBE);
      assert.equal(target.stream_key_hint, 'qr57');
      assert.equal(target.enabled, true);
      assert.equal(target.state, 'idle');
      assert.equal(target.state_reason, null);
      assert.match(target.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal(target.state_changed_at, target.created_at);

      const second = await addTarget(server, alice, base, {
        url: `${TWITCH}/`,
        stream_key: 'live_1_xyz',
        enabled: false,
      });
      assert.equal(second.status, 201);
      assert.equal(second.body.url, TWITCH, 'trailing slashes go (the relay adds one before the key)');
      assert.equal(second.body.name, null);
      assert.equal(second.body.enabled, false);
      assert.equal(second.body.stream_key_hint, '_xyz'.slice(-3), 'a short key gives away a third at most');

      const list = await server.request('GET', base, { key: alice.writeKey });
      assert.equal(list.status, 200);
      assert.deepEqual(
        list.body.data.map((item: { id: string }) => item.id),
        [target.id, second.body.id],
      );
      assert.deepEqual(Object.keys(list.body), ['data']);
      const got = await server.request('GET', `${base}/${target.id}`, { key: alice.writeKey });
      assert.deepEqual(got.body, target);

      // Changes: only the fields given; a new key changes the hint; name null clears it.
      clockOf(server).advance(1000);
      const patched = await server.request('PATCH', `${base}/${target.id}`, {
        key: alice.writeKey,
        body: { enabled: false, stream_key: 'zzzz-yyyy-xxxx-9876', name: null },
      });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.equal(patched.body.enabled, false);
      assert.equal(patched.body.stream_key_hint, '9876');
      assert.equal(patched.body.name, null);
      assert.equal(patched.body.url, YOUTUBE);
      const unchanged = await server.request('PATCH', `${base}/${target.id}`, {
        key: alice.writeKey,
        body: {},
      });
      assert.equal(unchanged.status, 200);
      assert.deepEqual(unchanged.body, patched.body, 'an empty change changes nothing');
      const renamed = await server.request('PATCH', `${base}/${target.id}`, {
        key: alice.writeKey,
        body: { name: 'YouTube main', url: 'rtmps://a.rtmps.youtube.com:443/live2' },
      });
      assert.equal(renamed.body.name, 'YouTube main');
      assert.equal(renamed.body.url, 'rtmps://a.rtmps.youtube.com:443/live2');

      const deleted = await server.request('DELETE', `${base}/${target.id}`, { key: alice.writeKey });
      assert.equal(deleted.status, 200);
      assert.deepEqual(deleted.body, { deleted: true, id: target.id });
      const gone = await server.request('GET', `${base}/${target.id}`, { key: alice.writeKey });
      assert.equal(gone.status, 404);
      assert.equal(gone.body.error.code, 'resource_not_found');
      const again = await server.request('DELETE', `${base}/${target.id}`, { key: alice.writeKey });
      assert.equal(again.status, 404);

      // The keys: in no answer, no log line, and the table holds only sealed copies.
      const everything = JSON.stringify(
        [created, second, list, got, patched, unchanged, renamed].map((r) => r.body),
      );
      for (const key of [KEY, 'live_1_xyz', 'zzzz-yyyy-xxxx-9876']) {
        assert.equal(everything.includes(key), false, `${key} in an answer`);
        assert.equal(server.logs.join('\n').includes(key), false, `${key} in the log`);
      }
      const rows = await server.services.database.db.selectFrom('simulcast_targets').selectAll().execute();
      assert.equal(rows.length, 1);
      assert.equal(JSON.stringify(rows).includes('live_1_xyz'), false, 'the key in plain text in the table');
      const keys = new SimulcastKeys(server.secretKey);
      assert.equal(keys.open(rows[0]!.key_ciphertext, second.body.id), 'live_1_xyz');
      assert.equal(keys.open(rows[0]!.key_ciphertext, 'sim_other'), undefined, 'bound to its row');
      assert.equal(
        new SimulcastKeys(Buffer.alloc(32, 1)).open(rows[0]!.key_ciphertext, second.body.id),
        undefined,
      );
    });

    test('at most 5 per stream and 5 defaults, also when asked at once', async (t) => {
      const server = await start(t, { dialect, rateLimitPerKey: 10_000 });
      const alice = await server.createAccount('Alice');
      const stream = await server.createStream(alice);
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          addTarget(server, alice, streamTargets(stream.id), { url: YOUTUBE, stream_key: `key-number-${i}` }),
        ),
      );
      assert.equal(answers.filter((a) => a.status === 201).length, 5);
      const refused = answers.filter((a) => a.status !== 201);
      assert.equal(refused.length, 3);
      for (const answer of refused) {
        assert.equal(answer.status, 409);
        assert.equal(answer.body.error.code, 'simulcast_target_limit_reached');
        assert.match(answer.body.error.message, /limit is 5/);
      }
      for (let i = 0; i < 5; i++) {
        assert.equal(
          (await addTarget(server, alice, DEFAULTS, { url: TWITCH, stream_key: `default-${i}` })).status,
          201,
        );
      }
      const sixth = await addTarget(server, alice, DEFAULTS, { url: TWITCH, stream_key: 'default-6' });
      assert.equal(sixth.status, 409);
      assert.equal(sixth.body.error.code, 'simulcast_target_limit_reached');
      // Another stream has its own five (and starts with the five defaults).
      const other = await server.createStream(alice);
      const copied = await server.request('GET', streamTargets(other.id), { key: alice.writeKey });
      assert.equal(copied.body.data.length, 5);
      const full = await addTarget(server, alice, streamTargets(other.id), {
        url: YOUTUBE,
        stream_key: 'one-more',
      });
      assert.equal(full.status, 409);
      // Deleting one makes room.
      const first = copied.body.data[0].id;
      assert.equal(
        (await server.request('DELETE', `${streamTargets(other.id)}/${first}`, { key: alice.writeKey }))
          .status,
        200,
      );
      assert.equal(
        (await addTarget(server, alice, streamTargets(other.id), { url: YOUTUBE, stream_key: 'one-more' }))
          .status,
        201,
      );
    });

    test('every bad input is a 400 in the envelope, naming the field', async (t) => {
      const server = await start(t, { dialect, rateLimitPerKey: 10_000 });
      const alice = await server.createAccount('Alice');
      const stream = await server.createStream(alice);
      const base = streamTargets(stream.id);
      const cases: [body: unknown, code: string, param: string | undefined][] = [
        [{ stream_key: KEY }, 'parameter_missing', 'url'],
        [{ url: YOUTUBE }, 'parameter_missing', 'stream_key'],
        [{ url: 'http://a.rtmp.youtube.com/live2', stream_key: KEY }, 'parameter_invalid', 'url'],
        [{ url: 'https://a.rtmp.youtube.com/live2', stream_key: KEY }, 'parameter_invalid', 'url'],
        [{ url: 'srt://a.example.com:9000', stream_key: KEY }, 'parameter_invalid', 'url'],
        [{ url: 'a.rtmp.youtube.com/live2', stream_key: KEY }, 'parameter_invalid', 'url'],
        [{ url: 'rtmp://user:pass@a.rtmp.youtube.com/live2', stream_key: KEY }, 'parameter_invalid', 'url'],
        [{ url: 'rtmp://user@a.rtmp.youtube.com/live2', stream_key: KEY }, 'parameter_invalid', 'url'],
        [{ url: 'rtmp:///live2', stream_key: KEY }, 'parameter_invalid', 'url'],
        [{ url: 'rtmp://', stream_key: KEY }, 'parameter_invalid', 'url'],
        [{ url: `${YOUTUBE}?key=x`, stream_key: KEY }, 'parameter_invalid', 'url'],
        [{ url: `${YOUTUBE}#x`, stream_key: KEY }, 'parameter_invalid', 'url'],
        [{ url: `${YOUTUBE}/${KEY}`, stream_key: KEY }, 'parameter_invalid', 'url'],
        [{ url: 'rtmp://a.rtmp.youtube.com/live 2', stream_key: KEY }, 'parameter_invalid', 'url'],
        [{ url: `rtmp://a.example.com/${'x'.repeat(1024)}`, stream_key: KEY }, 'parameter_invalid', 'url'],
        [{ url: '', stream_key: KEY }, 'parameter_invalid', 'url'],
        [{ url: YOUTUBE, stream_key: '' }, 'parameter_invalid', 'stream_key'],
        [{ url: YOUTUBE, stream_key: 'has space' }, 'parameter_invalid', 'stream_key'],
        [{ url: YOUTUBE, stream_key: 'line\nbreak' }, 'parameter_invalid', 'stream_key'],
        [{ url: YOUTUBE, stream_key: 'k'.repeat(513) }, 'parameter_invalid', 'stream_key'],
        [{ url: YOUTUBE, stream_key: 42 }, 'parameter_invalid', 'stream_key'],
        [{ url: YOUTUBE, stream_key: KEY, name: '   ' }, 'parameter_invalid', 'name'],
        [{ url: YOUTUBE, stream_key: KEY, name: 'n'.repeat(101) }, 'parameter_invalid', 'name'],
        [{ url: YOUTUBE, stream_key: KEY, name: null }, 'parameter_invalid', 'name'],
        [{ url: YOUTUBE, stream_key: KEY, enabled: 'yes' }, 'parameter_invalid', 'enabled'],
        [{ url: YOUTUBE, stream_key: KEY, state: 'live' }, 'parameter_unknown', 'state'],
        [{ url: YOUTUBE, stream_key: KEY, stream_key_hint: 'abcd' }, 'parameter_unknown', 'stream_key_hint'],
        [[{ url: YOUTUBE, stream_key: KEY }], 'parameter_invalid', undefined],
      ];
      for (const [body, code, param] of cases) {
        const answer = await server.request('POST', base, { key: alice.writeKey, body });
        const what = JSON.stringify(body).slice(0, 120);
        assert.equal(answer.status, 400, `${what}: ${JSON.stringify(answer.body)}`);
        assert.equal(answer.body.error.code, code, what);
        assert.equal(answer.body.error.param, param, what);
        assert.equal(typeof answer.body.error.message, 'string');
      }
      const notJson = await server.request('POST', base, {
        key: alice.writeKey,
        rawBody: '{"url":',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(notJson.status, 400);
      assert.equal(notJson.body.error.code, 'invalid_json');
      const query = await server.request('GET', `${base}?limit=5`, { key: alice.writeKey });
      assert.equal(query.status, 400);
      assert.equal(query.body.error.code, 'parameter_unknown');

      const ok = await addTarget(server, alice, base, { url: YOUTUBE, stream_key: KEY });
      for (const [body, code, param] of [
        [{ url: 'http://x.example.com/app' }, 'parameter_invalid', 'url'],
        [{ stream_key: 'has space' }, 'parameter_invalid', 'stream_key'],
        [{ url: `${YOUTUBE}/${KEY}` }, 'parameter_invalid', 'url'],
        [{ enabled: null }, 'parameter_invalid', 'enabled'],
        [{ state: 'live' }, 'parameter_unknown', 'state'],
        [{ name: '' }, 'parameter_invalid', 'name'],
      ] as const) {
        const answer = await server.request('PATCH', `${base}/${ok.body.id as string}`, {
          key: alice.writeKey,
          body,
        });
        assert.equal(answer.status, 400, JSON.stringify(body));
        assert.equal(answer.body.error.code, code, JSON.stringify(body));
        assert.equal(answer.body.error.param, param, JSON.stringify(body));
      }
      const overLongId = await server.request('GET', `${base}/sim_${'x'.repeat(80)}`, {
        key: alice.writeKey,
      });
      assert.equal(overLongId.status, 400);
      const unchanged = await server.request('GET', `${base}/${ok.body.id as string}`, {
        key: alice.writeKey,
      });
      assert.deepEqual(unchanged.body, ok.body, 'refused changes changed nothing');

      // An ended stream is sent nowhere again.
      await server.services.streams.goLive(stream.id);
      await server.services.streams.end(stream.id);
      const ended = await addTarget(server, alice, base, { url: TWITCH, stream_key: KEY });
      assert.equal(ended.status, 409);
      assert.equal(ended.body.error.code, 'state_conflict');
    });

    test('loopback and private destinations are refused unless allowed', async (t) => {
      const server = await start(t, { dialect, simulcastPrivateTargets: false });
      const alice = await server.createAccount('Alice');
      for (const url of [
        'rtmp://127.0.0.1/live',
        'rtmp://10.1.2.3:1935/app',
        'rtmps://192.168.0.10/app',
        'rtmp://[::1]/live',
        'rtmp://169.254.169.254/app',
        'rtmp://localhost/live',
      ]) {
        const answer = await addTarget(server, alice, DEFAULTS, { url, stream_key: KEY });
        assert.equal(answer.status, 400, url);
        assert.equal(answer.body.error.param, 'url', url);
        assert.match(answer.body.error.message, /public address/, url);
      }
      const publicIp = await addTarget(server, alice, DEFAULTS, {
        url: 'rtmp://8.8.8.8/app',
        stream_key: KEY,
      });
      assert.equal(publicIp.status, 201);
    });

    test('owner only: another account’s stream or destination is missing; a read key may not look', async (t) => {
      const server = await start(t, { dialect });
      const alice = await server.createAccount('Alice');
      const bob = await server.createAccount('Bob');
      const stream = await server.createStream(alice);
      const base = streamTargets(stream.id);
      const target = (await addTarget(server, alice, base, { url: YOUTUBE, stream_key: KEY })).body;
      const fallback = (await addTarget(server, alice, DEFAULTS, { url: TWITCH, stream_key: KEY })).body;

      for (const [method, path, body] of [
        ['GET', base, undefined],
        ['POST', base, { url: YOUTUBE, stream_key: KEY }],
        ['GET', `${base}/${target.id}`, undefined],
        ['PATCH', `${base}/${target.id}`, { enabled: false }],
        ['DELETE', `${base}/${target.id}`, undefined],
        ['GET', `${DEFAULTS}/${fallback.id}`, undefined],
        ['PATCH', `${DEFAULTS}/${fallback.id}`, { enabled: false }],
        ['DELETE', `${DEFAULTS}/${fallback.id}`, undefined],
      ] as const) {
        const answer = await server.request(method, path, { key: bob.writeKey, body });
        assert.equal(answer.status, 404, `${method} ${path}`);
        assert.equal(answer.body.error.code, 'resource_not_found', `${method} ${path}`);
      }
      assert.deepEqual((await server.request('GET', DEFAULTS, { key: bob.writeKey })).body, { data: [] });
      // A stream's destination is not a default, nor a destination of another stream, and back.
      const other = await server.createStream(alice);
      for (const path of [
        `${DEFAULTS}/${target.id}`,
        `${streamTargets(other.id)}/${target.id}`,
        `${base}/${fallback.id}`,
      ]) {
        assert.equal((await server.request('GET', path, { key: alice.writeKey })).status, 404, path);
      }
      assert.equal(
        (await server.request('GET', `/v1/streams/str_missing/simulcast-targets`, { key: alice.writeKey }))
          .status,
        404,
      );

      for (const [method, path] of [
        ['GET', base],
        ['GET', DEFAULTS],
        ['POST', DEFAULTS],
        ['GET', `${base}/${target.id}`],
        ['DELETE', `${base}/${target.id}`],
      ] as const) {
        const read = await server.request(method, path, {
          key: alice.readKey,
          body: method === 'POST' ? {} : undefined,
        });
        assert.equal(read.status, 403, `${method} ${path}`);
        assert.equal(read.body.error.code, 'insufficient_scope');
        const anonymous = await server.request(method, path);
        assert.equal(anonymous.status, 401);
      }
      // Nothing changed.
      assert.deepEqual(
        (await server.request('GET', `${base}/${target.id}`, { key: alice.writeKey })).body,
        target,
      );
      assert.deepEqual(
        (await server.request('GET', `${DEFAULTS}/${fallback.id}`, { key: alice.writeKey })).body,
        fallback,
      );
    });

    test('defaults are copied into every stream created afterwards, the API’s and the channel key’s', async (t) => {
      const server = await start(t, { dialect });
      const alice = await server.createAccount('Alice');
      const before = await server.createStream(alice);
      const youtube = (
        await addTarget(server, alice, DEFAULTS, { url: YOUTUBE, stream_key: KEY, name: 'YouTube' })
      ).body;
      const twitch = (
        await addTarget(server, alice, DEFAULTS, {
          url: TWITCH,
          stream_key: 'live_123_abcdef',
          enabled: false,
        })
      ).body;
      assert.equal(youtube.stream_id, null);

      const after = await server.createStream(alice);
      const copies = (await server.request('GET', streamTargets(after.id), { key: alice.writeKey })).body
        .data;
      assert.deepEqual(
        copies.map((c: any) => [c.name, c.url, c.stream_key_hint, c.enabled, c.state, c.stream_id]),
        [
          ['YouTube', YOUTUBE, youtube.stream_key_hint, true, 'idle', after.id],
          [null, TWITCH, twitch.stream_key_hint, false, 'idle', after.id],
        ],
      );
      assert.notEqual(copies[0].id, youtube.id, 'a copy is its own destination');
      // Each copy's key is sealed to its own id, and is the default's key.
      const keys = new SimulcastKeys(server.secretKey);
      const rows = await server.services.database.db
        .selectFrom('simulcast_targets')
        .selectAll()
        .where('stream_id', '=', after.id)
        .orderBy('created_at')
        .execute();
      assert.deepEqual(
        rows.map((row) => keys.open(row.key_ciphertext, row.id)),
        [KEY, 'live_123_abcdef'],
      );
      // A stream created before has none; changing a default changes no stream.
      assert.deepEqual(
        (await server.request('GET', streamTargets(before.id), { key: alice.writeKey })).body,
        { data: [] },
      );
      await server.request('PATCH', `${DEFAULTS}/${youtube.id}`, {
        key: alice.writeKey,
        body: { name: 'Renamed' },
      });
      await server.request('DELETE', `${DEFAULTS}/${twitch.id}`, { key: alice.writeKey });
      const still = (await server.request('GET', streamTargets(after.id), { key: alice.writeKey })).body.data;
      assert.deepEqual(
        still.map((c: any) => c.name),
        ['YouTube', null],
      );

      // The channel key's path makes a stream when there is none to continue: it gets them too.
      const next = new NextStream({
        db: server.services.database.db,
        streams: server.services.streams,
        clock: server.clock,
        windowMs: 3_600_000,
      });
      const taken = new Set([before.id, after.id]);
      const made = await next.pick(alice.userId, (id) => taken.has(id));
      assert.ok(!taken.has(made.id));
      const madeTargets = (await server.request('GET', streamTargets(made.id), { key: alice.writeKey })).body
        .data;
      assert.deepEqual(
        madeTargets.map((c: any) => c.name),
        ['Renamed'],
      );
      // Another creator's streams get none of Alice's defaults.
      const bob = await server.createAccount('Bob');
      const bobs = await server.createStream(bob);
      assert.deepEqual((await server.request('GET', streamTargets(bobs.id), { key: bob.writeKey })).body, {
        data: [],
      });

      // Deleting a stream deletes its destinations.
      assert.equal(
        (await server.request('DELETE', `/v1/streams/${after.id}`, { key: alice.writeKey })).status,
        200,
      );
      const left = await server.services.database.db
        .selectFrom('simulcast_targets')
        .select('id')
        .where('stream_id', '=', after.id)
        .execute();
      assert.deepEqual(left, []);
      assert.equal(
        (await server.request('GET', `${DEFAULTS}/${youtube.id}`, { key: alice.writeKey })).status,
        200,
      );
    });

    test('POST takes an Idempotency-Key: a retry creates nothing and replays the answer', async (t) => {
      const server = await start(t, { dialect });
      const alice = await server.createAccount('Alice');
      const headers = { 'idempotency-key': 'simulcast-retry-1' };
      const first = await server.request('POST', DEFAULTS, {
        key: alice.writeKey,
        body: { url: YOUTUBE, stream_key: KEY },
        headers,
      });
      const again = await server.request('POST', DEFAULTS, {
        key: alice.writeKey,
        body: { url: YOUTUBE, stream_key: KEY },
        headers,
      });
      assert.equal(first.status, 201);
      assert.equal(again.status, 201);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(again.body, first.body);
      assert.equal((await server.request('GET', DEFAULTS, { key: alice.writeKey })).body.data.length, 1);
      const reused = await server.request('POST', DEFAULTS, {
        key: alice.writeKey,
        body: { url: TWITCH, stream_key: KEY },
        headers,
      });
      assert.equal(reused.status, 409);
      assert.equal(reused.body.error.code, 'idempotency_key_reused');
    });

    test('states: one event per change, one failing per failure streak, the reason kept', async (t) => {
      const server = await start(t, { dialect });
      const alice = await server.createAccount('Alice');
      const stream = await server.createStream(alice);
      const target = (
        await addTarget(server, alice, streamTargets(stream.id), { url: YOUTUBE, stream_key: KEY })
      ).body;
      const simulcast = server.services.simulcast;
      const id = target.id as string;

      // The test clock stands still unless moved: each state a moment after the last, so the
      // outbox lists them in order.
      const clock = clockOf(server);
      const step = async (record: () => Promise<void>) => {
        clock.advance(10);
        await record();
      };
      await step(() => simulcast.recordRunStart(id));
      await step(() => simulcast.recordState(id, { state: 'connecting' }));
      await step(() => simulcast.recordState(id, { state: 'live' }));
      await step(() => simulcast.recordState(id, { state: 'live' }));
      // A destination lost: the relay fails, retries, fails again, then is back.
      await step(() =>
        simulcast.recordState(id, { state: 'failing', reason: 'Connection refused', retryInMs: 500 }),
      );
      for (let attempt = 0; attempt < 5; attempt++) {
        await step(() => simulcast.recordState(id, { state: 'connecting' }));
        const row = (
          await server.request('GET', `${streamTargets(stream.id)}/${id}`, { key: alice.writeKey })
        ).body;
        assert.equal(row.state, 'failing', 'a retry stays failing');
        await step(() =>
          simulcast.recordState(id, {
            state: 'failing',
            reason: `Connection timed out (${attempt})`,
            retryInMs: 3000,
          }),
        );
      }
      const failing = (
        await server.request('GET', `${streamTargets(stream.id)}/${id}`, { key: alice.writeKey })
      ).body;
      assert.equal(failing.state, 'failing');
      assert.equal(failing.state_reason, 'Connection timed out (4)', 'the latest reason');
      await step(() => simulcast.recordState(id, { state: 'live' }));
      await step(() => simulcast.recordState(id, { state: 'stopped' }));
      await step(() => simulcast.recordState(id, { state: 'stopped' }));

      const events = (await server.events()).filter((e) => e.type.startsWith('simulcast_target.'));
      assert.deepEqual(
        events.map((e) => e.type),
        [
          'simulcast_target.connecting',
          'simulcast_target.live',
          'simulcast_target.failing',
          'simulcast_target.live',
          'simulcast_target.stopped',
        ],
      );
      for (const event of events) {
        assert.equal(event.account_id, alice.userId);
        assert.equal(event.data.id, id);
        assert.equal(event.data.object, 'simulcast_target');
        assert.equal(JSON.stringify(event.data).includes(KEY), false, 'the key in an event');
      }
      assert.equal(events[2]!.data.state, 'failing');
      assert.equal(events[2]!.data.state_reason, 'Connection refused');
      assert.equal(events[3]!.data.state_reason, null);
      const stopped = (
        await server.request('GET', `${streamTargets(stream.id)}/${id}`, { key: alice.writeKey })
      ).body;
      assert.equal(stopped.state, 'stopped');
      assert.equal(stopped.state_reason, null);

      // The next publish starts at connecting again; a destination deleted meanwhile is ignored.
      await step(() => simulcast.recordRunStart(id));
      assert.equal((await server.events('simulcast_target.connecting')).length, 2);
      await server.request('DELETE', `${streamTargets(stream.id)}/${id}`, { key: alice.writeKey });
      await simulcast.recordState(id, { state: 'live' });
      assert.equal((await server.events('simulcast_target.live')).length, 2);

      // Webhooks may subscribe to the new types; unknown ones are still refused.
      const hook = await server.request('POST', '/v1/webhooks', {
        key: alice.writeKey,
        body: {
          url: 'https://hooks.example.com/sim',
          events: ['simulcast_target.failing', 'simulcast_target.live'],
        },
      });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
      const unknown = await server.request('POST', '/v1/webhooks', {
        key: alice.writeKey,
        body: { url: 'https://hooks.example.com/sim2', events: ['simulcast_target.exploded'] },
      });
      assert.equal(unknown.status, 400);
    });

    test('the OpenAPI document describes the ten operations', async (t) => {
      const server = await start(t, { dialect });
      const doc = (await server.request('GET', '/v1/openapi.json')).body;
      const stream = doc.paths['/v1/streams/{id}/simulcast-targets'];
      const streamOne = doc.paths['/v1/streams/{id}/simulcast-targets/{target_id}'];
      const defaults = doc.paths['/v1/ingest/simulcast-targets'];
      const defaultOne = doc.paths['/v1/ingest/simulcast-targets/{target_id}'];
      assert.deepEqual(
        [
          stream.post.operationId,
          stream.get.operationId,
          streamOne.get.operationId,
          streamOne.patch.operationId,
          streamOne.delete.operationId,
          defaults.post.operationId,
          defaults.get.operationId,
          defaultOne.get.operationId,
          defaultOne.patch.operationId,
          defaultOne.delete.operationId,
        ],
        [
          'createStreamSimulcastTarget',
          'listStreamSimulcastTargets',
          'getStreamSimulcastTarget',
          'updateStreamSimulcastTarget',
          'deleteStreamSimulcastTarget',
          'createSimulcastDefault',
          'listSimulcastDefaults',
          'getSimulcastDefault',
          'updateSimulcastDefault',
          'deleteSimulcastDefault',
        ],
      );
      const events = JSON.stringify(doc.paths['/v1/webhooks'].post);
      assert.match(events, /simulcast_target\.failing/);
    });
  });
}
