// Tributary.webhooks.verify: the Standard Webhooks scheme and the legacy X-Service-Signature,
// with signatures made here independently with node:crypto, as the contract describes them.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import { timingSafeEqual, Tributary, WebhookVerificationError, type WebhookEvent } from '@tributary/sdk';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const PREVIOUS = 'whsec_3c9mYWtQxVbZ0pTfU7aL2nE5rK8sJd1H';
const OTHER = 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const NOW = Date.parse('2026-11-23T12:00:00Z');
const NOW_S = NOW / 1000;
const EVENT = {
  id: 'evt_2Zr4kQ8mN1pX7sT3vW9yB0',
  type: 'ping',
  created_at: '2026-11-23T11:59:59.000Z',
  data: { webhook_id: 'wh_4Ht6Jk8Lm0Np2Qr4St6Uv8' },
};
const BODY = JSON.stringify(EVENT);

function standardSignature(
  secret: string,
  id: string,
  timestamp: number | string,
  body: string | Buffer,
): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
  return `v1,${mac}`;
}

function standardHeaders(signature: string, timestamp = NOW_S, id = EVENT.id): Record<string, string> {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
}

function legacySignature(secret: string, body: string | Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

const at = { now: () => NOW };

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => assert.fail('verify accepted it'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof WebhookVerificationError, String(error));
  return error.code;
}

describe('verify: Standard Webhooks', () => {
  test('a valid delivery returns the typed event', async () => {
    const headers = standardHeaders(standardSignature(SECRET, EVENT.id, NOW_S, BODY));
    const event: WebhookEvent = await Tributary.webhooks.verify(BODY, headers, SECRET, at);
    assert.deepEqual(event, EVENT);
    assert.equal(event.type, 'ping');
    // Narrowed by type: data is a ping's.
    assert.equal(event.data.webhook_id, EVENT.data.webhook_id);
  });

  test('the body may be a Buffer, a Uint8Array or an ArrayBuffer; headers a Headers or any-case object', async () => {
    const signature = standardSignature(SECRET, EVENT.id, NOW_S, BODY);
    const bytes = Buffer.from(BODY);
    const fetchHeaders = new Headers(standardHeaders(signature));
    const shouting = {
      'Webhook-Id': EVENT.id,
      'WEBHOOK-TIMESTAMP': String(NOW_S),
      'Webhook-Signature': signature,
    };
    assert.deepEqual(await Tributary.webhooks.verify(bytes, fetchHeaders, SECRET, at), EVENT);
    assert.deepEqual(await Tributary.webhooks.verify(new Uint8Array(bytes), shouting, SECRET, at), EVENT);
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
    assert.deepEqual(await Tributary.webhooks.verify(buffer, shouting, SECRET, at), EVENT);
  });

  test('a wrong secret is refused', async () => {
    const headers = standardHeaders(standardSignature(SECRET, EVENT.id, NOW_S, BODY));
    assert.equal(await refusal(Tributary.webhooks.verify(BODY, headers, OTHER, at)), 'signature_mismatch');
  });

  test('one changed byte of the body, the id or the timestamp is refused', async () => {
    const signature = standardSignature(SECRET, EVENT.id, NOW_S, BODY);
    const changed = BODY.replace('"ping"', '"pong"');
    assert.equal(changed.length, BODY.length);
    assert.equal(
      await refusal(Tributary.webhooks.verify(changed, standardHeaders(signature), SECRET, at)),
      'signature_mismatch',
    );
    assert.equal(
      await refusal(
        Tributary.webhooks.verify(BODY, standardHeaders(signature, NOW_S, 'evt_other'), SECRET, at),
      ),
      'signature_mismatch',
    );
    assert.equal(
      await refusal(Tributary.webhooks.verify(BODY, standardHeaders(signature, NOW_S - 1), SECRET, at)),
      'signature_mismatch',
    );
    // A signature with one bit flipped.
    const mac = Buffer.from(signature.slice(3), 'base64');
    mac[31] = (mac[31] ?? 0) ^ 1;
    assert.equal(
      await refusal(
        Tributary.webhooks.verify(BODY, standardHeaders(`v1,${mac.toString('base64')}`), SECRET, at),
      ),
      'signature_mismatch',
    );
  });

  test('too old and too new are refused past 5 minutes; the tolerance is configurable', async () => {
    const signedAt = (seconds: number) =>
      standardHeaders(standardSignature(SECRET, EVENT.id, seconds, BODY), seconds);
    assert.deepEqual(await Tributary.webhooks.verify(BODY, signedAt(NOW_S - 300), SECRET, at), EVENT);
    assert.deepEqual(await Tributary.webhooks.verify(BODY, signedAt(NOW_S + 300), SECRET, at), EVENT);
    assert.equal(
      await refusal(Tributary.webhooks.verify(BODY, signedAt(NOW_S - 301), SECRET, at)),
      'timestamp_too_old',
    );
    assert.equal(
      await refusal(Tributary.webhooks.verify(BODY, signedAt(NOW_S + 301), SECRET, at)),
      'timestamp_too_new',
    );
    const lenient = { ...at, toleranceSeconds: 3600 };
    assert.deepEqual(await Tributary.webhooks.verify(BODY, signedAt(NOW_S - 3000), SECRET, lenient), EVENT);
    const strict = { ...at, toleranceSeconds: 10 };
    assert.equal(
      await refusal(Tributary.webhooks.verify(BODY, signedAt(NOW_S - 11), SECRET, strict)),
      'timestamp_too_old',
    );
    // Without `now`, the real clock: a delivery signed a day ago is refused.
    assert.equal(
      await refusal(
        Tributary.webhooks.verify(BODY, signedAt(Math.floor(Date.now() / 1000) - 86_400), SECRET),
      ),
      'timestamp_too_old',
    );
    // Signed, but not Unix seconds.
    const odd = {
      ...standardHeaders(standardSignature(SECRET, EVENT.id, '12e8', BODY)),
      'webhook-timestamp': '12e8',
    };
    assert.equal(await refusal(Tributary.webhooks.verify(BODY, odd, SECRET, at)), 'timestamp_invalid');
  });

  test('several entries: any v1 entry that matches is enough; other versions are ignored', async () => {
    const valid = standardSignature(SECRET, EVENT.id, NOW_S, BODY);
    const other = standardSignature(OTHER, EVENT.id, NOW_S, BODY);
    for (const header of [`${other} ${valid}`, `${valid} ${other}`, `v1,not-base64!! ${valid}`]) {
      assert.deepEqual(await Tributary.webhooks.verify(BODY, standardHeaders(header), SECRET, at), EVENT);
    }
    assert.equal(
      await refusal(
        Tributary.webhooks.verify(BODY, standardHeaders(`v2,${valid.slice(3)} ${other}`), SECRET, at),
      ),
      'signature_mismatch',
    );
  });

  test('rotation: two entries, new and previous; a receiver with either secret (or both) accepts', async () => {
    const header = `${standardSignature(SECRET, EVENT.id, NOW_S, BODY)} ${standardSignature(PREVIOUS, EVENT.id, NOW_S, BODY)}`;
    const headers = standardHeaders(header);
    assert.deepEqual(await Tributary.webhooks.verify(BODY, headers, SECRET, at), EVENT);
    assert.deepEqual(await Tributary.webhooks.verify(BODY, headers, PREVIOUS, at), EVENT);
    assert.deepEqual(await Tributary.webhooks.verify(BODY, headers, [OTHER, PREVIOUS], at), EVENT);
    assert.equal(await refusal(Tributary.webhooks.verify(BODY, headers, OTHER, at)), 'signature_mismatch');
  });

  test('a webhook-signature with no webhook-id or timestamp, or no signature at all, is refused', async () => {
    const signature = standardSignature(SECRET, EVENT.id, NOW_S, BODY);
    assert.equal(
      await refusal(Tributary.webhooks.verify(BODY, { 'webhook-signature': signature }, SECRET, at)),
      'signature_missing',
    );
    assert.equal(await refusal(Tributary.webhooks.verify(BODY, {}, SECRET, at)), 'signature_missing');
  });

  test('a signed body that is not an event envelope is refused', async () => {
    for (const body of ['not json', '[1,2]', '{"id":"evt_1","type":"ping"}']) {
      const headers = standardHeaders(standardSignature(SECRET, EVENT.id, NOW_S, body));
      assert.equal(await refusal(Tributary.webhooks.verify(body, headers, SECRET, at)), 'payload_invalid');
    }
  });

  test('a standard signature is checked alone: a valid legacy header does not rescue a bad one', async () => {
    const headers = {
      ...standardHeaders(standardSignature(OTHER, EVENT.id, NOW_S, BODY)),
      'x-service-signature': legacySignature(SECRET, BODY),
    };
    assert.equal(await refusal(Tributary.webhooks.verify(BODY, headers, SECRET, at)), 'signature_mismatch');
  });
});

describe('verify: legacy X-Service-Signature', () => {
  test('hex HMAC of the body keyed with the secret text; the previous header after a rotation', async () => {
    const headers = { 'x-service-signature': legacySignature(SECRET, BODY) };
    assert.deepEqual(await Tributary.webhooks.verify(BODY, headers, SECRET), EVENT);
    assert.equal(await refusal(Tributary.webhooks.verify(BODY, headers, OTHER)), 'signature_mismatch');
    assert.equal(await refusal(Tributary.webhooks.verify(`${BODY} `, headers, SECRET)), 'signature_mismatch');

    const rotated = {
      'x-service-signature': legacySignature(SECRET, BODY),
      'x-service-signature-previous': legacySignature(PREVIOUS, BODY),
    };
    assert.deepEqual(await Tributary.webhooks.verify(BODY, rotated, PREVIOUS), EVENT);
    assert.equal(await refusal(Tributary.webhooks.verify(BODY, rotated, OTHER)), 'signature_mismatch');
  });

  test('legacy: false refuses a delivery signed only the legacy way', async () => {
    const headers = { 'x-service-signature': legacySignature(SECRET, BODY) };
    assert.equal(
      await refusal(Tributary.webhooks.verify(BODY, headers, SECRET, { legacy: false })),
      'legacy_signature_refused',
    );
  });
});

describe('timingSafeEqual', () => {
  test('equal only for the same bytes; reads every byte whatever the first difference', () => {
    const a = new Uint8Array(32).fill(7);
    assert.equal(timingSafeEqual(a, new Uint8Array(32).fill(7)), true);
    assert.equal(timingSafeEqual(a, new Uint8Array(31).fill(7)), false);
    for (const position of [0, 15, 31]) {
      const b = new Uint8Array(32).fill(7);
      b[position] = 8;
      let reads = 0;
      const counted = new Proxy(b, {
        get(target, property) {
          if (typeof property === 'string' && /^\d+$/.test(property)) reads++;
          const value: unknown = Reflect.get(target, property, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      assert.equal(timingSafeEqual(a, counted), false);
      assert.equal(reads, 32, `a difference at byte ${position} still reads all 32 bytes`);
    }
  });
});
