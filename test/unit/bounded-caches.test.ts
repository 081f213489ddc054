// The data layer's bounded caches forget their coldest entry when full, so a burst of new
// entries cannot push out the ones in constant use: a flood of unknown API keys does not send
// every real caller back to the database, and a stream of one-off statements does not evict
// the prepared statements every request runs. Real SQLite databases; time is a TestClock.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AccountService } from '../../src/accounts/account.service.ts';
import { migrateToLatest, openDatabase } from '../../src/db/database.ts';
import { openNodeSqlite } from '../../src/db/node-sqlite.ts';
import { randomBase62 } from '../../src/shared/ids.ts';
import { TestClock } from '../helpers/clock.ts';

test('a flood of unknown API keys does not push a key in constant use out of the cache', async (t) => {
  let queries = 0;
  const database = openDatabase(':memory:', {
    log: () => {
      queries++;
    },
  });
  t.after(() => database.close());
  await migrateToLatest(database.db);
  // Frozen time: every entry stays fresh, so only the cache's bound can send a key back.
  const accounts = new AccountService(database.db, new TestClock());
  const user = await accounts.createUser('Hot caller');
  const { key } = await accounts.createKey(user.id, 'read');
  assert.ok(await accounts.authenticate(key));

  const before = queries;
  // The cache holds 10,000 keys; 12,000 unknown ones pass while the real caller keeps calling.
  for (let i = 0; i < 12_000; i++) {
    assert.equal(await accounts.authenticate(`tk_${randomBase62(32)}`), null);
    if (i % 1000 === 999) assert.ok(await accounts.authenticate(key));
  }
  assert.equal(queries - before, 12_000, 'one lookup per unknown key, none for the caller in use');
});

test('a statement in constant use stays prepared while hundreds of one-off statements pass', () => {
  const sqlite = openNodeSqlite(':memory:');
  try {
    const hot = 'SELECT 1 AS one';
    const prepared = sqlite.prepare(hot);
    // The cache holds 512 statements; 1,000 others pass while the hot one keeps running.
    for (let i = 0; i < 1000; i++) {
      sqlite.prepare(`SELECT ${i} AS n`);
      if (i % 100 === 99) assert.ok(sqlite.prepare(hot) === prepared, `prepared again after ${i + 1} others`);
    }
    assert.deepEqual(prepared.all([]), [{ one: 1 }]);
  } finally {
    sqlite.close();
  }
});
