import { toIso } from '../shared/clock.ts';
import type { PublicWebhookRow } from './webhook.repository.ts';
import type { Webhook } from './webhook.schemas.ts';

export function toWebhook(row: PublicWebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    status: row.status,
    created_at: toIso(row.created_at),
  };
}
