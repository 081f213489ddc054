// Migration 2026-11-26-050 on both databases: stored addresses are normalized; where two
// accounts normalize to one address the oldest keeps it and the other loses it (keeping its
// account); accounts that had an address count as confirmed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { migrateTo, migrateToLatest, openDatabase } from '../../src/db/database.ts';
import { createTestDatabase, DIALECTS } from '../helpers/databases.ts';

for (const dialect of DIALECTS) {
  test(`${dialect}: existing addresses are normalized; duplicates keep the oldest account's`, async (t) => {
    const database = await createTestDatabase(dialect);
    t.after(() => database.drop());
    const handle = openDatabase(database.url);
    t.after(() => handle.close());
    await migrateTo(handle.db, '2026-11-26-003-video-media-location');
    const users = [
      { id: 'usr_old', name: 'Old', email: 'Ada@Example.com', created_at: 1000 },
      { id: 'usr_new', name: 'New', email: 'ada@example.com.', created_at: 2000 },
      { id: 'usr_wide', name: 'Wide', email: 'ｂｏ@example.com', created_at: 3000 },
      { id: 'usr_none', name: 'No login', email: null, created_at: 4000 },
    ];
    await handle.db.insertInto('users').values(users).execute();
    await migrateToLatest(handle.db);
    const rows = await handle.db
      .selectFrom('users')
      .select(['id', 'email', 'email_verified_at'])
      .orderBy('created_at')
      .execute();
    assert.deepEqual(rows, [
      { id: 'usr_old', email: 'ada@example.com', email_verified_at: 1000 },
      { id: 'usr_new', email: null, email_verified_at: null },
      { id: 'usr_wide', email: 'bo@example.com', email_verified_at: 3000 },
      { id: 'usr_none', email: null, email_verified_at: null },
    ]);
  });
}
