// The request a delivery sends: the envelope body, byte for byte, and the headers signed over it.
import { toIso } from '../../shared/clock.ts';
import type { EventForSending } from '../../events/outbox.repository.ts';
import type { WebhookSigningKeys } from './secret-cache.ts';
import { signBody, signStandard } from './signing.ts';

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

/**
 * The headers of one attempt. The X-Service-* ones are as they always were; the `webhook-*`
 * ones follow Standard Webhooks (https://www.standardwebhooks.com), so receivers can verify with
 * its libraries. While a rotated-out secret lasts, both schemes carry a signature with each
 * secret, the current one first.
 */
export function deliveryHeaders(
  keys: WebhookSigningKeys,
  body: Buffer,
  event: Pick<EventForSending, 'id' | 'type'>,
  webhookId: string,
  attempt: number,
  timestampSeconds: number,
): Record<string, string> {
  const { current, previous } = keys;
  let standardSignature = signStandard(current.standard, event.id, timestampSeconds, body);
  if (previous) {
    standardSignature += ` ${signStandard(previous.standard, event.id, timestampSeconds, body)}`;
  }
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-service-signature': signBody(current.service, body),
    'x-service-event-id': event.id,
    'x-service-event-type': event.type,
    'x-service-delivery-attempt': String(attempt),
    'x-service-webhook-id': webhookId,
    'webhook-id': event.id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': standardSignature,
  };
  if (previous) headers['x-service-signature-previous'] = signBody(previous.service, body);
  return headers;
}
