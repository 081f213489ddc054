import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-service-signature';

/** Hex HMAC-SHA256 of the exact body bytes sent, keyed by the webhook's secret. */
export function signBody(secret: string, body: Buffer | string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** What a receiver does: recompute over the raw body and compare in constant time. */
export function verifySignature(secret: string, body: Buffer | string, signature: string): boolean {
  const expected = Buffer.from(signBody(secret, body), 'hex');
  const presented = Buffer.from(signature, 'hex');
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}
