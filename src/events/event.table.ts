import type { Selectable } from 'kysely';
import type { EventType } from './event-types.ts';

/** The outbox: one row per event, written in the same transaction as the change it reports. */
export interface EventTable {
  id: string;
  type: EventType;
  /** The account whose webhooks receive the event (the resource's owner). */
  account_id: string;
  created_at: number;
  /** The envelope's `data`, as JSON text. */
  data: string;
  /** Set once deliveries have been created for the event's webhooks. */
  dispatched_at: number | null;
}

export type EventRow = Selectable<EventTable>;
