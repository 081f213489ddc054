// The per-address lockout for unknown stream keys: when it starts, how it grows, when it
// ends, and that it stays bounded.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PENALTY_DEFAULTS, PenaltyBox } from '../../src/ingest/penalty-box.ts';
import { clientKey } from '../../src/shared/client-address.ts';
import { TestClock } from '../helpers/clock.ts';

const { maxFailures, windowMs, lockMs, maxLockMs } = PENALTY_DEFAULTS;

function failTimes(box: PenaltyBox, address: string, times: number): void {
  for (let i = 0; i < times; i++) box.recordFailure(address);
}

test('a few unknown keys within the window lock the address out; others are not affected', () => {
  const clock = new TestClock();
  const box = new PenaltyBox({ clock });
  failTimes(box, '203.0.113.7', maxFailures - 1);
  assert.equal(box.lockedFor('203.0.113.7'), 0);
  box.recordFailure('203.0.113.7');
  assert.equal(box.lockedFor('203.0.113.7'), lockMs);
  assert.equal(box.lockedFor('203.0.113.8'), 0);
  clock.advance(lockMs - 1);
  assert.equal(box.lockedFor('203.0.113.7'), 1);
  clock.advance(1);
  assert.equal(box.lockedFor('203.0.113.7'), 0);
});

test('failures spread beyond the window do not add up', () => {
  const clock = new TestClock();
  const box = new PenaltyBox({ clock });
  for (let i = 0; i < maxFailures * 3; i++) {
    box.recordFailure('198.51.100.1');
    clock.advance(windowMs / (maxFailures - 1) + 1);
  }
  assert.equal(box.lockedFor('198.51.100.1'), 0);
});

test('each further lockout doubles, up to the ceiling, and a quiet address is forgotten', () => {
  const clock = new TestClock();
  const box = new PenaltyBox({ clock });
  const locks: number[] = [];
  for (let round = 0; round < 8; round++) {
    failTimes(box, '192.0.2.1', maxFailures);
    const locked = box.lockedFor('192.0.2.1');
    locks.push(locked);
    clock.advance(locked);
  }
  assert.deepEqual(locks.slice(0, 4), [lockMs, lockMs * 2, lockMs * 4, lockMs * 8]);
  assert.equal(Math.max(...locks), maxLockMs);
  // Quiet for longer than the longest lockout: a fresh start.
  clock.advance(maxLockMs + 1);
  assert.equal(box.lockedFor('192.0.2.1'), 0);
  assert.equal(box.size, 0);
  failTimes(box, '192.0.2.1', maxFailures);
  assert.equal(box.lockedFor('192.0.2.1'), lockMs);
});

test('the table is bounded, forgetting the least recently active first', () => {
  const clock = new TestClock();
  const box = new PenaltyBox({ clock, maxEntries: 100 });
  failTimes(box, '10.0.0.1', maxFailures);
  for (let i = 0; i < 1000; i++) box.recordFailure(`10.1.${i >> 8}.${i & 255}`);
  assert.ok(box.size <= 100);
  assert.equal(box.lockedFor('10.0.0.1'), 0, 'the oldest entry made room');
});

test('IPv6 addresses count per /64; IPv4-mapped addresses as IPv4', () => {
  assert.equal(clientKey('::ffff:127.0.0.1'), '127.0.0.1');
  assert.equal(clientKey('127.0.0.1'), '127.0.0.1');
  assert.equal(clientKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
  assert.equal(clientKey('2001:0db8:0001:0002:bbbb:cccc:dddd:eeee'), '2001:db8:1:2::/64');
  assert.equal(clientKey('2001:db8::1'), '2001:db8:0:0::/64');
  assert.equal(clientKey('::1'), '0:0:0:0::/64');
  const clock = new TestClock();
  const box = new PenaltyBox({ clock });
  for (let i = 0; i < maxFailures; i++) box.recordFailure(`2001:db8:1:2::${i + 1}`);
  assert.equal(box.lockedFor('2001:db8:1:2:ffff::9'), lockMs);
  assert.equal(box.lockedFor('2001:db8:1:3::1'), 0);
});
