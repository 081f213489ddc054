// Retention: the worker prunes settled delivery history older than WEBHOOK_HISTORY_DAYS, in
// batches, and the events nothing needs any more; deliveries still waiting for a retry stay.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LogEvent } from 'kysely';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { startTestApp } from '../helpers/app.ts';
import { TestClock } from '../helpers/clock.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { startReceiver } from '../helpers/https-receiver.ts';
import { eventually, registerWebhook } from './harness.ts';
import { settled, streamStarted } from './management-harness.ts';

const DAY = 24 * 60 * 60 * 1000;

describe('WEBHOOK_HISTORY_DAYS', () => {
  test('defaults to 30, takes 1 to 3650, and names the variable when invalid', () => {
    assert.equal(loadConfig({ DATABASE_URL: ':memory:' }).webhooks.historyDays, 30);
    assert.equal(
      loadConfig({ DATABASE_URL: ':memory:', WEBHOOK_HISTORY_DAYS: '90' }).webhooks.historyDays,
      90,
    );
    for (const bad of ['0', '3651', '7.5', 'a week', '-1']) {
      assert.throws(
        () => loadConfig({ DATABASE_URL: ':memory:', WEBHOOK_HISTORY_DAYS: bad }),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.problems.some(
            (p) => p === `WEBHOOK_HISTORY_DAYS must be a whole number from 1 to 3650 (got "${bad}")`,
          ),
        bad,
      );
    }
  });
});

for (const dialect of DIALECTS) {
  describe(`webhook history retention on ${dialect}`, () => {
    test('old settled history goes in batches; retrying deliveries and recent history stay', async (t) => {
      const clock = new TestClock();
      const statements: string[] = [];
      let recording = false;
      const server = await startTestApp(t, {
        dialect,
        clock,
        rateLimitPerKey: 100_000,
        rateLimitPerIp: 100_000,
        webhooks: { historyDays: 1, retryDelaysMs: [2 * DAY] },
        // No jitter: the retries fall due exactly two days after the first attempts.
        worker: { pollIntervalMs: 50, pruneBatchRows: 10, random: () => 0.5 },
        databaseLog: (event: LogEvent) => {
          if (recording && event.level === 'query') statements.push(event.query.sql);
        },
      });
      const ok = await startReceiver();
      const failing = await startReceiver(() => ({ status: 500, body: 'no' }));
      t.after(() => Promise.all([ok.close(), failing.close()]));
      const account = await server.createAccount();
      const healthy = await registerWebhook(server, account.writeKey, ok.url(), ['*']);
      const retrying = await registerWebhook(server, account.writeKey, failing.url(), ['stream.started']);
      for (let i = 0; i < 23; i += 1) {
        const res = await server.request('POST', `/v1/webhooks/${healthy.id}/test`, {
          key: account.writeKey,
        });
        assert.equal(res.status, 202);
      }
      const shared = await streamStarted(server, account.userId);
      await settled(server);
      const { db } = server.services.database;
      const deliveriesOf = async (webhookId: string) =>
        db
          .selectFrom('webhook_deliveries')
          .select(['id', 'event_id', 'status'])
          .where('webhook_id', '=', webhookId)
          .execute();
      assert.equal((await deliveriesOf(healthy.id)).length, 25, 'its ping, 23 test pings, the stream event');
      const waiting = await deliveriesOf(retrying.id);
      assert.deepEqual(
        waiting.map((d) => d.status),
        ['pending', 'pending'],
        'its ping and the stream event wait two days for their retry',
      );
      const attemptsBefore = await db
        .selectFrom('webhook_delivery_attempts')
        .select('delivery_id')
        .where(
          'delivery_id',
          'in',
          waiting.map((d) => d.id),
        )
        .execute();
      assert.equal(attemptsBefore.length, 2);

      // A day and an hour later: past the history window, before the retries fall due.
      clock.advance(DAY + 60 * 60 * 1000);
      recording = true;
      await eventually(async () => ((await deliveriesOf(healthy.id)).length === 0 ? true : undefined));
      await eventually(
        async () => {
          const events = await db.selectFrom('events').select('id').execute();
          return events.length === 2 ? events : undefined;
        },
        10_000,
        'the events without deliveries to be pruned',
      );
      recording = false;
      const deletes = (table: string) =>
        statements.filter((sql) => sql.toLowerCase().startsWith(`delete from "${table}"`)).length;
      assert.equal(deletes('webhook_deliveries'), 3, '25 settled deliveries in batches of 10: 10, 10, 5');
      // 23 test pings and the healthy webhook's ping: 10, 10, 4.
      assert.equal(deletes('events'), 3);

      // What is still needed stays: the waiting deliveries, their attempts and their events.
      assert.deepEqual(
        (await deliveriesOf(retrying.id)).map((d) => d.status),
        ['pending', 'pending'],
      );
      const remaining = await db.selectFrom('events').select(['id', 'type']).orderBy('type').execute();
      assert.deepEqual(
        remaining.map((e) => e.type),
        ['ping', 'stream.started'],
      );
      assert.ok(remaining.some((e) => e.id === shared));
      const attemptsAfter = await db.selectFrom('webhook_delivery_attempts').select('delivery_id').execute();
      assert.deepEqual(
        attemptsAfter.map((a) => a.delivery_id).sort(),
        waiting.map((d) => d.id).sort(),
        'the pruned deliveries took their attempts with them',
      );

      // Recent history is kept by later runs; the retries go ahead when due (two days after
      // the first attempts, 23 hours from now).
      const fresh = await server.request('POST', `/v1/webhooks/${healthy.id}/test`, {
        key: account.writeKey,
      });
      await settled(server);
      statements.length = 0;
      recording = true;
      clock.advance(23 * 60 * 60 * 1000 + 60 * 1000);
      await settled(server);
      assert.equal(failing.requests.length, 4, 'each waiting delivery had its second attempt');
      await eventually(
        async () => (deletes('webhook_deliveries') > 0 ? true : undefined),
        10_000,
        'a later pruning run',
      );
      recording = false;
      const kept = await server.request(
        'GET',
        `/v1/webhooks/${healthy.id}/deliveries/${fresh.body.event_id}`,
        {
          key: account.readKey,
        },
      );
      assert.equal(kept.status, 200, 'a delivery younger than the window is kept');
      assert.equal(kept.body.status, 'succeeded');
    });
  });
}
