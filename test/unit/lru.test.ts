import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LruCache } from '../../src/shared/lru.ts';

test('a full cache forgets the least recently used entry, not every entry', () => {
  const cache = new LruCache<string, number>(3);
  cache.set('a', 1);
  cache.set('b', 2);
  cache.set('c', 3);
  assert.equal(cache.get('a'), 1); // a is now the most recently used
  cache.set('d', 4); // evicts b, the coldest
  assert.equal(cache.size, 3);
  assert.equal(cache.get('b'), undefined);
  assert.deepEqual(
    ['a', 'c', 'd'].map((key) => cache.get(key)),
    [1, 3, 4],
  );
});

test('setting an existing key replaces its value and refreshes it', () => {
  const cache = new LruCache<string, number>(2);
  cache.set('a', 1);
  cache.set('b', 2);
  cache.set('a', 10);
  cache.set('c', 3); // evicts b
  assert.equal(cache.get('a'), 10);
  assert.equal(cache.has('b'), false);
  assert.equal(cache.delete('a'), true);
  assert.equal(cache.size, 1);
});

test('has does not count as a use', () => {
  const cache = new LruCache<string, number>(2);
  cache.set('a', 1);
  cache.set('b', 2);
  assert.equal(cache.has('a'), true);
  cache.set('c', 3); // a was not used, so it goes
  assert.equal(cache.has('a'), false);
});

test('a capacity that is not a positive integer is refused', () => {
  assert.throws(() => new LruCache(0), RangeError);
  assert.throws(() => new LruCache(1.5), RangeError);
});

test('asking for the newest entry again keeps the order of use right', () => {
  const cache = new LruCache<string, number>(2);
  cache.set('a', 1);
  cache.set('b', 2);
  assert.equal(cache.get('b'), 2); // already the newest
  assert.equal(cache.get('b'), 2);
  cache.set('c', 3); // evicts a, the coldest
  assert.equal(cache.has('a'), false);
  // The newest deleted, then asked for: absent; set again, it is the newest once more.
  assert.equal(cache.delete('c'), true);
  assert.equal(cache.get('c'), undefined);
  cache.set('c', 30);
  assert.equal(cache.get('b'), 2); // b is now the newest, c the coldest
  cache.set('d', 4); // evicts c
  assert.deepEqual(
    ['b', 'c', 'd'].map((key) => cache.get(key)),
    [2, undefined, 4],
  );
});
