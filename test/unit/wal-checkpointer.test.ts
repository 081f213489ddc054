// SQLite's write-ahead log checkpointed from a thread (src/db/wal-checkpointer.ts): the service's
// connection leaves checkpoints to it (its own threshold is only a backstop), and the log's
// pages reach the database file without any commit of the service doing the copying.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { migrateToLatest, openDatabase, type Db } from '../../src/db/database.ts';

async function autocheckpointPages(db: Db): Promise<number> {
  const { rows } = await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(db);
  return rows[0]?.wal_autocheckpoint ?? Number.NaN;
}

async function writeRows(db: Db, count: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (let index = 0; index < count; index++) {
      await trx
        .insertInto('users')
        .values({ id: `usr_${index}`, name: `user ${index} ${'x'.repeat(200)}`, created_at: index })
        .execute();
    }
  });
}

async function databaseFileGrows(file: string, from: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (fs.statSync(file).size > from) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

for (const thread of [true, false]) {
  test(`SQLite ${thread ? 'with' : 'without'} the checkpoint thread: who copies the log into the file`, async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-wal-'));
    t.after(() => {
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const file = path.join(dir, 'db.sqlite');
    const handle = openDatabase(file, { checkpointThread: thread });
    t.after(() => handle.close());
    await migrateToLatest(handle.db);
    // Whatever the migrations left in the log goes into the file first, so the size below
    // is the file's before the rows.
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(handle.db);
    assert.equal(await autocheckpointPages(handle.db), thread ? 10_000 : 1000);

    const before = fs.statSync(file).size;
    // About 300 pages of rows: under either threshold, so no commit checkpoints by itself.
    await writeRows(handle.db, 4000);
    assert.ok(fs.statSync(`${file}-wal`).size > 300 * 4096, 'the rows are in the log');
    assert.equal(
      await databaseFileGrows(file, before, 1500),
      thread,
      thread ? 'the thread copied the log into the file' : 'nothing copies the log below the threshold',
    );
    const { count } = await handle.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    assert.equal(count, 4000);
  });
}

test('SQLITE_CHECKPOINT_THREAD: off unless set; true or false, anything else stops the start', () => {
  assert.equal(loadConfig({}).sqliteCheckpointThread, false);
  assert.equal(loadConfig({ SQLITE_CHECKPOINT_THREAD: 'true' }).sqliteCheckpointThread, true);
  assert.equal(loadConfig({ SQLITE_CHECKPOINT_THREAD: 'false' }).sqliteCheckpointThread, false);
  assert.throws(() => loadConfig({ SQLITE_CHECKPOINT_THREAD: 'yes please' }), ConfigError);
});
