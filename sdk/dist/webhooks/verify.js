// Checks that a delivery came from the service, before anything acts on it, and returns its
// event. Two schemes, as the service signs every delivery with both:
// - Standard Webhooks: `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`
//   keyed with the base64-decoded secret, one entry per secret in use (two after a rotation),
//   and a timestamp that must be within the tolerance, so an old delivery cannot be replayed;
// - the legacy `X-Service-Signature`: hex HMAC-SHA256 of the body keyed with the secret's text,
//   which has no timestamp (`X-Service-Signature-Previous` carries the previous secret's after a
//   rotation). Used only when the delivery has no `webhook-signature`; `legacy: false` refuses it.
// Web Crypto only, so the same code runs in browsers, edge runtimes and Node.
import { webCrypto } from '../crypto.js';
import { WebhookVerificationError } from '../errors.js';
export const DEFAULT_TOLERANCE_SECONDS = 300;
/**
 * Verifies a delivery and returns its event. `rawBody` must be the exact bytes received (not
 * re-serialized JSON); `secret` is the webhook's `whsec_...` secret, or several (say, the new
 * and the previous one while a rotation settles). Throws WebhookVerificationError, whose `code`
 * says why: `signature_missing`, `signature_mismatch`, `timestamp_invalid`, `timestamp_too_old`,
 * `timestamp_too_new`, `legacy_signature_refused`, `payload_invalid`.
 */
export async function verifyWebhook(rawBody, headers, secret, options = {}) {
    const secrets = typeof secret === 'string' ? [secret] : [...secret];
    if (secrets.length === 0 || secrets.some((s) => typeof s !== 'string' || s.length === 0)) {
        throw new TypeError('verify: a webhook secret is required');
    }
    const body = toBytes(rawBody);
    const standard = headerOf(headers, 'webhook-signature');
    if (standard !== undefined) {
        await verifyStandard(body, headers, standard, secrets, options);
    }
    else {
        const legacy = headerOf(headers, 'x-service-signature');
        if (legacy === undefined) {
            throw new WebhookVerificationError('The delivery carries no signature header.', 'signature_missing');
        }
        if (options.legacy === false) {
            throw new WebhookVerificationError('The delivery is signed only with X-Service-Signature, which this receiver refuses.', 'legacy_signature_refused');
        }
        const previous = headerOf(headers, 'x-service-signature-previous');
        await verifyLegacy(body, previous === undefined ? [legacy] : [legacy, previous], secrets);
    }
    return parseEvent(body);
}
async function verifyStandard(body, headers, signatureHeader, secrets, options) {
    const id = headerOf(headers, 'webhook-id');
    const timestamp = headerOf(headers, 'webhook-timestamp');
    if (id === undefined || timestamp === undefined) {
        throw new WebhookVerificationError('webhook-signature needs webhook-id and webhook-timestamp.', 'signature_missing');
    }
    const presented = signatureHeader
        .split(' ')
        .filter((entry) => entry.startsWith('v1,'))
        .map((entry) => base64ToBytes(entry.slice(3)))
        .filter((bytes) => bytes !== undefined);
    const signed = concat(utf8(`${id}.${timestamp}.`), body);
    let matched = false;
    for (const secret of secrets) {
        const key = base64ToBytes(secret.startsWith('whsec_') ? secret.slice(6) : secret);
        if (key === undefined || key.length === 0)
            throw new TypeError('verify: the secret is not a whsec_ secret');
        const expected = await hmac(key, signed);
        for (const signature of presented)
            matched = timingSafeEqual(expected, signature) || matched;
    }
    if (!matched) {
        throw new WebhookVerificationError('No webhook-signature entry matches the secret.', 'signature_mismatch');
    }
    // Checked after the signature, which covers the timestamp: only the sender can set it.
    if (!/^\d{1,15}$/.test(timestamp)) {
        throw new WebhookVerificationError('webhook-timestamp is not Unix seconds.', 'timestamp_invalid');
    }
    const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
    const now = Math.floor((options.now ?? Date.now)() / 1000);
    const age = now - Number(timestamp);
    if (age > tolerance) {
        throw new WebhookVerificationError(`The delivery was signed ${age} s ago, more than the ${tolerance} s allowed.`, 'timestamp_too_old');
    }
    if (-age > tolerance) {
        throw new WebhookVerificationError(`The delivery's timestamp is ${-age} s in the future, more than the ${tolerance} s allowed.`, 'timestamp_too_new');
    }
}
async function verifyLegacy(body, signatures, secrets) {
    const presented = signatures
        .map((signature) => hexToBytes(signature.trim()))
        .filter((bytes) => bytes !== undefined);
    let matched = false;
    for (const secret of secrets) {
        const expected = await hmac(utf8(secret), body);
        for (const signature of presented)
            matched = timingSafeEqual(expected, signature) || matched;
    }
    if (!matched) {
        throw new WebhookVerificationError('X-Service-Signature does not match the secret.', 'signature_mismatch');
    }
}
function parseEvent(body) {
    let event;
    try {
        event = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
    }
    catch {
        throw new WebhookVerificationError('The delivery body is not JSON.', 'payload_invalid');
    }
    const envelope = event;
    if (typeof envelope !== 'object' ||
        envelope === null ||
        typeof envelope.id !== 'string' ||
        typeof envelope.type !== 'string' ||
        typeof envelope.created_at !== 'string' ||
        typeof envelope.data !== 'object' ||
        envelope.data === null) {
        throw new WebhookVerificationError('The delivery body is not an event envelope.', 'payload_invalid');
    }
    return event;
}
/**
 * Compares two byte strings in time that depends only on their lengths (which are public: a
 * SHA-256 MAC is 32 bytes), never on where they first differ.
 */
export function timingSafeEqual(a, b) {
    if (a.length !== b.length)
        return false;
    let difference = 0;
    for (let i = 0; i < a.length; i++)
        difference |= (a[i] ?? 0) ^ (b[i] ?? 0);
    return difference === 0;
}
async function hmac(key, data) {
    const { subtle } = await webCrypto();
    const cryptoKey = await subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return new Uint8Array(await subtle.sign('HMAC', cryptoKey, data));
}
function headerOf(headers, name) {
    if (typeof headers.get === 'function')
        return headers.get(name) ?? undefined;
    for (const [key, value] of Object.entries(headers)) {
        if (key.toLowerCase() !== name)
            continue;
        if (typeof value === 'string')
            return value;
        if (Array.isArray(value))
            return value.join(' ');
    }
    return undefined;
}
function toBytes(body) {
    if (typeof body === 'string')
        return utf8(body);
    const view = body instanceof ArrayBuffer ? new Uint8Array(body) : body;
    const copy = new Uint8Array(view.length);
    copy.set(view);
    return copy;
}
function utf8(text) {
    return toBytes(new TextEncoder().encode(text));
}
function concat(a, b) {
    const out = new Uint8Array(a.length + b.length);
    out.set(a);
    out.set(b, a.length);
    return out;
}
function base64ToBytes(text) {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text))
        return undefined;
    try {
        const binary = atob(text);
        const bytes = new Uint8Array(binary.length);
        for (let i = 0; i < binary.length; i++)
            bytes[i] = binary.charCodeAt(i);
        return bytes;
    }
    catch {
        return undefined;
    }
}
function hexToBytes(text) {
    if (!/^(?:[0-9a-fA-F]{2})+$/.test(text))
        return undefined;
    const bytes = new Uint8Array(text.length / 2);
    for (let i = 0; i < bytes.length; i++)
        bytes[i] = Number.parseInt(text.slice(i * 2, i * 2 + 2), 16);
    return bytes;
}
