import type { Kysely } from 'kysely';

// Signing in to the web app (src/web/, src/accounts/login.*): users gain a login (an email,
// stored lower-cased and unique, and a scrypt password hash; both stay null for users made by
// the CLI without one), sessions are rows the server can revoke, failed sign-ins are counted
// per account and per address, and a one-time sign-in link can be issued (the demo creator's).
// API keys gain a coarse last-used time, written in batches (src/accounts/key-usage.ts).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('email', 'text').execute();
  await db.schema.alterTable('users').addColumn('password_hash', 'text').execute();
  // Unique among the non-null: both dialects let any number of rows have no email.
  await db.schema.createIndex('users_by_email').on('users').column('email').unique().execute();
  await db.schema.alterTable('api_keys').addColumn('last_used_at', 'bigint').execute();

  // The primary key is the SHA-256 of the cookie's token: a copy of the table signs nobody in.
  await db.schema
    .createTable('web_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('web_sessions_by_user').on('web_sessions').column('user_id').execute();

  // One row per failed sign-in per bucket (`account:<email>`, `address:<client>`).
  await db.schema
    .createTable('sign_in_failures')
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('failed_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sign_in_failures_by_bucket')
    .on('sign_in_failures')
    .columns(['bucket', 'failed_at'])
    .execute();

  await db.schema
    .createTable('sign_in_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sign_in_links').execute();
  await db.schema.dropTable('sign_in_failures').execute();
  await db.schema.dropTable('web_sessions').execute();
  await db.schema.alterTable('api_keys').dropColumn('last_used_at').execute();
  await db.schema.dropIndex('users_by_email').execute();
  await db.schema.alterTable('users').dropColumn('password_hash').execute();
  await db.schema.alterTable('users').dropColumn('email').execute();
}
