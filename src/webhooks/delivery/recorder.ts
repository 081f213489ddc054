// Records attempt outcomes in batches: outcomes wait a few milliseconds (or for the previous
// batch to be written) and then go in one transaction, so the database sees a few transactions per second
// instead of one per delivery. A crash before a batch is written loses only the record; the
// lease then runs out and the delivery is sent again (at least once).
import type { Logger } from 'pino';
import { recordDeliveryAttempt } from '../../metrics/process-metrics.ts';
import type { Db } from '../../db/database.ts';
import * as deliveries from './delivery.repository.ts';
import type { Decision } from './decision.ts';
import * as webhooks from '../webhook.repository.ts';
import type { DeliveryAttemptRow } from '../webhook.table.ts';

/** How long the first outcome of a batch waits for others; small next to the latency budget. */
const BATCH_LINGER_MS = 5;

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
  private lingering: NodeJS.Timeout | undefined;

  constructor(options: RecorderOptions) {
    this.options = options;
  }

  add(finished: FinishedAttempt): void {
    if (finished.attempt !== undefined) recordDeliveryAttempt(finished.decision.kind);
    this.queue.push(finished);
    if (this.writing || this.lingering) return;
    this.lingering = setTimeout(() => {
      this.lingering = undefined;
      this.writing ??= this.drain();
    }, BATCH_LINGER_MS);
  }

  /** Resolves once everything added so far is written. */
  async flush(): Promise<void> {
    clearTimeout(this.lingering);
    this.lingering = undefined;
    if (this.queue.length > 0) this.writing ??= this.drain();
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
    const { db, leaseToken, now } = this.options;
    await db.transaction().execute(async (trx) => {
      const at = now();
      const settled = new Set(
        await deliveries.settleSucceeded(
          trx,
          batch.filter((item) => item.decision.kind === 'succeeded').map((item) => item.deliveryId),
          leaseToken,
          at,
        ),
      );
      const unsettled = batch.filter((item) => item.decision.kind !== 'succeeded');
      const statuses = await webhooks.findWebhookStatuses(trx, [
        ...new Set(unsettled.map((item) => item.webhookId)),
      ]);
      for (const item of unsettled) {
        const decision = item.decision;
        if (decision.kind === 'succeeded') continue;
        // A retry for a webhook disabled meanwhile is dropped, like its other pending deliveries.
        const dropped = decision.kind === 'retry' && statuses.get(item.webhookId) !== 'active';
        const ok = await deliveries.settleDelivery(trx, {
          deliveryId: item.deliveryId,
          leaseToken,
          status: decision.kind === 'retry' && !dropped ? 'pending' : 'failed',
          nextAttemptAt: decision.kind === 'retry' ? decision.at : at,
          lastError: dropped ? `${decision.reason}; dropped: webhook disabled` : decision.reason,
          at,
        });
        if (ok) settled.add(item.deliveryId);
      }
      await deliveries.insertAttempts(
        trx,
        batch.flatMap((item) => (item.attempt && settled.has(item.deliveryId) ? [item.attempt] : [])),
      );
      await this.updateFailureCounts(
        trx,
        batch.filter((item) => settled.has(item.deliveryId)),
        statuses,
        at,
      );
    });
  }

  /**
   * Replays the batch in order, per webhook: a success resets the count of events failed in a
   * row, an event marked failed adds one; reaching the limit (or a 410) disables the webhook.
   */
  private async updateFailureCounts(
    trx: Db,
    settledInOrder: FinishedAttempt[],
    statuses: Map<string, string>,
    at: number,
  ): Promise<void> {
    const tallies = new Map<string, { reset: boolean; failed: number; gone: string | undefined }>();
    for (const item of settledInOrder) {
      const { decision } = item;
      if (decision.kind === 'retry') continue;
      if (decision.kind === 'failed' && statuses.get(item.webhookId) !== 'active') continue;
      let tally = tallies.get(item.webhookId);
      if (!tally) {
        tally = { reset: false, failed: 0, gone: undefined };
        tallies.set(item.webhookId, tally);
      }
      if (decision.kind === 'succeeded') {
        tally.reset = true;
        tally.failed = 0;
      } else {
        tally.failed += 1;
        tally.gone ??= decision.disable;
      }
    }
    for (const [webhookId, tally] of tallies) {
      const inRow = await webhooks.recordFailedEvents(trx, webhookId, tally.reset, tally.failed, at);
      const reason =
        tally.gone ??
        (inRow !== undefined && inRow >= this.options.disableAfterFailedEvents
          ? `${inRow} events in a row failed`
          : undefined);
      if (reason !== undefined && (await webhooks.disableWebhook(trx, webhookId, reason, at))) {
        await deliveries.dropPendingDeliveries(trx, webhookId, 'dropped: webhook disabled', at);
        this.options.logger.warn({ webhookId, reason }, 'webhook disabled');
      }
    }
  }
}
