// Another process holding SQLite's write lock (the CLI, a worker) makes the service's writes wait
// their turn without stopping its event loop (src/db/sqlite-dialect.ts): SQLite's own busy wait
// sleeps on the thread that runs the statement, and every request stood still behind it.
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { BUSY_WAIT_MS } from '../../src/db/sqlite-dialect.ts';

// The other process: takes the write lock, says so, holds it for the given time, commits.
const HOLDER = `
import { DatabaseSync } from 'node:sqlite';
const [file, holdMs] = process.argv.slice(2);
const db = new DatabaseSync(file);
db.exec('BEGIN IMMEDIATE');
db.exec("insert into users (id, name, created_at) values ('usr_holder', 'Holder', 1)");
process.send('locked');
setTimeout(() => { db.exec('COMMIT'); db.close(); process.send('released'); process.disconnect(); }, Number(holdMs));
`;

async function withDatabase(t: { after: (fn: () => Promise<void> | void) => void }): Promise<{
  handle: DatabaseHandle;
  file: string;
  dir: string;
}> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-busy-'));
  const file = path.join(dir, 'db.sqlite');
  const handle = openDatabase(file);
  await migrateToLatest(handle.db);
  t.after(async () => {
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { handle, file, dir };
}

/** Starts the holder and resolves once it holds the lock; `released` settles when it let go. */
async function holdLock(dir: string, file: string, holdMs: number): Promise<{ released: Promise<number> }> {
  const script = path.join(dir, 'holder.mjs');
  fs.writeFileSync(script, HOLDER);
  const child = fork(script, [file, String(holdMs)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let releasedAt = 0;
  const released = new Promise<number>((resolve, reject) => {
    child.on('message', (message) => {
      if (message === 'released') releasedAt = performance.now();
    });
    child.once('exit', (code) => {
      if (code === 0) resolve(releasedAt);
      else reject(new Error(`the lock holder exited with ${code}`));
    });
  });
  await new Promise<void>((resolve, reject) => {
    child.on('message', (message) => {
      if (message === 'locked') resolve();
    });
    child.once('error', reject);
    setTimeout(() => {
      reject(new Error('the lock holder did not take the lock within 10 s'));
    }, 10_000).unref();
  });
  return { released };
}

/** The longest gap between ticks of a 5 ms timer while `work` runs. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 5);
  try {
    const result = await work();
    stallMs = Math.max(stallMs, performance.now() - last);
    return { result, stallMs };
  } finally {
    clearInterval(ticker);
  }
}

test('writes wait for another process holding the write lock, with the event loop free meanwhile', async (t) => {
  const { handle, file, dir } = await withDatabase(t);
  const { released } = await holdLock(dir, file, 600);
  const { stallMs } = await longestStall(async () => {
    await Promise.all([
      // A write on its own, and a transaction (BEGIN IMMEDIATE): both refused as busy at first.
      handle.db.insertInto('users').values({ id: 'usr_single', name: 'Single', created_at: 2 }).execute(),
      handle.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('users')
          .values({ id: 'usr_in_trx', name: 'In a transaction', created_at: 3 })
          .execute();
      }),
    ]);
  });
  const releasedAt = await released;
  assert.ok(releasedAt > 0, 'the holder released its lock');
  const names = await handle.db.selectFrom('users').select('id').orderBy('id').execute();
  assert.deepEqual(
    names.map((row) => row.id),
    ['usr_holder', 'usr_in_trx', 'usr_single'],
    "both writes landed after the holder's",
  );
  // SQLite's own busy wait would have stood still for the whole 600 ms hold.
  assert.ok(stallMs < 150, `the event loop stood still for ${stallMs.toFixed(0)} ms`);
});

test('reads go on while another process holds the write lock', async (t) => {
  const { handle, file, dir } = await withDatabase(t);
  await handle.db.insertInto('users').values({ id: 'usr_before', name: 'Before', created_at: 1 }).execute();
  const { released } = await holdLock(dir, file, 400);
  const started = performance.now();
  const rows = await handle.db.selectFrom('users').select('id').execute();
  assert.ok(performance.now() - started < 200, 'a read did not wait for the writer');
  assert.deepEqual(
    rows.map((row) => row.id),
    ['usr_before'],
  );
  await released;
});

test(`a write still fails as busy once it has waited ${BUSY_WAIT_MS} ms`, async (t) => {
  const { handle, file, dir } = await withDatabase(t);
  const { released } = await holdLock(dir, file, BUSY_WAIT_MS + 1500);
  const started = performance.now();
  await assert.rejects(
    handle.db.insertInto('users').values({ id: 'usr_late', name: 'Late', created_at: 2 }).execute(),
    /database is locked/,
  );
  const waited = performance.now() - started;
  assert.ok(waited >= BUSY_WAIT_MS - 50 && waited < BUSY_WAIT_MS + 1000, `waited ${waited.toFixed(0)} ms`);
  await released;
});
