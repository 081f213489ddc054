// Recovering missed events: a receiver down for an hour of simulated time gets the webhook
// auto-disabled; `enable` + `recover` then sends exactly the missed events, once each, oldest
// first. And a recovery is run once even when several worker processes share the database.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, test } from 'node:test';
import { recordEvent } from '../../src/events/outbox.ts';
import { TestClock } from '../helpers/clock.ts';
import { startCli } from '../helpers/cli.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { startReceiver } from '../helpers/https-receiver.ts';
import { testCa } from '../helpers/test-ca.ts';
import { eventually, registerWebhook, startWebhookServer } from './harness.ts';
import { settled, streamStarted } from './management-harness.ts';

const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

for (const dialect of DIALECTS) {
  describe(`webhook recovery on ${dialect}`, () => {
    test('an hour-long outage: enable + recover delivers exactly the missed events, once each, in order', async (t) => {
      const clock = new TestClock();
      const { server } = await startWebhookServer(t, {
        dialect,
        clock,
        // Three attempts per event within a few (simulated) minutes; three failed events disable.
        webhooks: { retryDelaysMs: [MINUTE, 5 * MINUTE], disableAfterFailedEvents: 3 },
        // One attempt at a time to this webhook, so arrival order is claim order.
        workerOptions: { pollIntervalMs: 50, perWebhookConcurrency: 1 },
      });
      let down = false;
      const receiver = await startReceiver(() =>
        down ? { status: 500, body: 'down for maintenance' } : { status: 200, body: 'ok' },
      );
      t.after(() => receiver.close());
      const account = await server.createAccount();
      const windowStart = clock.now();
      clock.advance(1000);
      const beforeWebhook = await streamStarted(server, account.userId);
      // Fanned out before the webhook exists (fan-out serves the webhooks existing at its time).
      await settled(server);
      clock.advance(1000);
      const webhook = await registerWebhook(server, account.writeKey, receiver.url(), ['stream.started']);
      await settled(server);
      clock.advance(1000);
      const beforeOutage = await streamStarted(server, account.userId);
      await settled(server);
      assert.deepEqual(
        receiver.requests.map((r) => r.body.type),
        ['ping', 'stream.started'],
      );

      // The outage: six events over an hour, each tried three times and failed.
      clock.advance(MINUTE);
      down = true;
      const missed: string[] = [];
      for (let i = 0; i < 6; i += 1) {
        missed.push(await streamStarted(server, account.userId));
        await settled(server);
        clock.advance(10 * MINUTE);
        await settled(server);
      }
      const disabled = await server.request('GET', `/v1/webhooks/${webhook.id}`, { key: account.readKey });
      assert.equal(disabled.body.status, 'disabled', 'three events failed in a row');
      const log = await server.request('GET', `/v1/webhooks/${webhook.id}/deliveries?limit=100`, {
        key: account.readKey,
      });
      const statuses = new Map(log.body.data.map((d: any) => [d.event_id, d.status]));
      assert.ok(
        missed.every((id) => statuses.get(id) === undefined || statuses.get(id) === 'failed'),
        'during the outage every event failed or was never sent (webhook disabled)',
      );
      assert.ok(
        missed.some((id) => statuses.get(id) === undefined),
        'some events came while the webhook was disabled',
      );
      const outageRequests = receiver.requests.length;

      // Back up: enable, then recover the window.
      down = false;
      clock.advance(MINUTE);
      const enabled = await server.request('POST', `/v1/webhooks/${webhook.id}/enable`, {
        key: account.writeKey,
      });
      assert.equal(enabled.status, 200);
      assert.equal(enabled.body.status, 'active');
      const started = await server.request('POST', `/v1/webhooks/${webhook.id}/recover`, {
        key: account.writeKey,
        body: { since: iso(windowStart) },
      });
      assert.equal(started.status, 202, JSON.stringify(started.body));
      assert.match(started.body.id, /^rcv_/);
      assert.deepEqual(
        { ...started.body, id: undefined },
        {
          id: undefined,
          webhook_id: webhook.id,
          since: iso(windowStart),
          until: iso(clock.now()),
          status: 'running',
          events_queued: 0,
          created_at: iso(clock.now()),
        },
      );
      const recovery = await eventually(async () => {
        const res = await server.request('GET', `/v1/webhooks/${webhook.id}/recoveries/${started.body.id}`, {
          key: account.readKey,
        });
        assert.equal(res.status, 200);
        return res.body.status === 'done' ? res.body : undefined;
      });
      assert.equal(recovery.events_queued, missed.length);
      await settled(server);
      const resent = receiver.requests.slice(outageRequests).map((r) => r.body.id as string);
      assert.deepEqual(resent, missed, 'each missed event once, oldest first; nothing else');
      assert.ok(!resent.includes(beforeWebhook) && !resent.includes(beforeOutage));

      // Enabled again, new events are delivered as usual.
      clock.advance(MINUTE);
      const after = await streamStarted(server, account.userId);
      await settled(server);
      assert.equal(receiver.requests.at(-1)?.body.id, after);
      const total = receiver.requests.length;

      // A second recovery of the same window finds nothing missing.
      const again = await server.request('POST', `/v1/webhooks/${webhook.id}/recover`, {
        key: account.writeKey,
        body: { since: iso(windowStart), until: iso(clock.now()) },
      });
      assert.equal(again.status, 202);
      await settled(server);
      const second = await server.request('GET', `/v1/webhooks/${webhook.id}/recoveries/${again.body.id}`, {
        key: account.readKey,
      });
      assert.equal(second.body.status, 'done');
      assert.equal(second.body.events_queued, 0);
      assert.equal(receiver.requests.length, total);

      // Recovering a disabled webhook is refused: its deliveries could not be sent.
      await server.services.database.db
        .updateTable('webhooks')
        .set({ status: 'disabled' })
        .where('id', '=', webhook.id)
        .execute();
      const refused = await server.request('POST', `/v1/webhooks/${webhook.id}/recover`, {
        key: account.writeKey,
        body: { since: iso(windowStart) },
      });
      assert.equal(refused.status, 409);
      assert.equal(refused.body.error.code, 'state_conflict');
    });

    test('two worker processes run one recovery: every missed event is queued once and arrives', async (t) => {
      const { server } = await startWebhookServer(t, { dialect, worker: false });
      const receiver = await startReceiver();
      t.after(() => receiver.close());
      const account = await server.createAccount();
      const webhook = await registerWebhook(server, account.writeKey, receiver.url(), ['*']);
      const { db } = server.services.database;
      const count = 700;
      // The events are dated a minute ago, and the webhook made before them: a recovery's window
      // ends when it is asked for, so events dated later are not missed ones (a CI run asked
      // within 700 ms of the first and found 674), and events older than a webhook are not its own.
      const at = Date.now() - 60_000;
      // Auto-disabled before any worker ran: the ping and everything after it are missed.
      await db
        .updateTable('webhooks')
        .set({ status: 'disabled', created_at: at - 1000 })
        .where('id', '=', webhook.id)
        .execute();
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < count; i += 1) {
          await recordEvent(trx, {
            type: 'video.published',
            accountId: account.userId,
            at: at + i,
            data: { n: i },
          });
        }
      });

      const env = {
        DATABASE_URL: server.database.url,
        DATA_DIR: server.dataDir,
        SECRET_KEY: server.secretKey.toString('hex'),
        LOG_LEVEL: 'warn',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        // Delivery is at least once: an attempt that fails on a starved machine (a timeout) is
        // retried within a second here instead of after the default minute, so the test waits
        // for the outcome, not for the retry schedule.
        WEBHOOK_RETRY_DELAYS: '1s,1s,1s,1s',
        NODE_EXTRA_CA_CERTS: testCa().caFile,
      };
      const workers = [startCli(['worker'], env), startCli(['worker'], env)];
      t.after(async () => {
        for (const worker of workers) {
          if (worker.child.exitCode === null && worker.child.signalCode === null) {
            worker.child.kill('SIGTERM');
            await once(worker.child, 'exit');
          }
        }
      });
      await eventually(
        async () => {
          const left = await db
            .selectFrom('events')
            .select('id')
            .where('dispatched_at', 'is', null)
            .execute();
          return left.length === 0 ? true : undefined;
        },
        20_000,
        'the workers to fan out the outbox',
      );
      assert.equal(receiver.requests.length, 0, 'nothing is sent to a disabled webhook');

      assert.equal(
        (await server.request('POST', `/v1/webhooks/${webhook.id}/enable`, { key: account.writeKey })).status,
        200,
      );
      const started = await server.request('POST', `/v1/webhooks/${webhook.id}/recover`, {
        key: account.writeKey,
        body: { since: iso(at - 1000) },
      });
      assert.equal(started.status, 202);
      const deliveryStates = async () =>
        db
          .selectFrom('webhook_deliveries')
          .select(['event_id', 'status', 'attempt_count', 'last_error'])
          .where('webhook_id', '=', webhook.id)
          .execute();
      await eventually(
        async () => {
          const rows = await deliveryStates();
          return rows.length === count + 1 && rows.every((row) => row.status === 'succeeded')
            ? true
            : undefined;
        },
        120_000,
        'every delivery to succeed',
      ).catch(async (error: unknown) => {
        const rows = await deliveryStates();
        const byStatus = Object.groupBy(rows, (row) => row.status);
        const errors = [...new Set(rows.map((row) => row.last_error).filter((e) => e !== null))].slice(0, 5);
        throw new Error(
          `${String(error)}; ${receiver.requests.length} requests received; deliveries: ` +
            `${JSON.stringify(Object.fromEntries(Object.entries(byStatus).map(([k, v]) => [k, v.length])))}; ` +
            `errors: ${JSON.stringify(errors)}\n${workers.map((w) => w.output()).join('\n')}`,
        );
      });
      const received = new Map<string, number>();
      for (const request of receiver.requests) {
        const id = request.body.id as string;
        received.set(id, (received.get(id) ?? 0) + 1);
      }
      assert.equal(received.size, count + 1, 'the ping and every event arrived');
      // A second copy only ever follows an attempt that failed (at-least-once delivery); two
      // workers sending one delivery would show as two successful attempts and two copies.
      const attempts = await db
        .selectFrom('webhook_delivery_attempts')
        .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_delivery_attempts.delivery_id')
        .select(['webhook_deliveries.event_id', 'webhook_delivery_attempts.status_code'])
        .where('webhook_deliveries.webhook_id', '=', webhook.id)
        .execute();
      const failedAttempts = new Map<string, number>();
      for (const attempt of attempts) {
        const failed = attempt.status_code === null || attempt.status_code >= 300;
        if (failed) failedAttempts.set(attempt.event_id, (failedAttempts.get(attempt.event_id) ?? 0) + 1);
      }
      const extraCopies = [...received].filter(([id, copies]) => copies > 1 + (failedAttempts.get(id) ?? 0));
      assert.deepEqual(extraCopies, [], 'no event arrives twice unless an attempt of it failed');
      const recovery = await server.request(
        'GET',
        `/v1/webhooks/${webhook.id}/recoveries/${started.body.id}`,
        {
          key: account.readKey,
        },
      );
      assert.deepEqual([recovery.body.status, recovery.body.events_queued], ['done', count + 1]);
    });
  });
}
