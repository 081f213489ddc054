// Migration 2026-11-26-105 on both dialects: streams_by_creator_status gains the viewer count and
// id (the following feed's live streams chosen from the index alone), and going back restores
// the two-column index of 021.
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { test } from 'node:test';
import { migrateTo, migrateToLatest, openDatabase, type Db } from '../../src/db/database.ts';
import { dialectOf } from '../../src/db/dialect.ts';
import { createTestDatabase, DIALECTS } from '../helpers/databases.ts';

async function indexColumns(db: Db): Promise<string[]> {
  if (dialectOf(db) === 'sqlite') {
    const { rows } = await sql<{
      name: string;
    }>`select name from pragma_index_info('streams_by_creator_status')`.execute(db);
    return rows.map((row) => row.name);
  }
  const { rows } = await sql<{ name: string }>`
    select a.attname as name from pg_index i
    join pg_class c on c.oid = i.indexrelid
    join lateral unnest(i.indkey) with ordinality as k(attnum, n) on true
    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
    where c.relname = 'streams_by_creator_status' order by k.n`.execute(db);
  return rows.map((row) => row.name);
}

for (const dialect of DIALECTS) {
  test(`${dialect}: 105 puts the viewer count in streams_by_creator_status, and takes it out going back`, async (t) => {
    const database = await createTestDatabase(dialect);
    t.after(() => database.drop());
    const handle = openDatabase(database.url);
    t.after(() => handle.close());
    await migrateToLatest(handle.db);
    assert.deepEqual(await indexColumns(handle.db), ['creator_id', 'status', 'viewer_count', 'id']);
    await migrateTo(handle.db, '2026-11-26-087-search-newest-first');
    assert.deepEqual(await indexColumns(handle.db), ['creator_id', 'status']);
    await migrateToLatest(handle.db);
    assert.deepEqual(await indexColumns(handle.db), ['creator_id', 'status', 'viewer_count', 'id']);
  });
}
