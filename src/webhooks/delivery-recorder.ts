// Records attempt outcomes in batches: whatever finished while the previous batch was being
// written goes in the next transaction, so the database sees a few transactions per second
// instead of one per delivery. A crash before a batch is written loses only the record; the
// lease then runs out and the delivery is sent again (at least once).
import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';
import * as deliveries from './delivery.repository.ts';
import type { Decision } from './delivery-decision.ts';
import * as webhooks from './webhook.repository.ts';
import type { DeliveryAttemptRow } from './webhook.table.ts';

export interface FinishedAttempt {
  deliveryId: string;
  webhookId: string;
  eventId: string;
  /** Undefined when no request was made (the webhook was disabled after the claim). */
  attempt: DeliveryAttemptRow | undefined;
  decision: Decision;
}

export interface RecorderOptions {
  db: Db;
  leaseToken: string;
  disableAfterFailedEvents: number;
  now: () => number;
  logger: Logger;
  /** Told after each batch when the earliest retry it scheduled falls due. */
  onRetryScheduled: (at: number) => void;
}

export class DeliveryRecorder {
  private readonly options: RecorderOptions;
  private queue: FinishedAttempt[] = [];
  private writing: Promise<void> | undefined;

  constructor(options: RecorderOptions) {
    this.options = options;
  }

  add(finished: FinishedAttempt): void {
    this.queue.push(finished);
    this.writing ??= this.drain();
  }

  /** Resolves once everything added so far is written. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        try {
          await this.write(batch);
          const retries = batch.flatMap((item) => (item.decision.kind === 'retry' ? [item.decision.at] : []));
          if (retries.length > 0) this.options.onRetryScheduled(Math.min(...retries));
        } catch (error) {
          // The claims keep their lease until it runs out; then they are sent again.
          this.options.logger.error(
            { err: error, count: batch.length },
            'could not record delivery attempts',
          );
        }
      }
    } finally {
      this.writing = undefined;
    }
  }

  private async write(batch: FinishedAttempt[]): Promise<void> {
    const { db, leaseToken, now, logger } = this.options;
    await db.transaction().execute(async (trx) => {
      const at = now();
      const succeeded = batch.filter((item) => item.decision.kind === 'succeeded');
      const settledIds = new Set(
        await deliveries.settleSucceeded(
          trx,
          succeeded.map((item) => item.deliveryId),
          leaseToken,
          at,
        ),
      );
      const attempts = succeeded
        .filter((item) => settledIds.has(item.deliveryId))
        .flatMap((item) => (item.attempt ? [item.attempt] : []));
      await webhooks.resetFailedEvents(trx, [
        ...new Set(succeeded.filter((item) => settledIds.has(item.deliveryId)).map((item) => item.webhookId)),
      ]);

      const unsettled = batch.filter((item) => item.decision.kind !== 'succeeded');
      const statuses = await webhooks.findWebhookStatuses(trx, [
        ...new Set(unsettled.map((item) => item.webhookId)),
      ]);
      for (const item of unsettled) {
        const decision = item.decision;
        if (decision.kind === 'succeeded') continue;
        const active = statuses.get(item.webhookId) === 'active';
        // A retry for a webhook disabled meanwhile is dropped, like its other pending deliveries.
        const settled = await deliveries.settleDelivery(trx, {
          deliveryId: item.deliveryId,
          leaseToken,
          status: decision.kind === 'retry' && active ? 'pending' : 'failed',
          nextAttemptAt: decision.kind === 'retry' ? decision.at : at,
          lastError:
            decision.kind === 'retry' && !active
              ? `${decision.reason}; dropped: webhook disabled`
              : decision.reason,
          at,
        });
        if (!settled) continue;
        if (item.attempt) attempts.push(item.attempt);
        if (decision.kind !== 'failed' || !active) continue;

        const failedInRow = await webhooks.countFailedEvent(trx, item.webhookId, at);
        const disableReason =
          decision.disable ??
          (failedInRow !== undefined && failedInRow >= this.options.disableAfterFailedEvents
            ? `${failedInRow} events in a row failed`
            : undefined);
        if (
          disableReason !== undefined &&
          (await webhooks.disableWebhook(trx, item.webhookId, disableReason, at))
        ) {
          await deliveries.dropPendingDeliveries(trx, item.webhookId, 'dropped: webhook disabled', at);
          statuses.set(item.webhookId, 'disabled');
          logger.warn({ webhookId: item.webhookId, reason: disableReason }, 'webhook disabled');
        }
      }
      await deliveries.insertAttempts(trx, attempts);
    });
  }
}
