import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toIso } from '../../src/shared/clock.ts';

test('toIso matches Date#toISOString across the calendar', () => {
  const samples = [
    0, 1, 999, 1000, 951_782_400_000, 951_868_799_999, 1_709_251_199_999, 1_795_357_572_367,
    4_102_444_800_000, 253_402_300_799_999,
  ];
  // Random instants from 1970 to 9999, and every day boundary of a leap-year February.
  let state = 42;
  for (let i = 0; i < 20_000; i++) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    samples.push(Math.floor((state / 2 ** 31) * 253_402_300_799_999));
  }
  for (let day = 0; day < 400; day++) samples.push(Date.UTC(2024, 1, 1) + day * 86_400_000 - 1);
  // Runs of instants within one day and across midnight, as a page of items gives them.
  for (let ms = Date.UTC(2026, 11, 31, 20); ms < Date.UTC(2027, 0, 1, 4); ms += 1_234_567) samples.push(ms);
  for (const ms of samples) assert.equal(toIso(ms), new Date(ms).toISOString(), String(ms));
  assert.equal(toIso(-1), '1969-12-31T23:59:59.999Z');
  assert.equal(toIso(null), null);
});
