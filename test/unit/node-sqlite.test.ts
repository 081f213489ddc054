import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openNodeSqlite } from '../../src/db/node-sqlite.ts';

test('the node:sqlite adapter returns rows as objects keyed by column, through all() and iterate()', () => {
  const db = openNodeSqlite(':memory:');
  try {
    db.raw.exec('CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER, note TEXT)');
    const insert = db.prepare('INSERT INTO t (id, n, note) VALUES (?, ?, ?)');
    assert.equal(insert.reader, false);
    assert.equal(Number(insert.run(['a', 1, null]).changes), 1);
    insert.run(['b', 2, 'two']);
    // undefined binds as NULL, booleans as 0/1, as better-sqlite3 does.
    insert.run(['c', true, undefined]);

    const select = db.prepare('SELECT id, n, note FROM t ORDER BY id');
    assert.equal(select.reader, true);
    const expected = [
      { id: 'a', n: 1, note: null },
      { id: 'b', n: 2, note: 'two' },
      { id: 'c', n: 1, note: null },
    ];
    assert.deepEqual(select.all([]), expected);
    assert.deepEqual([...select.iterate([])], expected);
    // Every row of a statement has its columns in select order.
    assert.deepEqual(
      select.all([]).map((row) => Object.keys(row as object)),
      expected.map(() => ['id', 'n', 'note']),
    );

    // Any column name SQLite allows is a key, quotes and backslashes included.
    const oddNames = db.prepare(
      `SELECT id AS "it's ""quoted"" \\ ok", n AS "two words", note AS "id" FROM t WHERE id = 'a'`,
    );
    assert.deepEqual(oddNames.all([]), [{ 'it\'s "quoted" \\ ok': 'a', 'two words': 1, id: null }]);

    const returning = db.prepare('UPDATE t SET n = n + 10 WHERE id = ? RETURNING id, n');
    assert.equal(returning.reader, true);
    assert.deepEqual(returning.all(['b']), [{ id: 'b', n: 12 }]);
    // A statement served from the cache answers with new parameters.
    assert.deepEqual(db.prepare('SELECT id, n, note FROM t ORDER BY id').all([]).length, 3);
  } finally {
    db.close();
  }
});
