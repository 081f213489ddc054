// The periodic prune of expired Idempotency-Key rows: bounded batches, at most once per
// interval, and a backlog worked off batch by batch.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AccountService } from '../../src/accounts/account.service.ts';
import { IdempotencyService } from '../../src/idempotency/idempotency.service.ts';
import { SecretBox } from '../../src/shared/secret-box.ts';
import { TestClock } from '../helpers/clock.ts';
import { DIALECTS, openMigratedTestDatabase } from '../helpers/databases.ts';

for (const dialect of DIALECTS) {
  describe(`idempotency key prune on ${dialect}`, () => {
    test('deletes only expired rows, a batch per call while batches are full, then waits an interval', async (t) => {
      const { db } = await openMigratedTestDatabase(t, dialect);
      const clock = new TestClock();
      const user = await new AccountService(db, clock).createUser('pruned');
      const service = new IdempotencyService(db, clock, new SecretBox(Buffer.alloc(32, 1)), {
        pruneBatch: 2,
        pruneIntervalMs: 60_000,
      });
      for (const key of ['a', 'b', 'c', 'd', 'e']) {
        const outcome = await service.claim(user.id, key, `fingerprint-${key}`);
        assert.equal(outcome.kind, 'claimed');
        await service.complete(outcome.claim, 201, '{"ok":true}');
      }
      assert.equal(await service.pruneIfDue(), 0, 'nothing has expired yet');

      clock.advance(24 * 60 * 60 * 1000);
      const fresh = await service.claim(user.id, 'fresh', 'fingerprint-fresh');
      assert.equal(fresh.kind, 'claimed');
      // The first call above started an interval: nothing is due before it ends.
      clock.advance(60_000);
      assert.deepEqual(
        [await service.pruneIfDue(), await service.pruneIfDue(), await service.pruneIfDue()],
        [2, 2, 1],
      );
      assert.equal(await service.pruneIfDue(), 0, 'a partial batch waits for the next interval');
      const left = await db.selectFrom('idempotency_keys').select('idempotency_key').execute();
      assert.deepEqual(
        left.map((row) => row.idempotency_key),
        ['fresh'],
      );
    });
  });
}
