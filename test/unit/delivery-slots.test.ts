// The delivery worker's bookkeeping: slots overall and per webhook, attempts to abort when a
// webhook is deleted, and the cache of opened signing secrets.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SecretBox } from '../../src/shared/secret-box.ts';
import { AttemptAborts } from '../../src/webhooks/delivery/attempt-aborts.ts';
import { KeyedLimiter } from '../../src/webhooks/delivery/keyed-limiter.ts';
import { SecretCache } from '../../src/webhooks/delivery/secret-cache.ts';
import { signBody, signingKey, signStandard, type SigningKey } from '../../src/webhooks/delivery/signing.ts';

describe('keyed limiter', () => {
  test('a key gets at most its share, and the overall limit bounds every share', () => {
    const slots = new KeyedLimiter<string>(5, 3);
    assert.equal(slots.freeFor('a'), 3);
    for (let i = 0; i < 3; i++) slots.occupy('a');
    assert.equal(slots.freeFor('a'), 0);
    assert.deepEqual(slots.fullKeys(), ['a'], 'a claim skips a webhook at its limit');
    assert.throws(() => {
      slots.occupy('a');
    }, /no free slot/);
    assert.equal(slots.free, 2);
    assert.equal(slots.freeFor('b'), 2, 'bounded by what is left overall, not by its own share');
    slots.occupy('b');
    slots.occupy('b');
    assert.equal(slots.free, 0);
    assert.equal(slots.freeFor('c'), 0);
    assert.throws(() => {
      slots.occupy('c');
    }, /no free slot/);
  });

  test('releasing gives the slot back to the key and to everyone', () => {
    const slots = new KeyedLimiter<string>(4, 2);
    slots.occupy('a');
    slots.occupy('a');
    slots.occupy('b');
    assert.equal(slots.release('a'), 1);
    assert.deepEqual(slots.fullKeys(), []);
    assert.equal(slots.freeFor('a'), 1);
    assert.equal(slots.free, 2);
    assert.equal(slots.release('a'), 0);
    assert.equal(slots.inUseBy('a'), 0);
    assert.throws(() => slots.release('a'), /holds no slot/, 'a slot is never released twice');
    assert.equal(slots.free, 3);
  });

  test('limits must be positive integers', () => {
    assert.throws(() => new KeyedLimiter(0, 1), RangeError);
    assert.throws(() => new KeyedLimiter(1, 0), RangeError);
    assert.throws(() => new KeyedLimiter(1.5, 1), RangeError);
  });
});

describe('attempt aborts', () => {
  test('removing a webhook aborts its attempts in flight and no other webhook’s', () => {
    const aborts = new AttemptAborts();
    const first = aborts.track('wh_a');
    const second = aborts.track('wh_a');
    const other = aborts.track('wh_b');
    aborts.untrack('wh_a', second);
    aborts.remove('wh_a');
    assert.equal(first.signal.aborted, true);
    assert.equal(second.signal.aborted, false, 'an attempt that already ended is left alone');
    assert.equal(other.signal.aborted, false);
    assert.equal(aborts.isRemoved('wh_a'), true);
    assert.equal(aborts.isRemoved('wh_b'), false);
    aborts.untrack('wh_a', first);
    aborts.untrack('wh_b', other);
    assert.equal(aborts.inFlight, 0);
  });

  test('removed webhooks are remembered up to a bound, the oldest forgotten first', () => {
    const aborts = new AttemptAborts();
    aborts.remove('wh_old');
    for (let i = 0; i < 9_999; i++) aborts.remove(`wh_${i}`);
    assert.equal(aborts.isRemoved('wh_old'), true, '10,000 are kept');
    aborts.remove('wh_new');
    assert.equal(aborts.isRemoved('wh_old'), false);
    assert.equal(aborts.isRemoved('wh_0'), true, 'a burst forgets only the oldest, not all');
    assert.equal(aborts.isRemoved('wh_new'), true);
  });
});

describe('secret cache', () => {
  class CountingBox extends SecretBox {
    opened = 0;
    override open(box: string, boundTo: string): string {
      this.opened += 1;
      return super.open(box, boundTo);
    }
  }
  const secretA = 'whsec_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
  const secretA2 = 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA2';
  const secretA3 = 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA3';
  /** Which secrets the keys are: compared by what they sign, as the worker uses them. */
  const signsAs = (key: SigningKey | undefined) => (key ? signBody(key.service, 'probe') : undefined);
  const as = (secret: string) => signBody(secret, 'probe');
  const sealedOf = (
    box: SecretBox,
    id: string,
    secret: string,
    previous?: { secret: string; expiresAt: number },
  ) => ({
    id,
    secret_ciphertext: box.seal(secret, id),
    previous_secret_ciphertext: previous ? box.seal(previous.secret, id) : null,
    previous_secret_expires_at: previous ? previous.expiresAt : null,
  });

  test('a secret is opened once per webhook, and again when its ciphertext changes', () => {
    const box = new CountingBox(Buffer.alloc(32, 1));
    const cache = new SecretCache(box, 2);
    const a = sealedOf(box, 'wh_a', secretA);
    const b = sealedOf(box, 'wh_b', 'whsec_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb');
    const c = sealedOf(box, 'wh_c', 'whsec_cccccccccccccccccccccccccccccccc');
    assert.equal(signsAs(cache.keysAt(a, 0).current), as(secretA));
    assert.equal(signsAs(cache.keysAt(a, 0).current), as(secretA));
    assert.equal(box.opened, 1);
    const changed = sealedOf(box, 'wh_a', secretA2);
    assert.equal(signsAs(cache.keysAt(changed, 0).current), as(secretA2));
    assert.equal(box.opened, 2);
    cache.keysAt(b, 0);
    cache.keysAt(changed, 0); // a is now the most recently used
    cache.keysAt(c, 0); // over capacity: b, the least recently used, goes
    assert.equal(box.opened, 4);
    cache.keysAt(changed, 0);
    assert.equal(box.opened, 4, 'a stayed');
    cache.keysAt(b, 0);
    assert.equal(box.opened, 5, 'b was forgotten');
  });

  test('after a rotation the previous secret signs too until it expires, and only the new one is opened', () => {
    const box = new CountingBox(Buffer.alloc(32, 1));
    const cache = new SecretCache(box);
    const before = sealedOf(box, 'wh_a', secretA);
    assert.equal(cache.keysAt(before, 1000).previous, undefined);
    assert.equal(box.opened, 1);
    // What the rotation's UPDATE does: the current ciphertext moves to the previous column.
    const rotated = {
      ...before,
      secret_ciphertext: box.seal(secretA2, 'wh_a'),
      previous_secret_ciphertext: before.secret_ciphertext,
      previous_secret_expires_at: 5000,
    };
    const during = cache.keysAt(rotated, 4999);
    assert.equal(signsAs(during.current), as(secretA2));
    assert.equal(signsAs(during.previous), as(secretA));
    assert.equal(box.opened, 2, 'the previous key was kept from before');
    const after = cache.keysAt(rotated, 5000);
    assert.equal(signsAs(after.current), as(secretA2));
    assert.equal(after.previous, undefined, 'expired at its time exactly');
    assert.equal(box.opened, 2);
    // Rotating again: the newest becomes the previous one, the oldest is gone.
    const again = {
      ...rotated,
      secret_ciphertext: box.seal(secretA3, 'wh_a'),
      previous_secret_ciphertext: rotated.secret_ciphertext,
      previous_secret_expires_at: 9000,
    };
    const twice = cache.keysAt(again, 6000);
    assert.equal(signsAs(twice.current), as(secretA3));
    assert.equal(signsAs(twice.previous), as(secretA2));
    assert.equal(box.opened, 3);
  });

  test('the Standard Webhooks key is the base64 decoding of the secret after whsec_', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = Buffer.from('{"test": 2432232314}');
    const key = signingKey(secret);
    // The example in the Standard Webhooks specification's test vectors.
    assert.equal(
      signStandard(key.standard, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body),
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
    assert.equal(signBody(key.service, body), signBody(secret, body));
  });
});
