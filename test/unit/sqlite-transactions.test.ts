// Two processes writing one SQLite file: a transaction that reads before it writes must wait
// for the other process's write instead of failing with "database is locked"
// (SQLITE_BUSY_SNAPSHOT), which a worker process beside the server met in CI.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/database.ts';

test('a transaction that reads, then writes, while another process writes the same file: both writes land', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-sqlite-tx-'));
  t.after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const file = path.join(dir, 'db.sqlite');
  const database = openDatabase(file);
  const { db } = database;
  t.after(() => database.close());
  await sql`CREATE TABLE counters (name TEXT PRIMARY KEY, n INTEGER NOT NULL)`.execute(db);
  await sql`INSERT INTO counters (name, n) VALUES ('mine', 0), ('theirs', 0)`.execute(db);

  // The other process: one write, waiting up to 5 s for the lock as the service's connections do.
  const otherWriter = `
    const { DatabaseSync } = require('node:sqlite');
    const db = new DatabaseSync(${JSON.stringify(file)});
    db.exec('PRAGMA busy_timeout = 5000');
    db.exec("UPDATE counters SET n = n + 1 WHERE name = 'theirs'");
    db.close();
  `;
  let other: ReturnType<typeof spawn> | undefined;
  await db.transaction().execute(async (trx) => {
    const before = await sql<{ n: number }>`SELECT n FROM counters WHERE name = 'mine'`.execute(trx);
    other = spawn(process.execPath, ['-e', otherWriter], { stdio: ['ignore', 'inherit', 'inherit'] });
    // Long enough for the other process to start and reach its write.
    await sleep(400);
    await sql`UPDATE counters SET n = ${(before.rows[0]?.n ?? 0) + 1} WHERE name = 'mine'`.execute(trx);
  });
  assert.ok(other);
  const [code] = (await once(other, 'exit')) as [number | null];
  assert.equal(code, 0, 'the other process wrote');
  const rows = await sql<{ name: string; n: number }>`SELECT name, n FROM counters ORDER BY name`.execute(db);
  assert.deepEqual(rows.rows, [
    { name: 'mine', n: 1 },
    { name: 'theirs', n: 1 },
  ]);
});
