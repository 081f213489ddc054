import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createLogger } from '../../src/shared/logger.ts';
import { DeliveryRecorder, type FinishedAttempt } from '../../src/webhooks/delivery/recorder.ts';
import type { Decision } from '../../src/webhooks/delivery/decision.ts';
import { DIALECTS, openMigratedTestDatabase } from '../helpers/databases.ts';

for (const dialect of DIALECTS) {
  describe(`recording attempts on ${dialect}`, () => {
    test('outcomes in one batch count in order: failed then succeeded leaves no failures in a row', async (t) => {
      const handle = await openMigratedTestDatabase(t, dialect);
      const { db } = handle;
      await db.insertInto('users').values({ id: 'usr_1', name: 'u', created_at: 0 }).execute();
      await db
        .insertInto('webhooks')
        .values({
          id: 'wh_1',
          account_id: 'usr_1',
          url: 'https://127.0.0.1/x',
          events: '["*"]',
          secret_ciphertext: 'x',
          status: 'active',
          consecutive_failed_events: 1,
          disabled_reason: null,
          created_at: 0,
          updated_at: 0,
        })
        .execute();
      const claim = async (n: number) => {
        await db
          .insertInto('events')
          .values({
            id: `evt_${n}`,
            type: 'stream.started',
            account_id: 'usr_1',
            created_at: n,
            data: '{}',
            dispatched_at: n,
          })
          .execute();
        await db
          .insertInto('webhook_deliveries')
          .values({
            id: `dlv_${n}`,
            event_id: `evt_${n}`,
            webhook_id: 'wh_1',
            status: 'sending',
            attempt_count: 1,
            next_attempt_at: n,
            locked_until: Date.now() + 60_000,
            lease_token: 'lease_test',
            last_error: null,
            created_at: n,
            updated_at: n,
          })
          .execute();
      };
      const finished = (n: number, decision: Decision): FinishedAttempt => ({
        deliveryId: `dlv_${n}`,
        webhookId: 'wh_1',
        eventId: `evt_${n}`,
        attempt: {
          delivery_id: `dlv_${n}`,
          attempt_number: 1,
          started_at: n,
          latency_ms: 1,
          status_code: decision.kind === 'succeeded' ? 200 : 500,
          error: null,
          response_excerpt: '',
        },
        decision,
      });
      const counter = async () =>
        (
          await db
            .selectFrom('webhooks')
            .select(['consecutive_failed_events', 'status'])
            .executeTakeFirstOrThrow()
        ).consecutive_failed_events;

      const recorder = new DeliveryRecorder({
        db,
        leaseToken: 'lease_test',
        disableAfterFailedEvents: 2,
        now: () => Date.now(),
        logger: createLogger('silent'),
        onRetryScheduled: () => undefined,
      });
      for (const n of [1, 2, 3, 4]) await claim(n);
      recorder.add(finished(1, { kind: 'failed', reason: 'HTTP 500' }));
      recorder.add(finished(2, { kind: 'succeeded' }));
      await recorder.flush();
      assert.equal(await counter(), 0, 'the success came last');

      recorder.add(finished(3, { kind: 'succeeded' }));
      recorder.add(finished(4, { kind: 'failed', reason: 'HTTP 500' }));
      await recorder.flush();
      assert.equal(await counter(), 1, 'the failure came last');

      const statuses = await db
        .selectFrom('webhook_deliveries')
        .select(['id', 'status'])
        .orderBy('id')
        .execute();
      assert.deepEqual(
        statuses.map((row) => row.status),
        ['failed', 'succeeded', 'succeeded', 'failed'],
      );
      const attempts = await db.selectFrom('webhook_delivery_attempts').select('delivery_id').execute();
      assert.equal(attempts.length, 4);

      // A claim whose lease another worker holds is not recorded over.
      await claim(5);
      await db
        .updateTable('webhook_deliveries')
        .set({ lease_token: 'lease_other' })
        .where('id', '=', 'dlv_5')
        .execute();
      recorder.add(finished(5, { kind: 'succeeded' }));
      await recorder.flush();
      const five = await db
        .selectFrom('webhook_deliveries')
        .select('status')
        .where('id', '=', 'dlv_5')
        .executeTakeFirstOrThrow();
      assert.equal(five.status, 'sending');
    });
  });
}
