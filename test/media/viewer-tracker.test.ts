// The viewer tracker's bounds, driven by a test clock: a client address adds a few players at
// most, a flood of addresses cannot grow memory past its bounds, and players that leave free
// their places. Also the client key an address is counted under, and the playlist limiter.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientKey } from '../../src/shared/client-address.ts';
import { PlaylistLimiter } from '../../src/media/playlist-limiter.ts';
import { VIEWER_LIMITS, ViewerTracker } from '../../src/media/viewer-tracker.ts';
import { TestClock } from '../helpers/clock.ts';

test('one address adds at most its share of players, however many ids it invents', () => {
  const clock = new TestClock(1_000_000);
  const viewers = new ViewerTracker(clock, 10_000);
  for (let i = 0; i < 10_000; i++) viewers.seen('str_a', '192.0.2.1', `player:${i}`);
  assert.equal(viewers.count('str_a'), VIEWER_LIMITS.perAddress);
  assert.equal(viewers.size, VIEWER_LIMITS.perAddress);
  viewers.seen('str_a', '192.0.2.2', 'player:x');
  assert.equal(viewers.count('str_a'), VIEWER_LIMITS.perAddress + 1);
  // The same address on another stream has a share there too.
  viewers.seen('str_b', '192.0.2.1', 'player:x');
  assert.equal(viewers.count('str_b'), 1);

  // Players still watching keep their places; once they leave, new ones from that address count.
  clock.advance(6000);
  viewers.seen('str_a', '192.0.2.1', 'player:0');
  clock.advance(5000);
  assert.equal(viewers.count('str_a'), 1, 'only player 0 refetched within the window');
  viewers.seen('str_a', '192.0.2.1', 'player:new-1');
  viewers.seen('str_a', '192.0.2.1', 'player:new-2');
  viewers.seen('str_a', '192.0.2.1', 'player:new-3');
  assert.equal(viewers.count('str_a'), VIEWER_LIMITS.perAddress);
});

test('a flood of addresses stays within the bounds per stream and overall', () => {
  const clock = new TestClock(1_000_000);
  const viewers = new ViewerTracker(clock, 10_000, { perAddress: 3, perStream: 1000, total: 1500 });
  for (let i = 0; i < 20_000; i++) viewers.seen('str_a', `10.0.${i >> 8}.${i & 255}`, 'player:1');
  assert.equal(viewers.count('str_a'), 1000);
  for (let i = 0; i < 20_000; i++) viewers.seen('str_b', `10.1.${i >> 8}.${i & 255}`, 'player:1');
  assert.equal(viewers.count('str_b'), 500);
  assert.equal(viewers.size, 1500);
  // Past the window the places are free again, for any stream.
  clock.advance(10_001);
  viewers.seen('str_c', '192.0.2.1', 'player:1');
  assert.equal(viewers.count('str_c'), 1);
  assert.equal(viewers.count('str_a'), 0);
  assert.equal(viewers.size, 1);
  assert.deepEqual(viewers.streamIds().sort(), ['str_b', 'str_c']);
  assert.equal(viewers.count('str_b'), 0);
  assert.deepEqual(viewers.streamIds(), ['str_c']);
});

test('a client is its IPv4 address or its IPv6 /64', () => {
  assert.equal(clientKey('203.0.113.7'), '203.0.113.7');
  assert.equal(clientKey('::ffff:203.0.113.7'), '203.0.113.7');
  assert.equal(clientKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd'), '2001:db8:1:2::/64');
  assert.equal(clientKey('2001:0db8:0001:0002::1'), '2001:db8:1:2::/64');
  assert.equal(clientKey('2001:db8::1'), '2001:db8:0:0::/64');
  assert.equal(clientKey('::1'), '0:0:0:0::/64');
  assert.equal(clientKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
  assert.equal(clientKey('64:ff9b::192.0.2.1'), '64:ff9b:0:0::/64');
});

test('the playlist limiter allows its budget per client and stream each minute', () => {
  const clock = new TestClock(120_000);
  const limiter = new PlaylistLimiter(clock, 5);
  for (let i = 0; i < 5; i++) assert.equal(limiter.hit('192.0.2.1', 'str_a'), 0);
  clock.advance(15_000);
  assert.equal(limiter.hit('192.0.2.1', 'str_a'), 45, 'seconds until the window ends');
  assert.equal(limiter.hit('192.0.2.1', 'str_b'), 0);
  assert.equal(limiter.hit('192.0.2.2', 'str_a'), 0);
  clock.advance(45_000);
  assert.equal(limiter.hit('192.0.2.1', 'str_a'), 0, 'a new window');
});
