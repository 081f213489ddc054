import type { Selectable } from 'kysely';

export type RecoveryStatus = 'running' | 'done';

/** A request to send a webhook again the events of a window whose delivery did not succeed. */
export interface WebhookRecoveryTable {
  id: string;
  webhook_id: string;
  /** The window: events created at or after `since` and before `until`. */
  since: number;
  until: number;
  status: RecoveryStatus;
  /** Events queued for delivery so far. */
  events_queued: number;
  /** The last event handled, so each event is queued at most once per recovery. */
  after_created_at: number | null;
  after_event_id: string | null;
  created_at: number;
  updated_at: number;
}

export type WebhookRecoveryRow = Selectable<WebhookRecoveryTable>;
