import type { Kysely } from 'kysely';

// Stream keys derived from the master secret, the stream's id and a version (issue 29): the
// version is all a new key needs stored beside its lookup hash. Rows from before keep their
// sealed copy and a null version, so the keys encoders are configured with keep working.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('streams').addColumn('stream_key_version', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('streams').dropColumn('stream_key_version').execute();
}
