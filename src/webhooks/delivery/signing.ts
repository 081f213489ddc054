import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-service-signature';

const SECRET_PREFIX = 'whsec_';

/**
 * A webhook secret made ready to sign with, once per secret rather than per delivery: the two
 * schemes key their HMACs differently.
 */
export interface SigningKey {
  /** X-Service-Signature: the utf-8 bytes of the whole `whsec_...` string. */
  readonly service: KeyObject;
  /** Standard Webhooks: the base64-decoded part after `whsec_` (24 bytes for our secrets). */
  readonly standard: KeyObject;
}

export function signingKey(secret: string): SigningKey {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return {
    service: createSecretKey(Buffer.from(secret, 'utf8')),
    standard: createSecretKey(Buffer.from(encoded, 'base64')),
  };
}

/** Hex HMAC-SHA256 of the exact body bytes sent, keyed by the webhook's secret. */
export function signBody(secret: string | KeyObject, body: Buffer | string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** What a receiver does: recompute over the raw body and compare in constant time. */
export function verifySignature(secret: string, body: Buffer | string, signature: string): boolean {
  const expected = Buffer.from(signBody(secret, body), 'hex');
  const presented = Buffer.from(signature, 'hex');
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

/**
 * One `webhook-signature` entry (Standard Webhooks): `v1,` and the base64 HMAC-SHA256 of
 * `{id}.{timestamp}.{body}`. The prefix goes into the HMAC as text and the body as its bytes,
 * so the body is not copied.
 */
export function signStandard(key: KeyObject, id: string, timestampSeconds: number, body: Buffer): string {
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.`).update(body).digest('base64')}`;
}
