import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { describe, test } from 'node:test';
import { DIALECTS } from '../helpers/databases.ts';
import { startReceiver, type ReceivedRequest } from '../helpers/https-receiver.ts';
import type { TestServer } from '../helpers/server.ts';
import type { EventType } from '../../src/events/event-types.ts';
import { eventually, registerWebhook, startWebhookServer } from './harness.ts';

/** An implementation independent of the service's: node:crypto over the raw bytes received. */
function validSignature(secret: string, request: ReceivedRequest): boolean {
  const expected = createHmac('sha256', secret).update(request.rawBody).digest();
  const header = String(request.headers['x-service-signature'] ?? '');
  const presented = Buffer.from(header, 'hex');
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

async function deliveryRow(server: TestServer, webhookId: string, eventType: EventType) {
  return server.services.database.db
    .selectFrom('webhook_deliveries')
    .innerJoin('events', 'events.id', 'webhook_deliveries.event_id')
    .select([
      'webhook_deliveries.id',
      'webhook_deliveries.status',
      'webhook_deliveries.attempt_count',
      'events.id as event_id',
    ])
    .where('webhook_deliveries.webhook_id', '=', webhookId)
    .where('events.type', '=', eventType)
    .executeTakeFirst();
}

/**
 * Waits until the outbox is fanned out and every delivery is settled (succeeded or failed):
 * from then on nothing more can be sent, because only pending rows are ever claimed and no
 * event is left to make new ones. A request sent before is already at its receiver, which
 * records it on arrival, before answering, and so before the attempt could be settled.
 */
async function quiescent(server: TestServer): Promise<void> {
  const { db } = server.services.database;
  await eventually(
    async () => {
      const undispatched = await db
        .selectFrom('events')
        .select('id')
        .where('dispatched_at', 'is', null)
        .execute();
      const open = await db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', 'in', ['pending', 'sending'])
        .execute();
      return undispatched.length === 0 && open.length === 0 ? true : undefined;
    },
    20_000,
    'every event fanned out and every delivery settled',
  );
}

async function liveStream(server: TestServer, creatorId: string, title = 'Live now'): Promise<string> {
  const { stream } = await server.services.streams.create(creatorId, { title });
  await server.services.streams.goLive(stream.id);
  return stream.id;
}

for (const dialect of DIALECTS) {
  describe(`webhook deliveries on ${dialect}`, () => {
    test('the ping arrives once, signed over the raw body (checked with node:crypto and openssl)', async (t) => {
      const { server } = await startWebhookServer(t, { dialect });
      const receiver = await startReceiver();
      t.after(() => receiver.close());
      const account = await server.createAccount();
      const webhook = await registerWebhook(server, account.writeKey, receiver.url(), ['video.published']);
      const [ping] = await receiver.waitForRequests(1);
      assert.ok(ping);
      assert.equal(ping.method, 'POST');
      assert.equal(ping.path, '/hook');
      assert.equal(ping.headers['content-type'], 'application/json');
      assert.deepEqual(Object.keys(ping.body).sort(), ['created_at', 'data', 'id', 'type']);
      assert.equal(ping.body.type, 'ping');
      assert.match(ping.body.id, /^evt_/);
      assert.deepEqual(ping.body.data, { webhook_id: webhook.id });
      assert.equal(ping.headers['x-service-event-id'], ping.body.id);
      assert.equal(ping.headers['x-service-event-type'], 'ping');
      assert.equal(ping.headers['x-service-delivery-attempt'], '1');
      assert.ok(validSignature(webhook.secret, ping));
      assert.ok(!validSignature('whsec_wrong', ping));
      const openssl = execFileSync('openssl', ['dgst', '-sha256', '-hmac', webhook.secret, '-r'], {
        input: ping.rawBody,
      })
        .toString()
        .split(' ')[0];
      assert.equal(ping.headers['x-service-signature'], openssl);

      await quiescent(server);
      assert.equal(receiver.requests.length, 1, 'the ping is sent once');
      const row = await deliveryRow(server, webhook.id, 'ping');
      assert.equal(row?.status, 'succeeded');
    });

    test('each event reaches exactly the subscribed webhooks of the owning account', async (t) => {
      const { server } = await startWebhookServer(t, { dialect });
      const receivers = await Promise.all([
        startReceiver(),
        startReceiver(),
        startReceiver(),
        startReceiver(),
      ]);
      t.after(() => Promise.all(receivers.map((r) => r.close())));
      const [all, started, published, otherAccount] = receivers;
      const creator = await server.createAccount('creator');
      const viewer = await server.createAccount('viewer');
      const other = await server.createAccount('other');
      await registerWebhook(server, creator.writeKey, all.url(), ['*']);
      await registerWebhook(server, creator.writeKey, started.url(), ['stream.started']);
      await registerWebhook(server, creator.writeKey, published.url(), [
        'video.published',
        'subscription.cancelled',
      ]);
      await registerWebhook(server, other.writeKey, otherAccount.url(), ['*']);
      for (const receiver of receivers) await receiver.waitForRequests(1);

      const streamId = await liveStream(server, creator.userId);
      await server.services.streams.end(streamId);
      const video = await server.services.videos.publish({
        creatorId: creator.userId,
        title: 'Recording',
        durationSeconds: 60,
        sourceStreamId: streamId,
        privacy: 'private',
      });
      const subscription = await server.services.subscriptions.subscribe(viewer.userId, creator.userId);
      await server.services.subscriptions.cancel(subscription.id);

      const types = (requests: ReceivedRequest[]) => requests.map((r) => r.body.type as string).sort();
      await all.waitForRequests(6);
      await started.waitForRequests(2);
      await published.waitForRequests(3);
      await quiescent(server);
      assert.deepEqual(types(all.requests), [
        'ping',
        'stream.ended',
        'stream.started',
        'subscription.cancelled',
        'subscription.created',
        'video.published',
      ]);
      assert.deepEqual(types(started.requests), ['ping', 'stream.started']);
      assert.deepEqual(types(published.requests), ['ping', 'subscription.cancelled', 'video.published']);
      assert.deepEqual(types(otherAccount.requests), ['ping']);

      const startedEvent = started.requests.find((r) => r.body.type === 'stream.started');
      assert.ok(startedEvent);
      assert.equal(startedEvent.body.data.id, streamId);
      assert.equal(startedEvent.body.data.status, 'live');
      for (const field of ['id', 'title', 'status', 'creator_id', 'started_at', 'stream_url']) {
        assert.ok(field in startedEvent.body.data, field);
      }
      const videoEvent = published.requests.find((r) => r.body.type === 'video.published');
      assert.equal(videoEvent?.body.data.id, video.id);
      // One event, one evt_ id, whichever webhook receives it.
      const sameEvent = all.requests.find((r) => r.body.type === 'stream.started');
      assert.equal(sameEvent?.body.id, startedEvent.body.id);
    });

    test('failed attempts are retried after the configured delays with the same evt_ id, then succeed', async (t) => {
      // No jitter (random 0.5), so the delays are exactly 300 and 600 ms.
      const { server } = await startWebhookServer(t, {
        dialect,
        webhooks: { retryDelaysMs: [300, 600] },
        workerOptions: { random: () => 0.5 },
      });
      const receiver = await startReceiver((_request, index) =>
        index < 2 ? { status: 500, body: 'try later' } : { status: 204 },
      );
      t.after(() => receiver.close());
      const account = await server.createAccount();
      const webhook = await registerWebhook(server, account.writeKey, receiver.url());
      const [first, second, third] = await receiver.waitForRequests(3);
      assert.ok(first && second && third);
      assert.deepEqual(
        [first, second, third].map((r) => r.headers['x-service-delivery-attempt']),
        ['1', '2', '3'],
      );
      assert.equal(new Set([first, second, third].map((r) => r.body.id)).size, 1);
      assert.ok(first.rawBody.equals(third.rawBody), 'the same bytes on every attempt');
      // Never sooner than scheduled: a retry is claimed only once the clock has passed its
      // next_attempt_at, set when the previous answer came (after it arrived). How late it may
      // come depends on the machine's load, so no upper bound here: the scheduler's unit test
      // (test/unit/delivery-scheduler.test.ts) shows it wakes at the due time to the millisecond.
      const gap1 = second.receivedAt - first.receivedAt;
      const gap2 = third.receivedAt - second.receivedAt;
      assert.ok(gap1 >= 300, `first retry after ${gap1} ms`);
      assert.ok(gap2 >= 600, `second retry after ${gap2} ms`);

      const row = await eventually(async () => {
        const found = await deliveryRow(server, webhook.id, 'ping');
        return found?.status === 'succeeded' ? found : undefined;
      });
      const attempts = await server.services.database.db
        .selectFrom('webhook_delivery_attempts')
        .select(['attempt_number', 'status_code', 'response_excerpt', 'latency_ms'])
        .where('delivery_id', '=', row.id)
        .orderBy('attempt_number')
        .execute();
      assert.deepEqual(
        attempts.map((a) => [a.attempt_number, a.status_code, a.response_excerpt]),
        [
          [1, 500, 'try later'],
          [2, 500, 'try later'],
          [3, 204, ''],
        ],
      );
    });

    test('after the last attempt the event is marked failed and nothing more is sent', async (t) => {
      const { server } = await startWebhookServer(t, { dialect, webhooks: { retryDelaysMs: [100, 100] } });
      const receiver = await startReceiver(() => ({ status: 503 }));
      t.after(() => receiver.close());
      const account = await server.createAccount();
      const webhook = await registerWebhook(server, account.writeKey, receiver.url());
      await receiver.waitForRequests(3);
      const row = await eventually(async () => {
        const found = await deliveryRow(server, webhook.id, 'ping');
        return found?.status === 'failed' ? found : undefined;
      });
      assert.equal(row.attempt_count, 3);
      // Failed is final (only an operator's retry makes it pending again), so no request can follow.
      await quiescent(server);
      assert.equal(receiver.requests.length, 3);
    });

    test('a receiver answering after 6 s counts as a failure (5 s limit)', async (t) => {
      const { server } = await startWebhookServer(t, {
        dialect,
        webhooks: { timeoutMs: 5000, retryDelaysMs: [60_000] },
      });
      const receiver = await startReceiver(() => ({ status: 200, delayMs: 6000 }));
      t.after(() => receiver.close());
      const account = await server.createAccount();
      const webhook = await registerWebhook(server, account.writeKey, receiver.url());
      const attempt = await eventually(
        () =>
          server.services.database.db
            .selectFrom('webhook_delivery_attempts')
            .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_delivery_attempts.delivery_id')
            .select(['status_code', 'error', 'latency_ms', 'webhook_deliveries.status'])
            .where('webhook_deliveries.webhook_id', '=', webhook.id)
            .executeTakeFirst(),
        9000,
        'the timed-out attempt',
      );
      assert.equal(attempt.status_code, null);
      assert.match(attempt.error ?? '', /timeout/);
      // Not before the limit; and not the 6 s answer either, or it would have a status code.
      assert.ok(attempt.latency_ms >= 4900, `${attempt.latency_ms} ms`);
      assert.equal(attempt.status, 'pending', 'scheduled for a retry');
    });

    test('a webhook is disabled after the configured number of failed events, and gets nothing after', async (t) => {
      const { server } = await startWebhookServer(t, {
        dialect,
        webhooks: { retryDelaysMs: [], disableAfterFailedEvents: 2 },
      });
      const receiver = await startReceiver(() => ({ status: 500 }));
      t.after(() => receiver.close());
      const account = await server.createAccount();
      const webhook = await registerWebhook(server, account.writeKey, receiver.url(), ['*']);
      await receiver.waitForRequests(1); // the ping: failed event 1
      await liveStream(server, account.userId); // failed event 2: disabled
      await receiver.waitForRequests(2);
      await eventually(async () => {
        const list = await server.request('GET', '/v1/webhooks', { key: account.readKey });
        return list.body.data[0].status === 'disabled' ? true : undefined;
      });
      receiver.script = () => ({ status: 200 });
      await liveStream(server, account.userId);
      await quiescent(server);
      assert.equal(receiver.requests.length, 2);
      // The event after disabling is never fanned out to it: only the ping and the first stream.
      const rows = await server.services.database.db
        .selectFrom('webhook_deliveries')
        .select('status')
        .where('webhook_id', '=', webhook.id)
        .execute();
      assert.deepEqual(
        rows.map((row) => row.status),
        ['failed', 'failed'],
      );
    });

    test('a success in between resets the count of failed events', async (t) => {
      const { server } = await startWebhookServer(t, {
        dialect,
        webhooks: { retryDelaysMs: [100], disableAfterFailedEvents: 2 },
      });
      // The ping and streams titled "fail" fail on every attempt; the others succeed.
      const receiver = await startReceiver((request) => ({
        status: request.body.type === 'ping' || request.body.data.title === 'fail' ? 500 : 200,
      }));
      t.after(() => receiver.close());
      const account = await server.createAccount();
      const webhook = await registerWebhook(server, account.writeKey, receiver.url(), ['*']);
      const settled = async (count: number) =>
        eventually(async () => {
          const rows = await server.services.database.db
            .selectFrom('webhook_deliveries')
            .select('status')
            .where('webhook_id', '=', webhook.id)
            .where('status', 'in', ['succeeded', 'failed'])
            .execute();
          return rows.length >= count ? true : undefined;
        });
      await settled(1); // the ping failed: 1 in a row
      let events = 1;
      for (const title of ['ok', 'fail', 'ok', 'fail']) {
        await liveStream(server, account.userId, title);
        await settled(++events);
      }
      const list = await server.request('GET', '/v1/webhooks', { key: account.readKey });
      assert.equal(list.body.data[0].status, 'active', 'never 2 failed events in a row');
      // Two in a row now disables it.
      await liveStream(server, account.userId, 'fail');
      await eventually(async () => {
        const after = await server.request('GET', '/v1/webhooks', { key: account.readKey });
        return after.body.data[0].status === 'disabled' ? true : undefined;
      });
    });

    test('410 Gone disables the webhook at once', async (t) => {
      const { server } = await startWebhookServer(t, { dialect, webhooks: { retryDelaysMs: [100, 100] } });
      const receiver = await startReceiver(() => ({ status: 410 }));
      t.after(() => receiver.close());
      const account = await server.createAccount();
      await registerWebhook(server, account.writeKey, receiver.url());
      await receiver.waitForRequests(1);
      await eventually(async () => {
        const list = await server.request('GET', '/v1/webhooks', { key: account.readKey });
        return list.body.data[0].status === 'disabled' ? true : undefined;
      });
      await quiescent(server);
      assert.equal(receiver.requests.length, 1);
    });

    test('Retry-After on a 429 is honoured within the schedule', async (t) => {
      // The longest delay is far past the wait below: a Retry-After taken as "as late as allowed"
      // would never arrive in time, and one ignored would come after 100 ms.
      const { server } = await startWebhookServer(t, {
        dialect,
        webhooks: { retryDelaysMs: [100, 600_000] },
      });
      const receiver = await startReceiver((_r, index) =>
        index === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 },
      );
      t.after(() => receiver.close());
      const account = await server.createAccount();
      await registerWebhook(server, account.writeKey, receiver.url());
      const [first, second] = await receiver.waitForRequests(2, 20_000);
      const gap = second!.receivedAt - first!.receivedAt;
      assert.ok(gap >= 1000, `retried after ${gap} ms`);
    });

    test('DELETE aborts an attempt in flight and nothing is delivered after it', async (t) => {
      // The limit is far past the wait below, so an attempt that ends in time was aborted.
      const { server } = await startWebhookServer(t, { dialect, webhooks: { timeoutMs: 120_000 } });
      const receiver = await startReceiver(() => ({ status: 200, hang: true }));
      t.after(() => receiver.close());
      const account = await server.createAccount();
      const webhook = await registerWebhook(server, account.writeKey, receiver.url());
      const [ping] = await receiver.waitForRequests(1);
      const res = await server.request('DELETE', `/v1/webhooks/${webhook.id}`, { key: account.writeKey });
      assert.equal(res.status, 200);
      await eventually(async () => (ping!.aborted ? true : undefined), 20_000, 'the attempt to be aborted');
      receiver.script = () => ({ status: 200 });
      await liveStream(server, account.userId);
      await quiescent(server);
      assert.equal(receiver.requests.length, 1);
      const rows = await server.services.database.db.selectFrom('webhook_deliveries').select('id').execute();
      assert.equal(rows.length, 0);
    });

    test('a slow receiver does not hold up deliveries to another', async (t) => {
      // No attempt times out during the test: the dead receiver's two hold their slots throughout.
      const { server } = await startWebhookServer(t, {
        dialect,
        webhooks: { timeoutMs: 120_000 },
        workerOptions: { perWebhookConcurrency: 2 },
      });
      const dead = await startReceiver(() => ({ status: 200, hang: true }));
      const healthy = await startReceiver();
      t.after(() => Promise.all([dead.close(), healthy.close()]));
      const slowAccount = await server.createAccount('slow');
      const fastAccount = await server.createAccount('fast');
      const deadWebhook = await registerWebhook(server, slowAccount.writeKey, dead.url());
      await registerWebhook(server, fastAccount.writeKey, healthy.url());
      for (let i = 0; i < 10; i++) {
        await liveStream(server, slowAccount.userId);
        await liveStream(server, fastAccount.userId);
      }
      try {
        await healthy.waitForRequests(11, 20_000);
        await dead.waitForRequests(2, 20_000);
        // All eleven went through while the dead receiver held both of its webhook's slots:
        // none of its attempts has ended, and none beyond the limit has started.
        assert.deepEqual(
          dead.requests.map((request) => request.aborted),
          [false, false],
          `the per-webhook limit in flight, saw ${dead.requests.length}`,
        );
      } finally {
        // Deleting the webhook ends its hanging attempts, so the worker stops at once, pass or fail.
        await server.request('DELETE', `/v1/webhooks/${deadWebhook.id}`, { key: slowAccount.writeKey });
      }
    });

    test('stopping the worker finishes attempts in flight and leaves nothing claimed', async (t) => {
      const { server, worker } = await startWebhookServer(t, { dialect });
      const receiver = await startReceiver(() => ({ status: 200, delayMs: 300 }));
      t.after(() => receiver.close());
      const account = await server.createAccount();
      await registerWebhook(server, account.writeKey, receiver.url());
      await receiver.waitForRequests(1);
      await worker!.stop();
      const rows = await server.services.database.db
        .selectFrom('webhook_deliveries')
        .select(['status', 'lease_token'])
        .execute();
      assert.deepEqual(
        rows.map((row) => ({ ...row })),
        [{ status: 'succeeded', lease_token: null }],
      );
    });
  });
}
