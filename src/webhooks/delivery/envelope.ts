// The request a delivery sends: the envelope body, byte for byte, and the headers signed over it.
import { toIso } from '../../shared/clock.ts';
import type { EventForSending } from '../../events/outbox.repository.ts';
import { signBody } from './signing.ts';

export const USER_AGENT = 'Tributary-Webhooks/1.0';

/**
 * The envelope `{ id, type, created_at, data }`. `data` is the outbox's JSON text, spliced in
 * as is, so the bytes are fixed by the event and the same on every attempt.
 */
export function envelopeBody(event: EventForSending): Buffer {
  return Buffer.from(
    `{"id":${JSON.stringify(event.id)},"type":${JSON.stringify(event.type)},"created_at":${JSON.stringify(toIso(event.created_at))},"data":${event.data}}`,
  );
}

export function deliveryHeaders(
  secret: string,
  body: Buffer,
  event: Pick<EventForSending, 'id' | 'type'>,
  webhookId: string,
  attempt: number,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-service-signature': signBody(secret, body),
    'x-service-event-id': event.id,
    'x-service-event-type': event.type,
    'x-service-delivery-attempt': String(attempt),
    'x-service-webhook-id': webhookId,
  };
}
