import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DIALECTS } from '../helpers/databases.ts';
import { startReceiver } from '../helpers/https-receiver.ts';
import type { ApiResponse, TestServer } from '../helpers/server.ts';
import { TestClock } from '../helpers/clock.ts';
import { eventually, registerWebhook, startWebhookServer } from './harness.ts';
import { settled, streamStarted } from './management-harness.ts';

const WEBHOOK_FIELDS = ['created_at', 'events', 'id', 'status', 'url'];
const SUMMARY_FIELDS = [
  'attempt_count',
  'created_at',
  'event_id',
  'event_type',
  'last_attempt_at',
  'next_attempt_at',
  'status',
];

function assertError(res: { status: number; body: any }, status: number, code: string, what: string): void {
  assert.equal(res.status, status, `${what}: ${JSON.stringify(res.body)}`);
  assert.equal(res.body.error?.code, code, `${what}: ${JSON.stringify(res.body)}`);
  assert.equal(typeof res.body.error.message, 'string');
}

async function allPages(server: TestServer, key: string, path: string): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 50; page += 1) {
    const separator = path.includes('?') ? '&' : '?';
    const res: ApiResponse = await server.request(
      'GET',
      cursor ? `${path}${separator}cursor=${cursor}` : path,
      { key },
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    items.push(...res.body.data);
    assert.equal(res.body.pagination.has_more, res.body.pagination.next_cursor !== null);
    cursor = res.body.pagination.next_cursor;
    if (cursor === null) return items;
  }
  throw new Error('pagination did not end');
}

for (const dialect of DIALECTS) {
  describe(`webhook management on ${dialect}`, () => {
    test('GET, PATCH (checked as on creation), enable and every bad input as a 4xx envelope', async (t) => {
      const { server } = await startWebhookServer(t, {
        dialect,
        worker: false,
        webhooks: { allowPrivateTargets: false },
      });
      const owner = await server.createAccount('owner');
      const stranger = await server.createAccount('stranger');
      const created = await server.request('POST', '/v1/webhooks', {
        key: owner.writeKey,
        body: { url: 'https://93.184.215.14/hooks', events: ['stream.started'] },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const id = created.body.id as string;
      await server.request('POST', '/v1/webhooks', {
        key: owner.writeKey,
        body: { url: 'https://93.184.215.14/other', events: ['*'] },
      });

      const got = await server.request('GET', `/v1/webhooks/${id}`, { key: owner.readKey });
      assert.equal(got.status, 200);
      assert.deepEqual(Object.keys(got.body).sort(), WEBHOOK_FIELDS);
      assert.deepEqual(got.body.events, ['stream.started']);

      const patched = await server.request('PATCH', `/v1/webhooks/${id}`, {
        key: owner.writeKey,
        body: { url: 'https://93.184.215.14/moved', events: ['stream.ended', 'video.published'] },
      });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.equal(patched.body.url, 'https://93.184.215.14/moved');
      assert.deepEqual(patched.body.events, ['stream.ended', 'video.published']);
      const eventsOnly = await server.request('PATCH', `/v1/webhooks/${id}`, {
        key: owner.writeKey,
        body: { events: ['*'] },
      });
      assert.equal(eventsOnly.body.url, 'https://93.184.215.14/moved');
      assert.deepEqual(
        (await server.request('GET', `/v1/webhooks/${id}`, { key: owner.readKey })).body.events,
        ['*'],
      );

      // The same URL and events rules as POST /v1/webhooks, with the same answers.
      for (const url of [
        'http://93.184.215.14/x',
        'https://127.0.0.1/x',
        'https://10.0.0.1/x',
        'not a url',
      ]) {
        const onCreate = await server.request('POST', '/v1/webhooks', {
          key: owner.writeKey,
          body: { url, events: ['*'] },
        });
        const onUpdate = await server.request('PATCH', `/v1/webhooks/${id}`, {
          key: owner.writeKey,
          body: { url },
        });
        assert.equal(onUpdate.status, 400, url);
        assert.deepEqual(onUpdate.body, onCreate.body, url);
      }
      for (const events of [[], ['nope'], ['*', 'ping'], ['ping', 'ping']]) {
        const onCreate = await server.request('POST', '/v1/webhooks', {
          key: owner.writeKey,
          body: { url: 'https://93.184.215.14/new', events },
        });
        const onUpdate = await server.request('PATCH', `/v1/webhooks/${id}`, {
          key: owner.writeKey,
          body: { events },
        });
        assert.equal(onUpdate.status, 400, JSON.stringify(events));
        assert.deepEqual(onUpdate.body, onCreate.body, JSON.stringify(events));
      }
      assertError(
        await server.request('PATCH', `/v1/webhooks/${id}`, {
          key: owner.writeKey,
          body: { url: 'https://93.184.215.14/other' },
        }),
        409,
        'webhook_url_taken',
        'another webhook has the URL',
      );
      // Its own URL is no conflict.
      const same = await server.request('PATCH', `/v1/webhooks/${id}`, {
        key: owner.writeKey,
        body: { url: 'https://93.184.215.14/moved' },
      });
      assert.equal(same.status, 200);
      assertError(
        await server.request('PATCH', `/v1/webhooks/${id}`, { key: owner.writeKey, body: {} }),
        400,
        'parameter_missing',
        'empty PATCH',
      );
      assertError(
        await server.request('PATCH', `/v1/webhooks/${id}`, { key: owner.writeKey, body: { secret: 'x' } }),
        400,
        'parameter_unknown',
        'unknown field',
      );
      assertError(
        await server.request('PATCH', `/v1/webhooks/${id}`, { key: owner.readKey, body: { events: ['*'] } }),
        403,
        'insufficient_scope',
        'read key',
      );

      // Enable: harmless on an active webhook; resets a disabled one.
      const enabledActive = await server.request('POST', `/v1/webhooks/${id}/enable`, {
        key: owner.writeKey,
      });
      assert.equal(enabledActive.status, 200);
      assert.equal(enabledActive.body.status, 'active');
      await server.services.database.db
        .updateTable('webhooks')
        .set({
          status: 'disabled',
          consecutive_failed_events: 3,
          disabled_reason: '3 events in a row failed',
        })
        .where('id', '=', id)
        .execute();
      assertError(
        await server.request('POST', `/v1/webhooks/${id}/test`, { key: owner.writeKey }),
        409,
        'state_conflict',
        'test while disabled',
      );
      const enabled = await server.request('POST', `/v1/webhooks/${id}/enable`, { key: owner.writeKey });
      assert.equal(enabled.status, 200);
      assert.equal(enabled.body.status, 'active');
      const row = await server.services.database.db
        .selectFrom('webhooks')
        .select(['consecutive_failed_events', 'disabled_reason'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      assert.deepEqual({ ...row }, { consecutive_failed_events: 0, disabled_reason: null });

      // Another account's webhook is as missing as an unknown one, on every route.
      const routes: [string, string, unknown][] = [
        ['GET', '', undefined],
        ['PATCH', '', { events: ['*'] }],
        ['POST', '/enable', undefined],
        ['POST', '/test', undefined],
        ['GET', '/deliveries', undefined],
        ['GET', '/deliveries/evt_unknown', undefined],
        ['POST', '/deliveries/evt_unknown/resend', undefined],
        ['POST', '/recover', { since: new Date(Date.now() - 60_000).toISOString() }],
        ['GET', '/recoveries/rcv_unknown', undefined],
      ];
      for (const [method, suffix, body] of routes) {
        for (const target of [id, 'wh_doesnotexist']) {
          const res = await server.request(method, `/v1/webhooks/${target}${suffix}`, {
            key: target === id ? stranger.writeKey : owner.writeKey,
            body,
          });
          assertError(res, 404, 'resource_not_found', `${method} ${suffix} on ${target}`);
          if (target === id) assert.match(res.body.error.message, /webhook/);
        }
      }
      // Unknown events and recoveries of one's own webhook.
      for (const [method, path] of [
        ['GET', `/v1/webhooks/${id}/deliveries/evt_unknown`],
        ['POST', `/v1/webhooks/${id}/deliveries/evt_unknown/resend`],
        ['GET', `/v1/webhooks/${id}/recoveries/rcv_unknown`],
      ] as const) {
        assertError(
          await server.request(method, path, { key: owner.writeKey }),
          404,
          'resource_not_found',
          path,
        );
      }
      const long = 'x'.repeat(65);
      for (const path of [`/v1/webhooks/${long}`, `/v1/webhooks/${id}/deliveries/${long}`]) {
        assertError(
          await server.request('GET', path, { key: owner.readKey }),
          400,
          'parameter_invalid',
          path,
        );
      }

      // The log's query and the recovery's body.
      const badQueries: [string, string][] = [
        ['status=bogus', 'parameter_invalid'],
        ['event_type=stream.paused', 'parameter_invalid'],
        ['limit=0', 'parameter_invalid'],
        ['limit=101', 'parameter_invalid'],
        ['color=blue', 'parameter_unknown'],
        ['cursor=nonsense', 'invalid_cursor'],
        ['cursor=cur_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'invalid_cursor'],
      ];
      for (const [query, code] of badQueries) {
        assertError(
          await server.request('GET', `/v1/webhooks/${id}/deliveries?${query}`, { key: owner.readKey }),
          400,
          code,
          query,
        );
      }
      const now = Date.now();
      const iso = (ms: number) => new Date(ms).toISOString();
      const badWindows: [unknown, string, string][] = [
        [{}, 'parameter_missing', 'since'],
        [{ since: 'yesterday' }, 'parameter_invalid', 'since'],
        [{ since: iso(now - 3_600_000), until: '2026-13-45' }, 'parameter_invalid', 'until'],
        [{ since: iso(now - 31 * 86_400_000) }, 'parameter_invalid', 'since'],
        [{ since: iso(now - 60_000), until: iso(now - 120_000) }, 'parameter_invalid', 'until'],
        [{ since: iso(now + 3_600_000) }, 'parameter_invalid', 'since'],
        [{ since: iso(now - 60_000), extra: 1 }, 'parameter_unknown', 'extra'],
      ];
      for (const [body, code, param] of badWindows) {
        const res = await server.request('POST', `/v1/webhooks/${id}/recover`, { key: owner.writeKey, body });
        assertError(res, 400, code, JSON.stringify(body));
        assert.equal(res.body.error.param, param, JSON.stringify(body));
      }
      assertError(
        await server.request('POST', `/v1/webhooks/${id}/recover`, {
          key: owner.readKey,
          body: { since: iso(now - 60_000) },
        }),
        403,
        'insufficient_scope',
        'recover with a read key',
      );
    });

    test('the delivery log: newest first, filters, cursor pagination, attempts with their answers', async (t) => {
      const clock = new TestClock();
      const { server } = await startWebhookServer(t, {
        dialect,
        clock,
        workerOptions: { pollIntervalMs: 50 },
      });
      const receiver = await startReceiver((request) =>
        request.body?.type === 'stream.started'
          ? { status: 200, body: `{"seen":"${String(request.body.id)}","pad":"${'x'.repeat(2000)}"}` }
          : { status: 200, body: 'ok' },
      );
      t.after(() => receiver.close());
      const account = await server.createAccount();
      const other = await server.createAccount('other');
      const webhook = await registerWebhook(server, account.writeKey, receiver.url(), ['*']);
      const otherHook = await registerWebhook(server, other.writeKey, receiver.url('/other'), ['*']);
      await settled(server);

      const made: string[] = [];
      for (let i = 0; i < 7; i += 1) {
        clock.advance(1000);
        if (i % 3 === 0) made.push(await streamStarted(server, account.userId));
        else {
          const res = await server.request('POST', `/v1/webhooks/${webhook.id}/test`, {
            key: account.writeKey,
          });
          assert.equal(res.status, 202);
          assert.deepEqual(Object.keys(res.body).sort(), ['event_id', 'type']);
          assert.equal(res.body.type, 'ping');
          made.push(res.body.event_id);
        }
        await settled(server);
      }
      // The test pings went to this webhook only.
      const otherLog = await server.request('GET', `/v1/webhooks/${otherHook.id}/deliveries`, {
        key: other.readKey,
      });
      assert.equal(otherLog.body.data.length, 1, 'only its own registration ping');

      const full = await server.request('GET', `/v1/webhooks/${webhook.id}/deliveries?limit=100`, {
        key: account.readKey,
      });
      assert.equal(full.status, 200);
      assert.deepEqual(full.body.pagination, { next_cursor: null, has_more: false });
      const ids = full.body.data.map((item: any) => item.event_id);
      assert.equal(ids.length, 8, 'the registration ping and seven more');
      assert.deepEqual(ids.slice(0, 7), [...made].reverse(), 'newest first');
      for (const item of full.body.data) {
        assert.deepEqual(Object.keys(item).sort(), SUMMARY_FIELDS);
        assert.equal(item.status, 'succeeded');
        assert.equal(item.attempt_count, 1);
        assert.equal(item.next_attempt_at, null);
        assert.ok(!Number.isNaN(Date.parse(item.last_attempt_at)));
      }

      const paged = await allPages(server, account.readKey, `/v1/webhooks/${webhook.id}/deliveries?limit=3`);
      assert.deepEqual(
        paged.map((item) => item.event_id),
        ids,
        'pages of 3 give the same list, nothing skipped or repeated',
      );
      const started = await allPages(
        server,
        account.readKey,
        `/v1/webhooks/${webhook.id}/deliveries?event_type=stream.started&status=succeeded&limit=2`,
      );
      assert.deepEqual(
        started.map((item) => item.event_id),
        made.filter((_, i) => i % 3 === 0).reverse(),
      );
      const none = await server.request('GET', `/v1/webhooks/${webhook.id}/deliveries?status=failed`, {
        key: account.readKey,
      });
      assert.deepEqual(none.body.data, []);

      // A cursor is bound to its webhook and filters.
      const first = await server.request('GET', `/v1/webhooks/${webhook.id}/deliveries?limit=2`, {
        key: account.readKey,
      });
      const cursor = first.body.pagination.next_cursor as string;
      assertError(
        await server.request(
          'GET',
          `/v1/webhooks/${webhook.id}/deliveries?limit=2&status=succeeded&cursor=${cursor}`,
          {
            key: account.readKey,
          },
        ),
        400,
        'invalid_cursor',
        'cursor with other filters',
      );
      assertError(
        await server.request('GET', `/v1/webhooks/${otherHook.id}/deliveries?limit=2&cursor=${cursor}`, {
          key: other.readKey,
        }),
        400,
        'invalid_cursor',
        "cursor of another webhook's log",
      );
      const tampered = cursor.slice(0, -2) + (cursor.endsWith('A') ? 'BB' : 'AA');
      assertError(
        await server.request('GET', `/v1/webhooks/${webhook.id}/deliveries?limit=2&cursor=${tampered}`, {
          key: account.readKey,
        }),
        400,
        'invalid_cursor',
        'tampered cursor',
      );

      const detail = await server.request('GET', `/v1/webhooks/${webhook.id}/deliveries/${made[0]}`, {
        key: account.readKey,
      });
      assert.equal(detail.status, 200);
      assert.deepEqual(Object.keys(detail.body).sort(), [...SUMMARY_FIELDS, 'attempts'].sort());
      assert.equal(detail.body.event_type, 'stream.started');
      assert.equal(detail.body.attempts.length, 1);
      const [attempt] = detail.body.attempts;
      assert.equal(attempt.attempt, 1);
      assert.equal(attempt.status_code, 200);
      assert.equal(attempt.error, null);
      assert.equal(typeof attempt.duration_ms, 'number');
      assert.equal(Buffer.byteLength(attempt.response_body), 1024, 'the first 1 KiB of the answer');
      assert.ok(attempt.response_body.startsWith(`{"seen":"${made[0]}"`));
      // Another account cannot read it through its own webhook either.
      assertError(
        await server.request('GET', `/v1/webhooks/${otherHook.id}/deliveries/${made[0]}`, {
          key: other.readKey,
        }),
        404,
        'resource_not_found',
        "another account's event",
      );
    });

    test('resend: again with the same event id after success and after failure; 409 while in flight', async (t) => {
      const { server } = await startWebhookServer(t, {
        dialect,
        webhooks: { retryDelaysMs: [] },
        workerOptions: { pollIntervalMs: 50 },
      });
      let mode: 'ok' | 'fail' | 'slow' = 'ok';
      const receiver = await startReceiver(() =>
        mode === 'fail'
          ? { status: 500, body: 'broken' }
          : mode === 'slow'
            ? { status: 200, delayMs: 1500 }
            : { status: 200, body: 'ok' },
      );
      t.after(() => receiver.close());
      const account = await server.createAccount();
      const webhook = await registerWebhook(server, account.writeKey, receiver.url(), ['*']);
      const [ping] = await receiver.waitForRequests(1);
      await settled(server);
      const eventId = ping?.body.id as string;

      const resent = await server.request('POST', `/v1/webhooks/${webhook.id}/deliveries/${eventId}/resend`, {
        key: account.writeKey,
      });
      assert.equal(resent.status, 202, JSON.stringify(resent.body));
      assert.deepEqual(Object.keys(resent.body).sort(), SUMMARY_FIELDS);
      assert.equal(resent.body.event_id, eventId);
      const [, again] = await receiver.waitForRequests(2);
      assert.equal(again?.body.id, eventId, 'the same event id');
      assert.equal(again.headers['x-service-event-id'], eventId);
      assert.equal(again.headers['x-service-delivery-attempt'], '2', 'the numbering continues');
      assert.deepEqual(again.body, ping?.body, 'the same envelope');
      await settled(server);

      // A failure, then a resend that succeeds.
      mode = 'fail';
      const failing = await server.request(
        'POST',
        `/v1/webhooks/${webhook.id}/deliveries/${eventId}/resend`,
        {
          key: account.writeKey,
        },
      );
      assert.equal(failing.status, 202);
      await receiver.waitForRequests(3);
      await settled(server);
      const failed = await server.request('GET', `/v1/webhooks/${webhook.id}/deliveries/${eventId}`, {
        key: account.readKey,
      });
      assert.equal(failed.body.status, 'failed');
      assert.deepEqual(
        failed.body.attempts.map((a: any) => [a.attempt, a.status_code, a.response_body]),
        [
          [1, 200, 'ok'],
          [2, 200, 'ok'],
          [3, 500, 'broken'],
        ],
      );
      mode = 'slow';
      await server.request('POST', `/v1/webhooks/${webhook.id}/deliveries/${eventId}/resend`, {
        key: account.writeKey,
      });
      await receiver.waitForRequests(4);
      // The receiver holds its answer: the attempt is in flight.
      const busy = await server.request('POST', `/v1/webhooks/${webhook.id}/deliveries/${eventId}/resend`, {
        key: account.writeKey,
      });
      assertError(busy, 409, 'delivery_in_progress', 'resend while sending');
      const during = await server.request('GET', `/v1/webhooks/${webhook.id}/deliveries/${eventId}`, {
        key: account.readKey,
      });
      assert.equal(during.body.status, 'sending');
      await settled(server);
      const done = await server.request('GET', `/v1/webhooks/${webhook.id}/deliveries/${eventId}`, {
        key: account.readKey,
      });
      assert.equal(done.body.status, 'succeeded');
      assert.equal(done.body.attempt_count, 4);
      assert.equal(receiver.requests.length, 4, 'one request per resend, no more');

      // A receiver that refuses connections: the attempt's error is a short stable word.
      await receiver.close();
      await server.request('POST', `/v1/webhooks/${webhook.id}/deliveries/${eventId}/resend`, {
        key: account.writeKey,
      });
      await settled(server);
      const refused = await eventually(async () => {
        const res = await server.request('GET', `/v1/webhooks/${webhook.id}/deliveries/${eventId}`, {
          key: account.readKey,
        });
        return res.body.attempts.length === 5 ? res.body : undefined;
      });
      assert.deepEqual(
        { ...refused.attempts[4], started_at: undefined, duration_ms: undefined },
        {
          attempt: 5,
          started_at: undefined,
          duration_ms: undefined,
          status_code: null,
          error: 'connection_refused',
          response_body: null,
        },
      );
    });
  });
}
