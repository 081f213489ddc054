import type { Kysely } from 'kysely';

// Many ingest machines (issue 25): the holder of a live stream writes its encoder's health (the
// `ingest.health` object, JSON) beside the lease it renews, so an API process that does not hold
// the stream answers the creator's GET /v1/streams/{id} with it too, at most one renewal old.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('stream_leases').addColumn('health', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('stream_leases').dropColumn('health').execute();
}
