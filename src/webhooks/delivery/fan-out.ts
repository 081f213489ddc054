// Fan-out: turns outbox events into one delivery row per subscribed webhook of the event's
// account, and marks the events dispatched, in one transaction.
import type { Db } from '../../db/database.ts';
import * as outbox from '../../events/outbox.repository.ts';
import { newTimeOrderedId } from '../../shared/ids.ts';
import * as deliveries from './delivery.repository.ts';
import { findActiveWebhooksOf } from '../webhook.repository.ts';

const EVENTS_PER_PASS = 500;

interface Subscriber {
  id: string;
  account_id: string;
  events: string;
}

/** Which webhooks hear an event: `ping` only the webhook it was made for; others by filter. */
export function subscribersOf(event: outbox.PendingEvent, webhooks: readonly Subscriber[]): string[] {
  if (event.type === 'ping') {
    const { webhook_id: target } = JSON.parse(event.data) as { webhook_id?: string };
    return webhooks.filter((webhook) => webhook.id === target).map((webhook) => webhook.id);
  }
  return webhooks
    .filter((webhook) => webhook.account_id === event.account_id)
    .filter((webhook) => {
      const filter = JSON.parse(webhook.events) as string[];
      return filter.includes('*') || filter.includes(event.type);
    })
    .map((webhook) => webhook.id);
}

/** One pass over at most EVENTS_PER_PASS events; returns how many it dispatched. */
export async function fanOutOnce(db: Db, now: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const events = await outbox.lockUndispatchedEvents(trx, EVENTS_PER_PASS);
    if (events.length === 0) return 0;
    const accounts = [...new Set(events.map((event) => event.account_id))];
    const webhooks = await findActiveWebhooksOf(trx, accounts);
    const rows = events.flatMap((event) =>
      subscribersOf(event, webhooks).map((webhookId) => ({
        id: newTimeOrderedId('dlv'),
        event_id: event.id,
        webhook_id: webhookId,
      })),
    );
    await deliveries.insertDeliveries(trx, rows, now);
    await outbox.markEventsDispatched(
      trx,
      events.map((event) => event.id),
      now,
    );
    return events.length;
  });
}

export async function fanOutAll(db: Db, now: () => number): Promise<number> {
  let total = 0;
  for (;;) {
    const dispatched = await fanOutOnce(db, now());
    total += dispatched;
    if (dispatched < EVENTS_PER_PASS) return total;
  }
}
