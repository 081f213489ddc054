import type { WebhookEvent } from './events.js';
/** A Fetch `Headers`, or a plain object such as Node's `request.headers`. */
export type WebhookHeaders = Headers | Record<string, string | readonly string[] | undefined>;
export interface VerifyOptions {
    /** How far the `webhook-timestamp` may be from now, either way, in seconds (default 300). */
    toleranceSeconds?: number;
    /** Accept a delivery signed only with `X-Service-Signature` (default true). */
    legacy?: boolean;
    /** The current time in milliseconds (default Date.now). */
    now?: () => number;
}
export declare const DEFAULT_TOLERANCE_SECONDS = 300;
/**
 * Verifies a delivery and returns its event. `rawBody` must be the exact bytes received (not
 * re-serialized JSON); `secret` is the webhook's `whsec_...` secret, or several (say, the new
 * and the previous one while a rotation settles). Throws WebhookVerificationError, whose `code`
 * says why: `signature_missing`, `signature_mismatch`, `timestamp_invalid`, `timestamp_too_old`,
 * `timestamp_too_new`, `legacy_signature_refused`, `payload_invalid`.
 */
export declare function verifyWebhook(rawBody: string | Uint8Array | ArrayBuffer, headers: WebhookHeaders, secret: string | readonly string[], options?: VerifyOptions): Promise<WebhookEvent>;
/**
 * Compares two byte strings in time that depends only on their lengths (which are public: a
 * SHA-256 MAC is 32 bytes), never on where they first differ.
 */
export declare function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
