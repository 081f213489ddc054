// Webhook deliveries and events are named by ids that sort by creation time (so a batch of them
// sits together in every index keyed by them) and are still unguessable.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newTimeOrderedId } from '../../src/shared/ids.ts';

test('time-ordered ids sort by their millisecond, keep 17 random characters, and never repeat', () => {
  const at = Date.UTC(2026, 10, 27, 5, 30);
  const ids = [at - 86_400_000, at - 1, at, at + 1, at + 1000, Date.UTC(2300, 0, 1)].map((ms) =>
    newTimeOrderedId('dlv', ms),
  );
  assert.deepEqual(ids.toSorted(), ids, 'lexicographic order is creation order');
  for (const id of ids) assert.match(id, /^dlv_[0-9A-Za-z]{25}$/);
  // The same millisecond: the random part tells them apart.
  const same = new Set(Array.from({ length: 10_000 }, () => newTimeOrderedId('evt', at)));
  assert.equal(same.size, 10_000);
  const suffixes = new Set([...same].map((id) => id.slice(12)));
  assert.equal(suffixes.size, 10_000, 'the random part varies');
  assert.equal(new Set([...same].map((id) => id.slice(0, 12))).size, 1, 'the time part is the same');
});
