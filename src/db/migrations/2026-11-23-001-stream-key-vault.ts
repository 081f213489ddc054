import { SqliteAdapter, sql, type Kysely } from 'kysely';

// Stream keys stop being stored in plain text (docs/security.md). Each stream row gets a keyed
// hash of its key (for the ingest's lookup) and a sealed copy (for its creator), and the
// plaintext column goes. A migration cannot compute either form, because it does not know the
// master secret, so the keys already stored move to `legacy_stream_keys`, a table every process
// empties at start, once the secret is known (sealPlaintextStreamKeys in
// src/streams/stream-key-vault.ts). Until then those streams cannot be found by key; no process
// of this version serves before it has run.
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) await upSqlite(db);
  else await upPostgres(db);
}

// DDL is transactional on PostgreSQL, and the migrator runs each migration in a transaction.
async function upPostgres(db: Kysely<unknown>): Promise<void> {
  await createLegacyTable(db);
  await db.schema.alterTable('streams').dropColumn('stream_key').execute();
  await addSealedColumns(db);
}

// SQLite cannot drop a UNIQUE column, so the table is rebuilt without it, as SQLite documents
// (https://sqlite.org/lang_altertable.html#otheralter): foreign keys off, then in one
// transaction create the new table, copy, drop, rename, recreate the indexes and check the
// foreign keys. The new table is written from the stored definition of the old one, so a
// column or index that another migration added to `streams` is kept. The migrator does not
// record the migration in that same transaction: if the process stops in between, the next
// run finds the column gone and has nothing left to do.
async function upSqlite(db: Kysely<unknown>): Promise<void> {
  const columns = await sql<{ name: string }>`select name from pragma_table_info('streams')`.execute(db);
  if (!columns.rows.some((column) => column.name === 'stream_key')) return;
  const table = await sql<{ sql: string }>`
    select sql from sqlite_master where type = 'table' and name = 'streams'`.execute(db);
  const definition = table.rows[0]?.sql ?? '';
  const withoutKey = definition.replace(/,\s*"stream_key" text not null unique/, '');
  if (withoutKey === definition || /"stream_key"/.test(withoutKey)) {
    throw new Error(`unexpected definition of the streams table: ${definition}`);
  }
  const indexes = await sql<{ sql: string }>`
    select sql from sqlite_master where type = 'index' and tbl_name = 'streams' and sql is not null`.execute(
    db,
  );
  const kept = columns.rows.map((column) => column.name).filter((name) => name !== 'stream_key');

  await sql`pragma foreign_keys = off`.execute(db);
  // Zeroes the old table's pages as they are freed, so the plaintext keys do not linger in
  // the file's free space (sealPlaintextStreamKeys does the same for legacy_stream_keys).
  const secureDelete = await sql<{ secure_delete: number }>`pragma secure_delete`.execute(db);
  await sql`pragma secure_delete = on`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await createLegacyTable(trx);
      await sql
        .raw(withoutKey.replace(/^create table "streams"/i, 'create table "streams_new"'))
        .execute(trx);
      const list = sql.join(kept.map((name) => sql.ref(name)));
      await sql`insert into streams_new (${list}) select ${list} from streams`.execute(trx);
      await sql`drop table streams`.execute(trx);
      await sql`alter table streams_new rename to streams`.execute(trx);
      for (const index of indexes.rows) await sql.raw(index.sql).execute(trx);
      await addSealedColumns(trx);
      const broken = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.rows.length > 0) throw new Error('rebuilding streams broke a foreign key');
    });
  } finally {
    await sql.raw(`pragma secure_delete = ${secureDelete.rows[0]?.secure_delete ?? 0}`).execute(db);
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

async function createLegacyTable(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('legacy_stream_keys')
    .addColumn('stream_id', 'text', (c) => c.primaryKey().references('streams.id'))
    .addColumn('stream_key', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into legacy_stream_keys (stream_id, stream_key) select id, stream_key from streams`.execute(
    db,
  );
}

async function addSealedColumns(db: Kysely<unknown>): Promise<void> {
  // Nullable: rows waiting in legacy_stream_keys have neither until the start-up conversion.
  await db.schema.alterTable('streams').addColumn('stream_key_hash', 'text').execute();
  await db.schema.alterTable('streams').addColumn('stream_key_ciphertext', 'text').execute();
  // The ingest's lookup; NULLs do not collide in a unique index on either dialect.
  await db.schema
    .createIndex('streams_by_key_hash')
    .on('streams')
    .column('stream_key_hash')
    .unique()
    .execute();
}

// Back to a plaintext column is not possible without the master secret: going down is refused.
export async function down(): Promise<void> {
  await Promise.reject(new Error('stream keys cannot be put back in plain text'));
}
