// The compiled-query cache: each handle compiles its own SQL once per dialect and shape and
// finds which parameter each position binds by itself, so the mistakes hand-written keys and
// parameter lists allowed cannot happen, and the ones a build function can still make are
// refused the first time it compiles. Real databases, both dialects.
import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { sql, type LogEvent } from 'kysely';
import { compiledQuery, literalLimit } from '../../src/db/compiled-query.ts';
import { migrateToLatest, openDatabase, type Db, type Dialect } from '../../src/db/database.ts';
import { createTestDatabase, DIALECTS } from '../helpers/databases.ts';

interface LoggedDatabase {
  db: Db;
  /** The SQL of every query run, in order. */
  executed: string[];
  /** Opens a second handle on the same database. */
  reopen: () => Promise<Db>;
}

async function loggedDatabase(t: TestContext, dialect: Dialect): Promise<LoggedDatabase> {
  const database = await createTestDatabase(dialect);
  const executed: string[] = [];
  const log = (event: LogEvent) => {
    executed.push(event.query.sql);
  };
  const handles = [openDatabase(database.url, { log })];
  t.after(async () => {
    for (const handle of handles) await handle.close();
    await database.drop();
  });
  const db = handles[0]!.db;
  await migrateToLatest(db);
  await db
    .insertInto('users')
    .values([
      { id: 'usr_ann', name: 'Ann', created_at: 1 },
      { id: 'usr_bob', name: 'Bob', created_at: 2 },
      { id: 'usr_cy', name: 'Cy', created_at: 3 },
      // Its name is another user's ID: a query that mixed up id and name would find it.
      { id: 'usr_dee', name: 'usr_bob', created_at: 4 },
    ])
    .execute();
  executed.length = 0;
  return {
    db,
    executed,
    reopen: async () => {
      const handle = openDatabase(database.url, { log });
      handles.push(handle);
      return Promise.resolve(handle.db);
    },
  };
}

const names = (rows: { name: string }[]) => rows.map((row) => row.name);

for (const dialect of DIALECTS) {
  describe(`compiled queries on ${dialect}`, () => {
    test('two handles with the same parameters never share SQL', async (t) => {
      const { db } = await loggedDatabase(t, dialect);
      // Had these two been given one hand-written key, the second would have run the first
      // one's SQL: a lookup by name answered by ID.
      const byId = compiledQuery((db, p: { key: string }) =>
        db.selectFrom('users').select(['name']).where('id', '=', p.key),
      );
      const byName = compiledQuery((db, p: { key: string }) =>
        db.selectFrom('users').select(['name']).where('name', '=', p.key),
      );
      assert.deepEqual(names(await byId.execute(db, { key: 'usr_bob' })), ['Bob']);
      assert.deepEqual(names(await byName.execute(db, { key: 'usr_bob' })), ['usr_bob']);
      assert.deepEqual(names(await byId.execute(db, { key: 'usr_bob' })), ['Bob']);
    });

    test('parameters that were equal when the query was compiled still bind to their own places', async (t) => {
      const { db } = await loggedDatabase(t, dialect);
      const byIdAndName = compiledQuery((db, p: { id: string; name: string }) =>
        db.selectFrom('users').select(['id', 'name']).where('name', '=', p.name).where('id', '=', p.id),
      );
      // Compiled with equal values: an order check comparing values cannot tell them apart.
      assert.deepEqual(await byIdAndName.execute(db, { id: 'usr_x', name: 'usr_x' }), []);
      assert.deepEqual(await byIdAndName.execute(db, { id: 'usr_bob', name: 'Bob' }), [
        { id: 'usr_bob', name: 'Bob' },
      ]);
      // Swapped, they match nothing: each value went to its own column.
      assert.deepEqual(await byIdAndName.execute(db, { id: 'Bob', name: 'usr_bob' }), []);
      // The order the caller writes the object in does not matter either.
      assert.deepEqual(await byIdAndName.execute(db, { name: 'usr_bob', id: 'usr_dee' }), [
        { id: 'usr_dee', name: 'usr_bob' },
      ]);
    });

    test('each shape is compiled once per dialect and reused by other handles and transactions', async (t) => {
      const { db, executed, reopen } = await loggedDatabase(t, dialect);
      let builds = 0;
      const page = compiledQuery(
        (
          db,
          p: { name?: string | undefined; after?: { createdAt: number } | undefined },
          l: { take: number },
        ) => {
          builds += 1;
          let query = db.selectFrom('users').select(['name']);
          if (p.name !== undefined) query = query.where('name', '<>', p.name);
          const after = p.after;
          if (after !== undefined) query = query.where('created_at', '>', after.createdAt);
          return query.orderBy('created_at', 'asc').limit(literalLimit(l.take));
        },
      );
      assert.deepEqual(names(await page.execute(db, {}, { take: 2 })), ['Ann', 'Bob']);
      assert.deepEqual(names(await page.execute(db, { name: undefined }, { take: 2 })), ['Ann', 'Bob']);
      assert.equal(builds, 1, 'an undefined parameter is an absent one');
      assert.deepEqual(names(await page.execute(db, { name: 'Ann' }, { take: 2 })), ['Bob', 'Cy']);
      assert.deepEqual(names(await page.execute(db, { name: 'Bob' }, { take: 2 })), ['Ann', 'Cy']);
      assert.deepEqual(names(await page.execute(db, { after: { createdAt: 2 } }, { take: 2 })), [
        'Cy',
        'usr_bob',
      ]);
      assert.deepEqual(names(await page.execute(db, { name: 'Cy', after: { createdAt: 1 } }, { take: 9 })), [
        'Bob',
        'usr_bob',
      ]);
      assert.equal(builds, 4, 'one build per shape: none, name, after, name with after and take 9');

      // The page size is written into the SQL, never bound: SQLite re-plans a bound LIMIT.
      assert.ok(executed.some((text) => / limit 2$/.test(text)));
      assert.ok(executed.some((text) => / limit 9$/.test(text)));

      const other = await reopen();
      assert.deepEqual(names(await page.execute(other, { name: 'Ann' }, { take: 2 })), ['Bob', 'Cy']);
      const inTransaction = await db
        .transaction()
        .execute((trx) => page.execute(trx, { after: { createdAt: 3 } }, { take: 2 }));
      assert.deepEqual(names(inTransaction), ['usr_bob']);
      assert.equal(builds, 4, 'another handle on the same dialect, or a transaction, reuses the SQL');
    });

    test('a query whose bound values are not all named parameters is refused, every time', async (t) => {
      const { db } = await loggedDatabase(t, dialect);
      const constant = compiledQuery((db, p: { id: string }) =>
        db.selectFrom('users').select(['name']).where('name', '=', 'Ann').where('id', '=', p.id),
      );
      const refusedConstant = /bound value 1 is not a named parameter \("Ann"\)/;
      await assert.rejects(constant.execute(db, { id: 'usr_ann' }), refusedConstant);
      // Not cached on failure: a second call is refused again, not run with the wrong binding.
      await assert.rejects(constant.execute(db, { id: 'usr_bob' }), refusedConstant);

      // A value derived from a parameter would be frozen at its compile-time value.
      const derived = compiledQuery((db, p: { id: string }) =>
        db.selectFrom('users').select(['name']).where('id', '=', `usr_${p.id}`),
      );
      await assert.rejects(derived.execute(db, { id: 'ann' }), /bound value 1 is not a named parameter/);

      // A parameter the query forgot to apply would be silently ignored.
      const unused = compiledQuery((db, p: { id: string; name: string }) =>
        db.selectFrom('users').select(['name']).where('id', '=', p.id),
      );
      await assert.rejects(
        unused.execute(db, { id: 'usr_ann', name: 'Ann' }),
        /parameter name is given but the query never binds it/,
      );

      // A list binds one value or several depending on its length.
      const list = compiledQuery((db, p: { ids: string[] }) =>
        db.selectFrom('users').select(['name']).where('id', 'in', p.ids),
      );
      await assert.rejects(list.execute(db, { ids: ['usr_ann'] }), /parameter ids must be a plain value/);

      // Constants belong in the SQL text; written so, the query is accepted.
      const literal = compiledQuery((db, p: { id: string }) =>
        db.selectFrom('users').select(['name']).where('name', '=', sql.lit('Ann')).where('id', '=', p.id),
      );
      assert.deepEqual(names(await literal.execute(db, { id: 'usr_ann' })), ['Ann']);
      assert.deepEqual(names(await literal.execute(db, { id: 'usr_bob' })), []);
    });

    test('a parameter used twice binds the same value in both places', async (t) => {
      const { db } = await loggedDatabase(t, dialect);
      const either = compiledQuery((db, p: { key: string }) =>
        db
          .selectFrom('users')
          .select(['id'])
          .where((eb) => eb.or([eb('id', '=', p.key), eb('name', '=', p.key)]))
          .orderBy('id'),
      );
      assert.deepEqual(await either.execute(db, { key: 'usr_bob' }), [{ id: 'usr_bob' }, { id: 'usr_dee' }]);
      assert.deepEqual(await either.execute(db, { key: 'Cy' }), [{ id: 'usr_cy' }]);
    });
  });
}

test('a Kysely instance with plugins is refused: reusing the SQL would skip the plugin', async (t) => {
  const handle = openDatabase(':memory:');
  t.after(() => handle.close());
  const find = compiledQuery((db, p: { id: string }) =>
    db.selectFrom('users').select(['name']).where('id', '=', p.id),
  );
  const withPlugin = handle.db.withPlugin({
    transformQuery: (args) => args.node,
    transformResult: (args) => Promise.resolve(args.result),
  });
  await assert.rejects(find.execute(withPlugin, { id: 'usr_ann' }), /plugins cannot reuse compiled queries/);
});

// On SQLite a compiled read runs its statement directly, without Kysely's driver, unless a
// transaction is open on the connection: then it must wait for the transaction like any
// other query, never read its uncommitted rows.
describe('compiled reads on SQLite without a query log', () => {
  const byId = compiledQuery((db, p: { id: string }) =>
    db.selectFrom('users').select(['id', 'name']).where('id', '=', p.id),
  );

  test('answer as Kysely would, and never see a transaction’s uncommitted rows', async (t) => {
    const database = await createTestDatabase('sqlite');
    const handle = openDatabase(database.url);
    t.after(async () => {
      await handle.close();
      await database.drop();
    });
    const { db } = handle;
    await migrateToLatest(db);
    await db.insertInto('users').values({ id: 'usr_ann', name: 'Ann', created_at: 1 }).execute();
    assert.deepEqual(await byId.execute(db, { id: 'usr_ann' }), [{ id: 'usr_ann', name: 'Ann' }]);
    assert.deepEqual(await byId.execute(db, { id: 'usr_none' }), []);

    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inserted: () => void = () => undefined;
    const written = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const transaction = db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values({ id: 'usr_bob', name: 'Bob', created_at: 2 }).execute();
      inserted();
      await held;
    });
    await written;
    // Read while the transaction holds its row uncommitted: the read waits for it.
    let answered = false;
    const read = byId.execute(db, { id: 'usr_bob' }).then((rows) => {
      answered = true;
      return rows;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(answered, false, 'a read during an open transaction waits for it');
    release();
    await transaction;
    assert.deepEqual(await read, [{ id: 'usr_bob', name: 'Bob' }]);

    // A transaction that rolls back: the read after it finds nothing.
    await assert.rejects(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('users').values({ id: 'usr_cy', name: 'Cy', created_at: 3 }).execute();
        assert.deepEqual(await byId.execute(trx, { id: 'usr_cy' }), [{ id: 'usr_cy', name: 'Cy' }]);
        throw new Error('roll back');
      }),
      /roll back/,
    );
    assert.deepEqual(await byId.execute(db, { id: 'usr_cy' }), []);
  });
});
