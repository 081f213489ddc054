import type { Kysely } from 'kysely';

// A derived stream key's row names the master secret it was derived under (a short tag of
// it, issue 29), so a creator's read can tell a key the ingest admits from one made under a
// SECRET_KEY since changed by comparing two strings, not by recomputing the key's lookup hash.
// Rows from before keep a null tag and are checked the old way.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('streams').addColumn('stream_key_secret_tag', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('streams').dropColumn('stream_key_secret_tag').execute();
}
