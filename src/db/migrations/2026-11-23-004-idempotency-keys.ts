import type { Kysely } from 'kysely';

// Idempotency-Key claims and the responses they replay (src/idempotency/). The primary key is
// what makes two processes racing with one key create one resource: only one insert wins.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('account_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('lock_token', 'text')
    .addColumn('locked_until', 'bigint')
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'idempotency_key'])
    .execute();
  // The periodic prune takes the oldest expired rows first.
  await db.schema
    .createIndex('idempotency_keys_expires')
    .on('idempotency_keys')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
