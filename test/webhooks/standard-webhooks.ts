// What a receiver does with a delivery, written with the receiver's own tools and not the
// service's code: the `standardwebhooks` package (the library receivers are told to use) for
// the webhook-* headers, node:crypto for X-Service-Signature.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { mock } from 'node:test';
import { Webhook } from 'standardwebhooks';
import type { ReceivedRequest } from '../helpers/https-receiver.ts';

export const TOLERANCE_MS = 5 * 60 * 1000;

export function headersOf(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (typeof value === 'string') flat[name] = value;
  return flat;
}

/**
 * `new Webhook(secret).verify(body, headers)` as a receiver whose clock reads `atMs` would run
 * it: the package compares the timestamp with Date.now(), which is set for this synchronous
 * call only. Returns the parsed body, or the error the package threw.
 */
export function verifyAt(
  secret: string,
  request: ReceivedRequest,
  atMs: number,
  body = request.rawBody,
): unknown {
  mock.timers.enable({ apis: ['Date'], now: atMs });
  try {
    return new Webhook(secret).verify(body.toString('utf8'), headersOf(request.headers));
  } catch (error) {
    return error;
  } finally {
    mock.timers.reset();
  }
}

/** The package's verdict, as a receiver whose clock reads `atMs`. */
export function verifiesAt(secret: string, request: ReceivedRequest, atMs: number): boolean {
  return !(verifyAt(secret, request, atMs) instanceof Error);
}

/** X-Service-Signature (or another hex header) checked over the raw bytes, in constant time. */
export function serviceSignatureValid(
  secret: string,
  request: ReceivedRequest,
  header = 'x-service-signature',
): boolean {
  const expected = createHmac('sha256', secret).update(request.rawBody).digest();
  const presented = Buffer.from(String(request.headers[header] ?? ''), 'hex');
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

/** The `v1,<base64>` entries of webhook-signature. */
export function signatureEntries(request: ReceivedRequest): string[] {
  return String(request.headers['webhook-signature'] ?? '').split(' ');
}
