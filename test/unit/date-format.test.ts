// Every page's one date format, written out by hand (src/web/format.ts), says exactly what
// Intl's en-GB format in UTC says: "26 Nov 2026, 17:21 UTC" and "26 Nov 2026".
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatDay, formatTime } from '../../src/web/format.ts';
import { prng } from '../helpers/prng.ts';

const DATE_TIME = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const DAY = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});

test("dates read as Intl's en-GB format in UTC, for every month, hour and minute", () => {
  const random = prng(20261127);
  const moments = [
    Date.UTC(2026, 10, 26, 17, 21),
    Date.UTC(2026, 8, 3, 7, 5), // September is "Sept" in en-GB
    Date.UTC(2026, 11, 31, 23, 59, 59, 999),
    Date.UTC(2027, 0, 1, 0, 0),
    0,
    ...Array.from({ length: 5_000 }, () => Math.floor(random.next() * 4_102_444_800_000)),
  ];
  for (const ms of moments) {
    assert.equal(formatTime(ms), `${DATE_TIME.format(ms)} UTC`, String(ms));
    assert.equal(formatDay(ms), DAY.format(ms), String(ms));
  }
  assert.equal(formatTime(Date.UTC(2026, 8, 3, 7, 5)), '3 Sept 2026, 07:05 UTC');
  assert.equal(formatTime(null), '—');
});
