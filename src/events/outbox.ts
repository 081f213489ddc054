import type { Db } from '../db/database.ts';
import { newTimeOrderedId } from '../shared/ids.ts';
import type { EventType } from './event-types.ts';
import { announceOutboxWrite } from './outbox-signal.ts';

export interface NewEvent {
  type: EventType;
  /** The account whose webhooks should hear about it. */
  accountId: string;
  at: number;
  data: Record<string, unknown>;
}

/**
 * Records an event in the outbox. Call it with the transaction that makes the change the
 * event reports, so the two are committed together or not at all.
 */
export async function recordEvent(trx: Db, event: NewEvent): Promise<string> {
  const id = newTimeOrderedId('evt');
  await trx
    .insertInto('events')
    .values({
      id,
      type: event.type,
      account_id: event.accountId,
      created_at: event.at,
      data: JSON.stringify(event.data),
      dispatched_at: null,
    })
    .execute();
  await announceOutboxWrite(trx);
  return id;
}
