// Stream keys are publishing credentials: the database keeps a keyed hash (for the ingest's
// lookup) and a sealed copy (for the creator's eyes), never the key itself, on both dialects,
// and a database from before this rule is converted at start without breaking any key.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../../src/config.ts';
import { migrateTo, migrateToLatest, openDatabase, type Db, type Dialect } from '../../src/db/database.ts';
import { openRuntime } from '../../src/runtime.ts';
import { sealPlaintextStreamKeys, StreamKeyVault } from '../../src/streams/stream-key-vault.ts';
import { createTestDatabase, DIALECTS } from '../helpers/databases.ts';
import { runCli } from '../helpers/cli.ts';
import { startTestServer } from '../helpers/server.ts';

const SECRET_HEX = 'ab'.repeat(32);
const BEFORE_VAULT = '2026-11-22-002-webhooks';
const BEFORE_DERIVED_KEYS = '2026-11-26-003-video-media-location';

/** Every table of the database, read whole: which ones hold `needle` in any column. */
async function tablesHolding(
  db: Db,
  dialect: Dialect,
  needle: string,
): Promise<{ scanned: number; holding: string[] }> {
  const names =
    dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)
      : await sql<{ name: string }>`
          select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(
          db,
        );
  const holding: string[] = [];
  let scanned = 0;
  for (const { name } of names.rows) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db);
    scanned += rows.rows.length;
    if (JSON.stringify(rows.rows).includes(needle)) holding.push(name);
  }
  return { scanned, holding };
}

function oldKey(n: number): string {
  return `sk_OldPlaintextKey${String(n).padStart(2, '0')}abcdefghijklmn`;
}

for (const dialect of DIALECTS) {
  describe(`stream keys at rest on ${dialect}`, () => {
    test('a created key is stored only as a keyed hash and a sealed copy; ingest finds it, a wrong key nothing', async (t) => {
      const server = await startTestServer(t, { dialect });
      const db = server.services.database.db;
      const account = await server.createAccount();
      const created = await server.request('POST', '/v1/streams', {
        key: account.writeKey,
        body: { title: 'Secret keeping' },
      });
      assert.equal(created.status, 201);
      const key: string = created.body.ingest.stream_key;
      assert.match(key, /^sk_[0-9A-Za-z]{32}$/);

      const scan = await tablesHolding(db, dialect, key);
      assert.ok(scan.scanned > 0, 'the scan read rows');
      assert.deepEqual(scan.holding, [], 'no table holds the key in plain text');
      // Not even the random part of it, in any encoding the row might use.
      assert.deepEqual((await tablesHolding(db, dialect, key.slice(3))).holding, []);

      const found = await server.services.streams.findByStreamKey(key);
      assert.equal(found?.id, created.body.id);
      const wrong = `${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`;
      assert.equal(await server.services.streams.findByStreamKey(wrong), undefined);
      assert.equal(await server.services.streams.findByStreamKey(''), undefined);

      // Shown to its creator (and so opened, and kept opened by the vault) before the reset.
      const before = await server.request('GET', `/v1/streams/${created.body.id}`, { key: account.writeKey });
      assert.equal(before.body.ingest.stream_key, key);

      // A reset replaces both stored forms: the old key stops working, the new one works.
      const reset = await server.request('POST', `/v1/streams/${created.body.id}/reset-stream-key`, {
        key: account.writeKey,
      });
      assert.equal(reset.status, 200);
      const newKey: string = reset.body.ingest.stream_key;
      assert.notEqual(newKey, key);
      assert.equal(await server.services.streams.findByStreamKey(key), undefined);
      assert.equal((await server.services.streams.findByStreamKey(newKey))?.id, created.body.id);
      assert.deepEqual((await tablesHolding(db, dialect, newKey)).holding, []);
      const shown = await server.request('GET', `/v1/streams/${created.body.id}`, { key: account.writeKey });
      assert.equal(shown.body.ingest.stream_key, newKey);

      // The row names the master secret the key was derived under; a row naming another one (a
      // SECRET_KEY changed since) shows no key, as the ingest would refuse it.
      const tagged = await db
        .selectFrom('streams')
        .select('stream_key_secret_tag')
        .where('id', '=', created.body.id)
        .executeTakeFirstOrThrow();
      assert.match(tagged.stream_key_secret_tag ?? '', /^[\w-]{16}$/);
      await db
        .updateTable('streams')
        .set({ stream_key_secret_tag: 'another-secret00' })
        .where('id', '=', created.body.id)
        .execute();
      const elsewhere = await server.request('GET', `/v1/streams/${created.body.id}`, {
        key: account.writeKey,
      });
      assert.equal(elsewhere.status, 200);
      assert.equal(elsewhere.body.ingest?.stream_key, undefined);
    });

    test("only the creator's write keys see `ingest`; their read key and other accounts never do", async (t) => {
      const server = await startTestServer(t, { dialect });
      const creator = await server.createAccount('Creator');
      const other = await server.createAccount('Other');
      const created = await server.request('POST', '/v1/streams', {
        key: creator.writeKey,
        body: { title: 'Who may see the key' },
      });
      const path = `/v1/streams/${created.body.id}`;

      const withWrite = await server.request('GET', path, { key: creator.writeKey });
      assert.equal(withWrite.status, 200);
      assert.deepEqual(withWrite.body.ingest, created.body.ingest);

      for (const [who, key] of [
        ["the creator's read key", creator.readKey],
        ["another account's write key", other.writeKey],
        ["another account's read key", other.readKey],
      ] as const) {
        const res = await server.request('GET', path, { key });
        assert.equal(res.status, 200, who);
        assert.equal('ingest' in res.body, false, who);
        assert.equal(JSON.stringify(res.body).includes(created.body.ingest.stream_key), false, who);
      }
    });

    test('a sealed key from before derived keys keeps publishing and being shown; a reset derives its successor', async (t) => {
      const database = await createTestDatabase(dialect);
      t.after(() => database.drop());
      const handle = openDatabase(database.url);
      let handleOpen = true;
      t.after(async () => {
        if (handleOpen) await handle.close();
      });
      await migrateTo(handle.db, BEFORE_DERIVED_KEYS);
      // A stream as the previous version stored it: a lookup hash and a sealed copy.
      const vault = new StreamKeyVault(Buffer.from(SECRET_HEX, 'hex'));
      const configured = 'sk_ConfiguredInAnEncoder0123456789';
      await sql`insert into users (id, name, created_at) values ('usr_old', 'Old creator', 1700000000000)`.execute(
        handle.db,
      );
      const stored = vault.seal(configured, 'str_sealed1');
      await sql`
        insert into streams (id, creator_id, title, description, status, category, privacy, viewer_count,
          peak_viewer_count, started_at, scheduled_at, ended_at, thumbnail_at, created_at, updated_at,
          stream_key_hash, stream_key_ciphertext, record)
        values ('str_sealed1', 'usr_old', 'Sealed', null, 'scheduled', 'talk', 'public', null, null, null, null,
          null, null, 1700000000000, 1700000000000, ${stored.stream_key_hash}, ${stored.stream_key_ciphertext}, 1)`.execute(
        handle.db,
      );
      await handle.close();
      handleOpen = false;

      const runtime = await openRuntime(
        loadConfig({ DATABASE_URL: database.url, DATA_DIR: database.dataDir, SECRET_KEY: SECRET_HEX }),
      );
      t.after(() => runtime.close());
      const { streams } = runtime.services;
      const db = runtime.services.database.db;
      assert.equal(
        (await streams.findByStreamKey(configured))?.id,
        'str_sealed1',
        'the encoder still publishes',
      );
      const shown = await streams.getWithKey('str_sealed1', { userId: 'usr_old', scope: 'write' });
      assert.equal(shown.streamKey, configured, 'its creator is still shown the configured key');

      const reset = await streams.resetStreamKey('str_sealed1', 'usr_old');
      assert.notEqual(reset.streamKey, configured);
      assert.equal(await streams.findByStreamKey(configured), undefined, 'the old key stops working');
      assert.equal((await streams.findByStreamKey(reset.streamKey))?.id, 'str_sealed1');
      const row = await db
        .selectFrom('streams')
        .select(['stream_key_ciphertext', 'stream_key_version'])
        .where('id', '=', 'str_sealed1')
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, { stream_key_ciphertext: null, stream_key_version: 1 }, 'no sealed copy is left');
      assert.deepEqual((await tablesHolding(db, dialect, reset.streamKey.slice(3))).holding, []);
      const again = await streams.getWithKey('str_sealed1', { userId: 'usr_old', scope: 'write' });
      assert.equal(again.streamKey, reset.streamKey);
      // A second reset moves to the next version: a new key, the previous one refused.
      const second = await streams.resetStreamKey('str_sealed1', 'usr_old');
      assert.notEqual(second.streamKey, reset.streamKey);
      assert.equal(await streams.findByStreamKey(reset.streamKey), undefined);
      assert.equal(
        (await streams.getWithKey('str_sealed1', { userId: 'usr_old', scope: 'write' })).streamKey,
        second.streamKey,
      );
    });

    test('plaintext keys from an older database are converted at start by processes starting together, and keep working', async (t) => {
      const database = await createTestDatabase(dialect);
      t.after(() => database.drop());
      const handle = openDatabase(database.url);
      let handleOpen = true;
      t.after(async () => {
        if (handleOpen) await handle.close();
      });
      await migrateTo(handle.db, BEFORE_VAULT);
      // Rows as the previous schema held them, one with a video recorded from it.
      await sql`insert into users (id, name, created_at) values ('usr_old', 'Old creator', 1700000000000)`.execute(
        handle.db,
      );
      for (const n of [1, 2, 3]) {
        await sql`
          insert into streams (id, creator_id, title, description, status, category, privacy, viewer_count,
            peak_viewer_count, started_at, scheduled_at, ended_at, thumbnail_at, created_at, updated_at,
            stream_key, record)
          values (${`str_old${n}`}, 'usr_old', ${`Old ${n}`}, null, 'scheduled', 'talk', 'public', null,
            null, null, null, null, null, ${1700000000000 + n}, ${1700000000000 + n}, ${oldKey(n)}, 1)`.execute(
          handle.db,
        );
      }
      await sql`
        insert into videos (id, creator_id, title, description, category, duration_seconds, view_count, privacy,
          source_stream_id, published_at, chapters, tags, created_at, updated_at)
        values ('vid_old1', 'usr_old', 'Recording', null, 'talk', 60, 0, 'public', 'str_old1', 1700000000100,
          '[]', '[]', 1700000000100, 1700000000100)`.execute(handle.db);

      await migrateToLatest(handle.db);
      const waiting = await sql<{ n: number }>`select count(*) as n from legacy_stream_keys`.execute(
        handle.db,
      );
      assert.equal(Number(waiting.rows[0]?.n), 3, 'the migration set the old keys aside for sealing');
      await handle.close();
      handleOpen = false;

      // Migrations cannot read the master secret; the conversion runs at start, once it is
      // known. Two processes starting together both try it.
      const env = { DATABASE_URL: database.url, DATA_DIR: database.dataDir, SECRET_KEY: SECRET_HEX };
      const starts = await Promise.all([runCli(['migrate'], env), runCli(['migrate'], env)]);
      for (const start of starts) assert.equal(start.code, 0, start.stderr);
      const after = openDatabase(database.url);
      try {
        const left = await sql<{ n: number }>`select count(*) as n from legacy_stream_keys`.execute(after.db);
        assert.equal(Number(left.rows[0]?.n), 0, 'the starts converted every key');
      } finally {
        await after.close();
      }

      // The service's own start (migrations, then the conversion again: nothing left to do).
      const runtime = await openRuntime(loadConfig(env));
      t.after(() => runtime.close());
      const { streams } = runtime.services;
      const db = runtime.services.database.db;
      const vault = new StreamKeyVault(Buffer.from(SECRET_HEX, 'hex'));
      assert.equal(await sealPlaintextStreamKeys(db, vault), 0, 'nothing is left to convert');
      for (const n of [1, 2, 3]) {
        const found = await streams.findByStreamKey(oldKey(n));
        assert.equal(found?.id, `str_old${n}`, `old key ${n} still admits its stream`);
        const scan = await tablesHolding(db, dialect, oldKey(n));
        assert.ok(scan.scanned > 0);
        assert.deepEqual(scan.holding, [], `old key ${n} is no longer stored in plain text`);
        const asCreator = await streams.getWithKey(`str_old${n}`, { userId: 'usr_old', scope: 'write' });
        assert.equal(asCreator.streamKey, oldKey(n));
        const readOnly = await streams.getWithKey(`str_old${n}`, { userId: 'usr_old', scope: 'read' });
        assert.equal(readOnly.streamKey, undefined);
      }
      assert.equal(await streams.findByStreamKey(oldKey(4)), undefined);
      const video = await sql<{ source_stream_id: string }>`
        select source_stream_id from videos where id = 'vid_old1'`.execute(db);
      assert.equal(video.rows[0]?.source_stream_id, 'str_old1', 'rows referring to streams survive');
      if (dialect === 'sqlite') {
        const broken = await sql`pragma foreign_key_check`.execute(db);
        assert.deepEqual(broken.rows, []);
        // Not in the file's free pages either: a copy of the file does not give the keys away.
        for (const file of [database.url, `${database.url}-wal`]) {
          const bytes = fs.existsSync(file) ? fs.readFileSync(file) : Buffer.alloc(0);
          for (const n of [1, 2, 3])
            assert.equal(bytes.includes(oldKey(n)), false, `${file} holds old key ${n}`);
        }
      }
    });
  });
}
