import type { Kysely } from 'kysely';

// Creators' profiles (src/profiles/): a bio and links on the user, and their avatar and banner
// images, one row per user and kind. An uploaded image is `processing` until the media job
// has made its fixed sizes (then `ready`, with the version its file names carry) or given up
// (`failed`, with the reason the account page shows). The version of the image shown stays
// until a new one is ready.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('bio', 'text').execute();
  await db.schema
    .alterTable('users')
    .addColumn('links', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .createTable('profile_images')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('pending_version', 'bigint')
    .addColumn('ready_version', 'bigint')
    .addColumn('error', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('profile_images_pk', ['user_id', 'kind'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('profile_images').execute();
  await db.schema.alterTable('users').dropColumn('links').execute();
  await db.schema.alterTable('users').dropColumn('bio').execute();
}
