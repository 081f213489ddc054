// The delivery worker's bookkeeping: slots overall and per webhook, attempts to abort when a
// webhook is deleted, and the cache of opened signing secrets.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SecretBox } from '../../src/shared/secret-box.ts';
import { AttemptAborts } from '../../src/webhooks/delivery/attempt-aborts.ts';
import { KeyedLimiter } from '../../src/webhooks/delivery/keyed-limiter.ts';
import { SecretCache } from '../../src/webhooks/delivery/secret-cache.ts';

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
  test('a secret is opened once per webhook, and again when its ciphertext changes', () => {
    let opened = 0;
    class CountingBox extends SecretBox {
      override open(box: string, boundTo: string): string {
        opened += 1;
        return super.open(box, boundTo);
      }
    }
    const box = new CountingBox(Buffer.alloc(32, 1));
    const cache = new SecretCache(box, 2);
    const a = { id: 'wh_a', secret_ciphertext: box.seal('whsec_a', 'wh_a') };
    const b = { id: 'wh_b', secret_ciphertext: box.seal('whsec_b', 'wh_b') };
    const c = { id: 'wh_c', secret_ciphertext: box.seal('whsec_c', 'wh_c') };
    assert.equal(cache.secretOf(a), 'whsec_a');
    assert.equal(cache.secretOf(a), 'whsec_a');
    assert.equal(opened, 1);
    const rotated = { id: 'wh_a', secret_ciphertext: box.seal('whsec_a2', 'wh_a') };
    assert.equal(cache.secretOf(rotated), 'whsec_a2');
    assert.equal(opened, 2);
    cache.secretOf(b);
    cache.secretOf(rotated); // a is now the most recently used
    cache.secretOf(c); // over capacity: b, the least recently used, goes
    assert.equal(opened, 4);
    cache.secretOf(rotated);
    assert.equal(opened, 4, 'a stayed');
    cache.secretOf(b);
    assert.equal(opened, 5, 'b was forgotten');
  });
});
