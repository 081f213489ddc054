// Runs recoveries (POST /v1/webhooks/{id}/recover) a batch of events at a time. Each batch is
// one transaction that also moves the recovery's position past the batch, so every event of
// the window is considered exactly once per recovery, even if workers stop or several run.
import type { Db } from '../../db/database.ts';
import { newTimeOrderedId } from '../../shared/ids.ts';
import { subscribersOf } from './fan-out.ts';
import * as recoveries from './recovery.repository.ts';

const EVENTS_PER_STEP = 500;

/**
 * One batch of the oldest running recovery. Queues again each event of the window, oldest
 * first, that the webhook subscribes to and did not receive: its delivery failed or still
 * waits, or was never made (the webhook was disabled then). Events older than the webhook are
 * not its own. Returns true when it did something, so the worker comes back at once.
 *
 * The queued deliveries fall due one millisecond apart from the window's start, in the events'
 * order: already due, ahead of newer work, and claimed oldest first.
 */
export async function runRecoveryStep(db: Db, now: number): Promise<boolean> {
  if (!(await recoveries.hasRunningRecovery(db))) return false;
  return db.transaction().execute(async (trx) => {
    const recovery = await recoveries.claimRunningRecovery(trx, now);
    if (!recovery) return false;
    const webhook = await recoveries.findRecoveringWebhook(trx, recovery.webhook_id);
    if (!webhook) return false;
    const from = Math.max(recovery.since, webhook.created_at);
    const events = await recoveries.findWindowEvents(trx, {
      accountId: webhook.account_id,
      from,
      until: recovery.until,
      after:
        recovery.after_created_at === null || recovery.after_event_id === null
          ? undefined
          : { createdAt: recovery.after_created_at, id: recovery.after_event_id },
      limit: EVENTS_PER_STEP,
    });
    const wanted = events.filter((event) => subscribersOf(event, [webhook]).length > 0);
    const existing = await recoveries.findDeliveriesOfEvents(
      trx,
      webhook.id,
      wanted.map((event) => event.id),
    );
    let queued = 0;
    for (const event of wanted) {
      const delivery = existing.get(event.id);
      // Delivered, or being sent right now: nothing is missing.
      if (delivery?.status === 'succeeded' || delivery?.status === 'sending') continue;
      const dueAt = from + recovery.events_queued + queued;
      const done = delivery
        ? await recoveries.requeueDelivery(trx, delivery.id, dueAt, now)
        : await recoveries.insertRecoveredDelivery(trx, {
            id: newTimeOrderedId('dlv'),
            event_id: event.id,
            webhook_id: webhook.id,
            dueAt,
            at: now,
          });
      if (done) queued += 1;
    }
    const last = events.at(-1);
    await recoveries.recordRecoveryProgress(trx, recovery.id, {
      queued,
      after: last === undefined ? undefined : { createdAt: last.created_at, id: last.id },
      done: events.length < EVENTS_PER_STEP,
      at: now,
    });
    return true;
  });
}
