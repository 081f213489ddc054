import type { Kysely } from 'kysely';

// A stream's latency_mode (`normal` or `low`): how short its segments are and how close to the
// live edge its player sits. Existing rows are `normal`, what they were packaged as before.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('streams')
    .addColumn('latency_mode', 'text', (c) => c.notNull().defaultTo('normal'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('streams').dropColumn('latency_mode').execute();
}
