import type { Selectable } from 'kysely';
import type { EventType } from '../events/event-types.ts';

export type WebhookStatus = 'active' | 'disabled';

/** What a webhook subscribes to: event types, or `*` for all current and future ones. */
export type WebhookEventFilter = EventType | '*';

export interface WebhookTable {
  id: string;
  account_id: string;
  url: string;
  /** JSON array of event types, or `["*"]`. */
  events: string;
  /** The signing secret, AES-256-GCM encrypted (see secret-box.ts). Never selected for the API. */
  secret_ciphertext: string;
  /**
   * The secret a rotation replaced, sealed the same way (bound to the webhook's id), and when
   * deliveries stop being signed with it too; both null when there is none.
   */
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: number | null;
  status: WebhookStatus;
  /** Events marked failed in a row with no success in between; reaching the limit disables. */
  consecutive_failed_events: number;
  disabled_reason: string | null;
  created_at: number;
  updated_at: number;
}

/**
 * pending: waiting for `next_attempt_at`; sending: claimed by a worker until `locked_until`;
 * succeeded and failed are final (an operator's retry makes a failed one pending again).
 */
export type DeliveryStatus = 'pending' | 'sending' | 'succeeded' | 'failed';

/** One row per (event, webhook): the envelope id is the event's, on every attempt. */
export interface WebhookDeliveryTable {
  id: string;
  event_id: string;
  webhook_id: string;
  status: DeliveryStatus;
  /** Attempts started so far; the claim counts the attempt it starts. */
  attempt_count: number;
  next_attempt_at: number;
  /** The claim's lease: after this time another worker may take the row over. */
  locked_until: number | null;
  /** Which claim holds the lease, so a worker that lost it cannot record over the new owner. */
  lease_token: string | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

export interface DeliveryAttemptTable {
  delivery_id: string;
  attempt_number: number;
  started_at: number;
  /** Milliseconds from the start of the request to its outcome. */
  latency_ms: number;
  /** The HTTP status, or null when no answer came (timeout, refused, TLS...). */
  status_code: number | null;
  error: string | null;
  /** The first bytes of the response body, as text. */
  response_excerpt: string | null;
}

export type WebhookRow = Selectable<WebhookTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable>;
export type DeliveryAttemptRow = Selectable<DeliveryAttemptTable>;
