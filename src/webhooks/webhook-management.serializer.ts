import { toIso } from '../shared/clock.ts';
import { attemptErrorKind } from './delivery/error-kind.ts';
import type { DeliveryDetail as DeliveryDetailRow } from './webhook-management.service.ts';
import type { DeliveryLogRow } from './management.repository.ts';
import type { WebhookRecoveryRow } from './recovery.table.ts';
import type { DeliveryDetail, DeliverySummary, Recovery } from './webhook-management.schemas.ts';

export function toDeliverySummary(row: DeliveryLogRow): DeliverySummary {
  return {
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempt_count: row.attempt_count,
    next_attempt_at: row.status === 'pending' ? toIso(row.next_attempt_at) : null,
    last_attempt_at: toIso(row.last_attempt_at),
    created_at: toIso(row.created_at),
  };
}

export function toDeliveryDetail({ delivery, attempts }: DeliveryDetailRow): DeliveryDetail {
  return {
    ...toDeliverySummary(delivery),
    attempts: attempts.map((attempt) => ({
      attempt: attempt.attempt_number,
      started_at: toIso(attempt.started_at),
      duration_ms: attempt.latency_ms,
      status_code: attempt.status_code,
      error: attempt.error === null ? null : attemptErrorKind(attempt.error),
      response_body: attempt.response_excerpt,
    })),
  };
}

export function toRecovery(row: WebhookRecoveryRow): Recovery {
  return {
    id: row.id,
    webhook_id: row.webhook_id,
    since: toIso(row.since),
    until: toIso(row.until),
    status: row.status,
    events_queued: row.events_queued,
    created_at: toIso(row.created_at),
  };
}
