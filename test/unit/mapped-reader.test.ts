// Search's reads on SQLite go through a second, read-only connection that maps the database file
// (src/db/database.ts, mappedReaderOf): it reads what is committed (never a transaction's writes
// still open on the service's connection), refuses to write, maps the file, and is closed with
// the database.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { migrateToLatest, mappedReaderOf, openDatabase } from '../../src/db/database.ts';

function tempFile(t: { after: (fn: () => void) => void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mapped-reader-'));
  t.after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return path.join(dir, 'db.sqlite');
}

test('the mapped reader reads committed rows through a memory map, and never uncommitted ones', async (t) => {
  const handle = openDatabase(tempFile(t));
  t.after(() => handle.close());
  await migrateToLatest(handle.db);
  const read = mappedReaderOf(handle.db);
  assert.ok(read, 'a SQLite file has a mapped reader');
  assert.deepEqual(read('PRAGMA mmap_size', []), [{ mmap_size: 1 << 30 }]);

  await handle.db
    .insertInto('users')
    .values({ id: 'usr_committed', name: 'Committed', created_at: 1 })
    .execute();
  const names = () =>
    (read('select name from users order by id', []) ?? []).map((row) => (row as { name: string }).name);
  assert.deepEqual(names(), ['Committed']);

  // A transaction held open across awaits, as a flow of the service may: its write is not seen
  // until it commits.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const transaction = handle.db.transaction().execute(async (trx) => {
    await trx.insertInto('users').values({ id: 'usr_pending', name: 'Pending', created_at: 2 }).execute();
    await held;
  });
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(names(), ['Committed']);
  release();
  await transaction;
  assert.deepEqual(names(), ['Committed', 'Pending']);
});

test('the mapped reader cannot write, and reads nothing once the database is closed', async (t) => {
  const handle = openDatabase(tempFile(t));
  await migrateToLatest(handle.db);
  const read = mappedReaderOf(handle.db);
  assert.ok(read);
  assert.throws(
    () => read(`insert into users (id, name, created_at) values ('usr_x', 'X', 1)`, []),
    /readonly|query_only/i,
  );
  await handle.close();
  assert.equal(read('select 1 as one', []), undefined);
});

test('an in-memory database has no mapped reader (a second connection would be another database)', async () => {
  const handle = openDatabase(':memory:');
  try {
    assert.equal(mappedReaderOf(handle.db), undefined);
  } finally {
    await handle.close();
  }
});
